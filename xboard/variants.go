package xboard

import (
	"tamerlane/engine"
)

// AddVariantFile reads the variant file at path (docs/variant-files.md),
// offers its variant in the variants feature beside the built-in ones
// and switches to it. XBoard is sent it, as every variant it does not
// know, with setup and piece commands when it selects it.
func (s *Server) AddVariantFile(path string) error {
	v, err := s.files.Add(path)
	if err != nil {
		return err
	}
	s.useVariant(v)
	return nil
}

// newVariant builds the variant called name: one of the variant files',
// or a built-in one at its default rule options.
func (s *Server) newVariant(name string) (*engine.Variant, error) {
	if v, ok := s.files.Lookup(name); ok {
		return v, nil
	}
	return engine.NewVariant(name, nil)
}
