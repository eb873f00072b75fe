package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"tamerlane/pipeline"
	"tamerlane/tune"
	"tamerlane/values"
	"tamerlane/values/published"
)

func runTune(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune", stderr)
	cfgPath := fs.String("c", "", "tuning config (YAML); default: built-in defaults")
	var dataDirs stringList
	fs.Var(&dataDirs, "data", "self-play run directory (one still playing: the games finished so far), measurement directory (its regression self-play), or positions.jsonl (repeatable)")
	out := fs.String("o", "", "output directory (required)")
	var va variantArg
	fs.StringVar(&va.file, "variant-file", "", "a variant file (docs/variant-files.md) whose variant the data names (a run directory records its own)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(dataDirs) == 0 || *out == "" {
		return fmt.Errorf("--data DIR (at least one) and -o DIR are required")
	}
	for _, d := range dataDirs {
		if _, err := os.Stat(d); err != nil {
			return fmt.Errorf("--data: %w", err)
		}
	}
	var files []string
	if va.file != "" {
		files = append(files, va.file)
	}
	cfg := &tune.Config{}
	if *cfgPath != "" {
		var err error
		if cfg, err = tune.LoadConfig(*cfgPath, files...); err != nil {
			return err
		}
	} else if err := cfg.AddVariantFiles(files...); err != nil {
		return err
	} else if err := cfg.Validate(); err != nil {
		return err
	}
	// The quiescence lines are the starting table's, not this binary's.
	opt := cfg.Options(tune.QuietLine(cfg.StartTable))
	rep, err := tune.Run(ctx, dataDirs, *out, opt)
	if err != nil {
		return err
	}
	for _, f := range rep.Fits {
		if m := f.Moves; m != nil {
			r := m.Result
			fmt.Fprintf(stdout, "%-20s %7d positions (moves)  T %.1f  cross-entropy %.5f -> %.5f  top-1 %.4f -> %.4f  valid %.5f -> %.5f, %.4f -> %.4f  result MSE %.5f -> %.5f  (%s)\n",
				f.Variant, f.Positions, r.T, r.Start.CE, r.End.CE, r.Start.Top1, r.End.Top1, r.StartValid.CE, r.EndValid.CE,
				r.StartValid.Top1, r.EndValid.Top1, r.Start.MSE, r.End.MSE, tune.StatusText(f.Status))
			continue
		}
		fmt.Fprintf(stdout, "%-20s %7d positions  K %s  train MSE %s -> %s  valid MSE %s -> %s  (%s; %s)\n",
			f.Variant, f.Positions, f.K.Format(3), f.StartTrainMSE.Format(5), f.TrainMSE.Format(5),
			f.StartValidMSE.Format(5), f.ValidMSE.Format(5), tune.StatusText(f.Status), f.PriorText())
	}
	fmt.Fprintf(stdout, "wrote %s and %s\n", filepath.Join(*out, "tune.json"), filepath.Join(*out, "tables"))
	return nil
}

func runExport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export", stderr)
	run := fs.String("run", "", "tuning run directory (holds tune.json)")
	variant := fs.String("variant", "", "variant to export")
	out := fs.String("o", "", "eval table to write")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *run == "" || *variant == "" || *out == "" {
		return fmt.Errorf("--run, --variant and -o are required")
	}
	dir, err := pipeline.TuneDir(*run)
	if err != nil {
		return err
	}
	if err := tune.Export(dir, *variant, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}

