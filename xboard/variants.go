package xboard

import (
	"tamerlane/engine"
	"tamerlane/variantfile"
)

// AddVariantFile reads the variant file at path (docs/variant-files.md),
// offers its variant in the variants feature beside the built-in ones
// and switches to it. XBoard is sent it, as every variant it does not
// know, with setup and piece commands when it selects it.
func (s *Server) AddVariantFile(path string) error {
	v, err := variantfile.Load(path)
	if err != nil {
		return err
	}
	if s.files == nil {
		s.files = map[string]*engine.Variant{}
	}
	if _, ok := s.files[v.Name]; !ok && !variantfile.IsBuiltin(v) {
		s.fileNames = append(s.fileNames, v.Name)
	}
	s.files[v.Name] = v
	s.useVariant(v)
	return nil
}

// newVariant builds the variant called name: one of the variant files',
// or a built-in one at its default rule options.
func (s *Server) newVariant(name string) (*engine.Variant, error) {
	if v, ok := s.files[name]; ok && !variantfile.IsBuiltin(v) {
		return v, nil
	}
	return engine.NewVariant(name, nil)
}
