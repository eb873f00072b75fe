package variantfile

import (
	"slices"

	"tamerlane/engine"
)

// Catalog holds the variants a program was given in variant files, by
// name, in the order they were added: what the UCI and CECP servers offer
// beside the built-in variants. The zero value is empty and ready.
type Catalog struct {
	byName map[string]*engine.Variant
	names  []string
}

// Add reads the variant file at path and adds its variant; a later file
// of the same name replaces it. A file that describes a built-in variant
// adds nothing to Names and is not returned by Lookup: the built-in one
// stands.
func (c *Catalog) Add(path string) (*engine.Variant, error) {
	v, err := Load(path)
	if err != nil {
		return nil, err
	}
	if c.byName == nil {
		c.byName = map[string]*engine.Variant{}
	}
	c.byName[v.Name] = v
	if !IsBuiltin(v) && !slices.Contains(c.names, v.Name) {
		c.names = append(c.names, v.Name)
	}
	return v, nil
}

// Lookup returns the variant of a file called name, unless name is a
// built-in variant's.
func (c *Catalog) Lookup(name string) (*engine.Variant, bool) {
	v, ok := c.byName[name]
	if !ok || IsBuiltin(v) {
		return nil, false
	}
	return v, true
}

// Names lists the file variants that are not built in, in the order they
// were first added.
func (c *Catalog) Names() []string { return slices.Clone(c.names) }