func runValues(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("values", stderr)
	run := fs.String("run", "", "measurement, tuning or pipeline run directory, a directory of measurements (or links to them) to pool, or a PGN file of games from any source (regression only; prints, writes nothing)")
	asJSON := fs.Bool("json", false, "print the values document as JSON (per variant: regression, imbalance, scored differences, agreement, published; P=1)")
	var ov values.RegressionConfig
	fs.IntVar(&ov.MinPly, "min-ply", 0, "regression: drop positions before this ply (0: the run's, default 16); prints without writing files")
	fs.IntVar(&ov.QuietPlies, "quiet-plies", 0, "regression: plies the material must stay unchanged (0: the run's, default 2); prints without writing files")
	fs.IntVar(&ov.MinGames, "min-games", 0, "regression: games with a difference a piece needs (0: the run's, default 30); prints without writing files")
	shared := fs.Int("shared-pieces", -1, "regression: keep positions where both sides have at least this many pieces besides the material difference (-1: the run's, default 0; Kaufman's condition: 1); prints without writing files")
	fs.Float64Var(&ov.ScoredMaxPawns, "scored-max-pawns", 0, "scored differences: read the differences the regression values at this many pawns or fewer (0: the run's, default 2); prints without writing files")
	pairs := fs.Bool("pairs", false, "regression: a class pair.T for every colour-bound type T, the bishop pair (absent: the run's setting, default false); prints without writing files")
	vfile := fs.String("variant-file", "", "a variant file (docs/variant-files.md) whose variant the games of a PGN --run name (a run directory records its own)")
	against := fs.String("against", "", "another measurement, pool or PGN file sharing no games with --run: print each estimate of both, B − A and its z (--run is A), without writing files; \"atlas\" (data/measured) or an atlas FILE.yaml: each estimate of --run beside the atlas's")
	atl := addAtlasFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *run == "" && atl.file == "" && !atl.markdown && atl.plot == "" {
		return fmt.Errorf("--run is required")
	}
	if *vfile != "" && !isPGN(*run) && !isPGN(*against) {
		return fmt.Errorf("--variant-file %s: only a PGN --run needs one; a run directory records the variant files it played", *vfile)
	}
	pairsSet := false
	fs.Visit(func(f *flag.Flag) { pairsSet = pairsSet || f.Name == "pairs" })
	if ov.MinPly < 0 || ov.QuietPlies < 0 || ov.MinGames < 0 || ov.ScoredMaxPawns < 0 {
		return fmt.Errorf("--min-ply, --quiet-plies, --min-games and --scored-max-pawns must not be negative")
	}
	if err := values.CheckMaxPawns(ov.ScoredMaxPawns); err != nil {
		return fmt.Errorf("--scored-max-pawns: %v", err)
	}
	if *shared < -1 {
		return fmt.Errorf("--shared-pieces must be -1 (the run's) or a count of pieces")
	}
	var override func(*values.RegressionConfig)
	if ov != (values.RegressionConfig{}) || *shared >= 0 || pairsSet {
		override = func(rc *values.RegressionConfig) {
			if ov.MinPly > 0 {
				rc.MinPly = ov.MinPly
			}
			if ov.QuietPlies > 0 {
				rc.QuietPlies = ov.QuietPlies
			}
			if ov.MinGames > 0 {
				rc.MinGames = ov.MinGames
			}
			if ov.ScoredMaxPawns > 0 {
				rc.ScoredMaxPawns = ov.ScoredMaxPawns
			}
			if *shared >= 0 {
				rc.SharedPieces = *shared
			}
			if pairsSet {
				rc.Pairs = *pairs
			}
		}
	}
	if done, err := runAtlas(atl, *run, *against, override, *asJSON, stdout); done {
		return err
	}
	if *against != "" {
		return printComparison(*run, *against, *asJSON, stdout, override, *vfile)
	}
	if isPGN(*run) {
		// Games from elsewhere: print, write nothing.
		cat, err := published.Embedded()
		if err != nil {
			return err
		}
		doc, _, err := measureRoot(*run, cat, override, *vfile)
		if err != nil {
			return err
		}
		return printDocument(doc, nil, "", *asJSON, stdout)
	}
	if override != nil {
		// A sensitivity check: the run's files keep its own settings.
		return printMeasurementWith(*run, "", *asJSON, stdout, override)
	}
	if values.IsRun(*run) {
		return printMeasurement(*run, *run, *asJSON, stdout)
	}
	dir, err := pipeline.TuneDir(*run)
	if err != nil {
		if _, derr := values.RunDirs(*run); derr == nil {
			// A bare self-play directory: print, write nothing into it.
			return printMeasurement(*run, "", *asJSON, stdout)
		}
		if st, serr := os.Stat(*run); serr != nil {
			return fmt.Errorf("--run %s: no such directory", *run)
		} else if !st.IsDir() {
			return fmt.Errorf("--run %s is a file, not a run directory (nor a PGN file: its name ends in .pgn)", *run)
		}
		return fmt.Errorf("--run %s holds no run that has piece values (a measurement, pipeline, tuning or self-play run): %w", *run, err)
	}
	rep, err := tune.ReadReport(dir)
	if err != nil {
		return err
	}
	cat, err := published.Embedded()
	if err != nil {
		return err
	}
	imbs, err := values.FitImbalances(rep.Data)
	if err != nil {
		return err
	}
	rows, files, err := values.WriteTuned(dir, rep, imbs, cat)
	if err != nil {
		return err
	}
	// The prior-free values come from the run's own games, when it has
	// them (a pipeline run); they go to DIR/measured/.
	if _, err := values.RunDirs(*run); err == nil {
		return printMeasurement(*run, filepath.Join(*run, "measured"), *asJSON, stdout)
	}
	if *asJSON {
		return fmt.Errorf("%s has no self-play games: the prior-free values need a measurement or pipeline run", *run)
	}
	fmt.Fprint(stdout, values.TunedMarkdown(rep, imbs, rows))
	fmt.Fprintf(stdout, "wrote %s, %s, %s\n", files.JSON, files.Markdown, strings.Join(files.Plots, ", "))
	return nil
}

