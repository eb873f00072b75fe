package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"tamerlane/engine"
	"tamerlane/values"
	"tamerlane/values/published"
	"tamerlane/variantfile"
)

// atlasFlags are the values command's flags for the atlas of measured
// piece values (data/measured): writing it from a run, comparing a run
// with it (--against), and printing its section of docs/piece-values.md.
type atlasFlags struct {
	write, config, engineBuild string
	file, plot                 string
	markdown                   bool
}

// addAtlasFlags registers the atlas flags on fs.
func addAtlasFlags(fs *flag.FlagSet) *atlasFlags {
	a := &atlasFlags{}
	fs.StringVar(&a.write, "write-atlas", "", "write the atlas file of the measurement --run (data/measured/VARIANT.yaml: the variant is the file's name) atomically, with the provenance the run records; writes nothing into the run")
	fs.StringVar(&a.config, "config", "", "with --write-atlas: the config the run was started with, for a run that does not record its path (checked against the run's hash)")
	fs.StringVar(&a.engineBuild, "engine-build", "", "with --write-atlas: the engine build (e.g. a commit) that played the run, for a run that does not record it")
	fs.StringVar(&a.file, "atlas", "", "an atlas file (data/measured/VARIANT.yaml): --markdown prints its section of docs/piece-values.md, --plot BASE writes its plot")
	fs.BoolVar(&a.markdown, "markdown", false, "with --atlas: print the atlas's tables (in pawns and in its reference scale: the variant's cited scale, else N=1) beside the published figures")
	fs.StringVar(&a.plot, "plot", "", "with --atlas: write the atlas's plot to BASE.png and BASE.svg")
	return a
}

// isAtlasAgainst reports whether --against names the atlas: "atlas" (the
// embedded data/measured) or a YAML file.
func isAtlasAgainst(against string) bool {
	ext := strings.ToLower(filepath.Ext(against))
	return against == "atlas" || ext == ".yaml" || ext == ".yml"
}

// runAtlas does what the atlas flags ask, if any (false: none was given).
func runAtlas(a *atlasFlags, run, against string, override func(*values.RegressionConfig), asJSON bool, stdout io.Writer) (bool, error) {
	switch {
	case a.file != "":
		if run != "" || a.write != "" {
			return true, errors.New("--atlas prints an atlas file: it takes no --run or --write-atlas")
		}
		if !a.markdown && a.plot == "" {
			return true, errors.New("--atlas needs --markdown or --plot BASE")
		}
		return true, printAtlas(a, stdout)
	case a.markdown || a.plot != "":
		return true, errors.New("--markdown and --plot need --atlas FILE")
	case a.write != "":
		if run == "" || against != "" || override != nil || asJSON {
			return true, errors.New("--write-atlas needs --run DIR (a measurement) and takes no --against, --json or regression settings: the atlas is the run's own fit")
		}
		return true, writeAtlas(a, run, stdout)
	case a.config != "" || a.engineBuild != "":
		return true, errors.New("--config and --engine-build go with --write-atlas")
	case against != "" && isAtlasAgainst(against):
		return true, printAtlasComparison(run, against, asJSON, stdout, override)
	}
	return false, nil
}

// writeAtlas writes the atlas file a.write of the measurement run.
func writeAtlas(a *atlasFlags, run string, stdout io.Writer) error {
	if !values.IsRun(run) {
		return fmt.Errorf("--write-atlas: %s is not a measurement directory (tamerlane measure)", run)
	}
	variant := strings.TrimSuffix(filepath.Base(a.write), filepath.Ext(a.write))
	prov, err := values.ReadRunProvenance(run, a.config, a.engineBuild)
	if err != nil {
		return err
	}
	cat, err := published.Embedded()
	if err != nil {
		return err
	}
	doc, _, err := measureRoot(run, cat, nil, "")
	if err != nil {
		return err
	}
	if doc.Variant(variant) == nil {
		var names []string
		for _, v := range doc.Variants {
			names = append(names, v.Variant)
		}
		return fmt.Errorf("--write-atlas %s: the run has no values of %s (an atlas file is named after its variant; the run has %s)", a.write, variant, strings.Join(names, ", "))
	}
	notes, err := values.WriteAtlas(a.write, doc, variant, prov, cat)
	for _, n := range notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%s, engine %s, last game %s)\n", a.write, prov.Config, prov.Engine, prov.Date)
	return nil
}

// printAtlas prints an atlas file's section of docs/piece-values.md
// and/or writes its plot.
func printAtlas(a *atlasFlags, stdout io.Writer) error {
	tab, err := published.LoadFile(a.file)
	if err != nil {
		return err
	}
	cat, err := published.Embedded()
	if err != nil {
		return err
	}
	pub := cat[tab.Variant]
	if a.markdown {
		ev, err := atlasVariant(tab)
		if err != nil {
			return err
		}
		fmt.Fprint(stdout, values.AtlasMarkdown(tab, pub, filepath.ToSlash(a.file), ev))
	}
	if a.plot != "" {
		if err := os.MkdirAll(filepath.Dir(a.plot), 0o755); err != nil {
			return fmt.Errorf("--plot %s: %v", a.plot, err)
		}
		png, svg, err := values.PlotAtlas(a.plot, tab, pub)
		if err != nil {
			return err
		}
		if !a.markdown {
			fmt.Fprintf(stdout, "wrote %s, %s\n", png, svg)
		}
	}
	return nil
}

// atlasVariant returns the variant an atlas file measured: the built-in
// one of its name, else the variant file its measurement config names
// (the config path its provenance records, read from the working
// directory: the repository root). nil when neither is found, so that the
// table is printed without the pieces' moves.
func atlasVariant(tab *published.Table) (*engine.Variant, error) {
	if v, err := engine.VariantWithRules(tab.Variant, ""); err == nil {
		return v, nil
	}
	for _, s := range tab.Sources {
		if s.Provenance == nil {
			continue
		}
		cfg, err := values.LoadConfig(s.Provenance.Config, "")
		if err != nil {
			continue // not here: the table goes without the moves
		}
		for _, v := range cfg.Variants {
			if v.Variant == tab.Variant && v.VariantFile != "" {
				ev, err := variantfile.Load(v.VariantFile)
				if err != nil {
					return nil, fmt.Errorf("%s: the variant file of %s: %w", s.Provenance.Config, tab.Variant, err)
				}
				return ev, nil
			}
		}
	}
	return nil, nil
}

// printAtlasComparison prints the values of the run against the atlas:
// the embedded data/measured ("atlas") or an atlas file.
func printAtlasComparison(run, against string, asJSON bool, stdout io.Writer, override func(*values.RegressionConfig)) error {
	var atlas published.Catalog
	name := "data/measured (embedded in this binary)"
	if against == "atlas" {
		var err error
		if atlas, err = published.EmbeddedMeasured(); err != nil {
			return err
		}
	} else {
		if _, err := os.Stat(against); err != nil {
			return fmt.Errorf("--against %s: %w", against, err)
		}
		tab, err := published.LoadFile(against)
		if err != nil {
			return err
		}
		atlas, name = published.Catalog{tab.Variant: tab}, against
	}
	cat, err := published.Embedded()
	if err != nil {
		return err
	}
	doc, dirs, err := measureRoot(run, cat, override, "")
	if err != nil {
		return err
	}
	hashes, err := values.MeasurementHashes(dirs)
	if err != nil {
		return err
	}
	c, err := values.CompareAtlas(run, name, doc, atlas, hashes)
	return printComparisonResult(c, err, asJSON, stdout)
}
