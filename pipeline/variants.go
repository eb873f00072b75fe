package pipeline

import (
	"bytes"
	"fmt"
	"path/filepath"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/variantfile"
)

// variant returns the pipeline variant called name at its default rule
// options: from the variant file of its self-play stream, if it has one,
// else the built-in variant.
func (c *Config) variant(name string) (*engine.Variant, error) {
	for _, vc := range c.Selfplay.Variants {
		if vc.Variant == name && vc.VariantFile != "" {
			return variantfile.Resolve(name, "", vc.VariantFile)
		}
	}
	return engine.NewVariant(name, nil)
}

// nameFileVariants names the variant of every self-play stream that
// gives only a variant file by the file's variant, before the
// configuration's checks, which go by name; a file that cannot be read
// is left to the self-play configuration's checks to report.
func (c *Config) nameFileVariants() {
	for i := range c.Selfplay.Variants {
		if vc := &c.Selfplay.Variants[i]; vc.Variant == "" && vc.VariantFile != "" {
			if v, err := variantfile.Load(c.resolve(vc.VariantFile)); err == nil {
				vc.Variant = v.Name
			}
		}
	}
}

// supplyVariantFile makes file, a variant file given on the command line,
// the variant file of the self-play streams that name its variant without
// one (variantfile.Supply).
func (c *Config) supplyVariantFile(file string) error {
	if c.Selfplay == nil {
		return fmt.Errorf("the variant file %s: %s has no selfplay section", file, c.File)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	return variantfile.Supply(abs, c.File, c.Selfplay.VariantUses()...)
}

// variantFiles returns the variant files of the self-play streams.
func (c *Config) variantFiles() []string {
	var out []string
	for _, u := range c.Selfplay.VariantUses() {
		if *u.File != "" {
			out = append(out, *u.File)
		}
	}
	return out
}

// recordVariantFiles keeps a copy of each variant file of the pipeline in
// its run directory dir, or checks that each is the copy recorded when
// the run began (variantfile.Record).
func (c *Config) recordVariantFiles(dir string) error {
	return variantfile.RecordAll(dir, c.variantFiles()...)
}

// runVariant returns the variant called name of the pipeline run in
// runDir: from the copy of its variant file the run recorded, else the
// built-in variant.
func runVariant(runDir, name string) (*engine.Variant, error) {
	v, _, err := variantfile.RecordedVariant(runDir, name, "")
	return v, err
}

// derivedTable returns the generation-0 table of a variant without an
// embedded table (one from a variant file): its derived hand table
// (eval.Derived), as a table file.
func derivedTable(v *engine.Variant) ([]byte, error) {
	var b bytes.Buffer
	if err := eval.Derived(v).Write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
