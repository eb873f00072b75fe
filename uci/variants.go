package uci

import (
	"fmt"

	"tamerlane/engine"
)

// AddVariantFile reads the variant file at path (docs/variant-files.md),
// offers its variant as a UCI_Variant beside the built-in ones and
// switches to it, from its start position. The file's variant takes no
// Rules; a later file of the same name replaces it.
func (s *Server) AddVariantFile(path string) error {
	v, err := s.files.Add(path)
	if err != nil {
		return err
	}
	s.variant, s.rules, s.v = v.Name, "", v
	s.pos = engine.NewPosition(v)
	s.searcher = nil
	return nil
}

// newVariant builds the variant name under the rule options opts: a
// variant from a file (which takes none), or a built-in one.
func (s *Server) newVariant(name string, opts engine.Options) (*engine.Variant, error) {
	if v, ok := s.files.Lookup(name); ok {
		if len(opts) > 0 {
			return nil, fmt.Errorf("variant %s comes from a variant file, which sets its rules itself", name)
		}
		return v, nil
	}
	return engine.NewVariant(name, opts)
}

// variantNames lists the UCI_Variant choices: the built-in variants, then
// those of the variant files, in the order they were added.
func (s *Server) variantNames() []string {
	return append(engine.VariantNames(), s.files.Names()...)
}
