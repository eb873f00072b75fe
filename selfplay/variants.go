package selfplay

import (
	"path/filepath"

	"tamerlane/internal/fsx"
	"tamerlane/variantfile"
)

// eachVariantFile calls f with the variant name and a pointer to the
// variant file of every stream that plays a variant from a file, in
// configuration order, and stops at f's first error.
func (c *Config) eachVariantFile(f func(name string, file *string) error) error {
	for _, u := range c.VariantUses() {
		if *u.File != "" {
			if err := f(u.Variant, u.File); err != nil {
				return err
			}
		}
	}
	return nil
}

// VariantUses lists every stream's variant name and a pointer to its
// variant file ("": none), in configuration order: what a command line's
// --variant-file supplies (variantfile.Supply).
func (c *Config) VariantUses() []variantfile.Use {
	var out []variantfile.Use
	for i := range c.Variants {
		out = append(out, variantfile.Use{Variant: c.Variants[i].Variant, File: &c.Variants[i].VariantFile})
	}
	for i := range c.Imbalances {
		out = append(out, variantfile.Use{Variant: c.Imbalances[i].Variant, File: &c.Imbalances[i].VariantFile})
	}
	for i := range c.Matches {
		out = append(out, variantfile.Use{Variant: c.Matches[i].Variant, File: &c.Matches[i].VariantFile})
	}
	return out
}

// recordVariants keeps a copy of every variant file the run plays, with
// its SHA-256, in the run directory (variantfile.Record), or checks, when
// the run is resumed, that each file is the copy recorded at its start.
// A directory of another kind of run is refused first, untouched.
func recordVariants(dir string, c *Config) error {
	return c.eachVariantFile(func(_ string, file *string) error {
		if err := fsx.CheckKind(dir, fsx.KindSelfplay); err != nil {
			return err
		}
		_, err := variantfile.Record(dir, *file)
		return err
	})
}

// useRecordedVariants points the streams of a run directory's
// configuration at the copies of their variant files recorded in dir, so
// that a run is resumed and read with the variant it began with, wherever
// the original file went.
func useRecordedVariants(dir string, c *Config) {
	_ = c.eachVariantFile(func(name string, file *string) error {
		if p, ok := variantfile.RecordedFile(dir, name); ok {
			if abs, err := filepath.Abs(p); err == nil {
				*file = abs
			}
		}
		return nil
	})
}

// readRunConfig reads the config.yaml of run directory dir, its streams
// pointed at the variant files recorded there (useRecordedVariants),
// without validating it.
func readRunConfig(dir string) (*Config, error) {
	cfg, err := readConfig(filepath.Join(dir, ConfigName))
	if err != nil {
		return nil, err
	}
	useRecordedVariants(dir, cfg)
	return cfg, nil
}