// printMeasurement writes and prints the prior-free values document of
// the self-play games under dir.
func printMeasurement(dir, out string, asJSON bool, stdout io.Writer) error {
	return printMeasurementWith(dir, out, asJSON, stdout, nil)
}

// printMeasurementWith is printMeasurement with the run's regression
// settings changed by override (nil: none).
func printMeasurementWith(dir, out string, asJSON bool, stdout io.Writer, override func(*values.RegressionConfig)) error {
	rc, err := regressionSettings(dir, override)
	if err != nil {
		return err
	}
	doc, files, err := writeMeasurement(dir, out, rc)
	if err != nil {
		return err
	}
	return printDocument(doc, files, out, asJSON, stdout)
}

// printDocument prints a values document as JSON or Markdown, and the
// files written into out, or why none were: an interim document's values
// are not written into the run (out "": none asked for).
func printDocument(doc *values.Document, files []string, out string, asJSON bool, stdout io.Writer) error {
	if asJSON {
		return printJSON(stdout, doc)
	}
	fmt.Fprint(stdout, doc.Markdown())
	switch {
	case len(files) > 0:
		fmt.Fprintf(stdout, "wrote %s\n", strings.Join(files, ", "))
	case out != "" && doc.Interim():
		fmt.Fprintf(stdout, "not written into %s: the values are interim (games still playing, or stopped before the end); they are written when the measurement finishes\n", out)
	}
	return nil
}

// isPGN reports whether path names a PGN file of games (a file whose
// name ends in .pgn) where a run directory is expected.
func isPGN(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && strings.EqualFold(filepath.Ext(path), ".pgn")
}

// measureRoot returns the values document of root, with the regression
// settings changed by override (nil: none), and the self-play run
// directories it was measured from: a run, a pool, or a PGN file of games
// from any source (values.MeasurePGN: the default settings, no
// directories).
func measureRoot(root string, cat published.Catalog, override func(*values.RegressionConfig), variantFile string) (*values.Document, []string, error) {
	if isPGN(root) {
		var rc values.RegressionConfig
		if override != nil {
			override(&rc)
		}
		opt := rc.Options()
		opt.VariantFile = variantFile
		doc, err := values.MeasurePGN([]string{root}, cat, opt)
		return doc, nil, err
	}
	rc, err := regressionSettings(root, override)
	if err != nil {
		return nil, nil, err
	}
	dirs, err := values.RunDirs(root)
	if err != nil {
		return nil, nil, err
	}
	doc, err := values.Measure(dirs, cat, rc.Options())
	return doc, dirs, err
}

// regressionSettings returns the regression settings of the values under
// dir, changed by override (nil: none).
func regressionSettings(dir string, override func(*values.RegressionConfig)) (values.RegressionConfig, error) {
	rc, err := values.RegressionSettings(dir)
	switch {
	case override != nil && errors.Is(err, values.ErrMixedSettings):
		// Pooled measurements of different settings: the flags choose,
		// the defaults fill in the rest.
		rc = values.RegressionConfig{}
	case err != nil:
		return rc, err
	}
	if override != nil {
		override(&rc)
	}
	return rc, nil
}

// printComparison prints the values of measurement b against those of a
// (values.Compare), each fitted with its own regression settings changed
// by override; it writes no file.
func printComparison(a, b string, asJSON bool, stdout io.Writer, override func(*values.RegressionConfig), variantFile string) error {
	cat, err := published.Embedded()
	if err != nil {
		return err
	}
	var docs [2]*values.Document
	var dirs [2][]string
	for i, root := range []string{a, b} {
		if docs[i], dirs[i], err = measureRoot(root, cat, override, variantFile); err != nil {
			return err
		}
	}
	c, err := values.Compare(a, b, docs[0], docs[1], dirs[0], dirs[1])
	return printComparisonResult(c, err, asJSON, stdout)
}

// printComparisonResult prints a comparison (of two measurements, or of
// a measurement and the atlas) as JSON or Markdown, or returns err.
func printComparisonResult(c interface{ Markdown() string }, err error, asJSON bool, stdout io.Writer) error {
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(stdout, c)
	}
	fmt.Fprint(stdout, c.Markdown())
	return nil
}
