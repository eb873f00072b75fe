package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
	"tamerlane/values"
	"tamerlane/values/published"
)

// runMeasure plays a values measurement (tamerlane measure -c CONFIG -o DIR).
func runMeasure(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("measure", stderr)
	cfgPath := fs.String("c", "", "measurement config (configs/values-*.yaml, calibration-chess.yaml)")
	out := fs.String("o", "", "measurement run directory (created, or resumed)")
	workers := fs.Int("workers", 0, "game pairs played at once (default: the config's, else one per CPU)")
	stage := fs.String("stage", "", `play only "selfplay" (regression games) or "imbalance" (planned matches)`)
	var va variantArg
	fs.StringVar(&va.file, "variant-file", "", "a variant file (docs/variant-files.md) for the config's variant of that name without a variant_file")
	concl := fs.String("conclude", "", `end the imbalance plans at a round: "now" (after the rounds begun) or a round number; no piece's matches play from it on, the check matches follow and the plan ends (recorded in the stage's conclude.json): for a budget spent before the targets or caps`)
	seed := fs.Uint64("seed", 0, "replace the config's seed (0: keep it): another seed plays other games, to pool with the first run (tamerlane values --run ROOT)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *cfgPath == "" || *out == "" {
		return fmt.Errorf("-c and -o are required")
	}
	if *stage != "" && *stage != "selfplay" && *stage != "imbalance" {
		return fmt.Errorf("--stage %q: want selfplay or imbalance", *stage)
	}
	if err := selfplay.CheckWorkers(*workers); err != nil {
		return fmt.Errorf("--workers: %v", err)
	}
	conclude := 0
	if *concl != "" {
		var err error
		if conclude, err = values.ParseConclude(*concl); err != nil {
			return fmt.Errorf("--conclude %v", err)
		}
		if *stage == "selfplay" {
			return fmt.Errorf("--conclude ends the imbalance plans: use it with --stage imbalance or without --stage")
		}
	}
	cfg, err := values.LoadConfig(*cfgPath, va.file)
	if err != nil {
		return err
	}
	if *seed != 0 {
		cfg.Seed = *seed
	}
	if err := values.Run(ctx, cfg, *out, values.RunOptions{Workers: *workers, Progress: stderr, Stage: *stage, Conclude: conclude}); err != nil {
		return err
	}
	doc, files, err := writeMeasurement(*out, *out, cfg.Regression)
	if err != nil {
		return err
	}
	return printDocument(doc, files, *out, false, stdout)
}

// writeMeasurement computes the values of the self-play directories under
// dir and writes values.json, values.md and the plots into out (nothing
// when out is "").
func writeMeasurement(dir, out string, rc values.RegressionConfig) (*values.Document, []string, error) {
	dirs, err := values.RunDirs(dir)
	if err != nil {
		return nil, nil, err
	}
	cat, err := published.Embedded()
	if err != nil {
		return nil, nil, err
	}
	doc, err := values.Measure(dirs, cat, rc.Options())
	if err != nil {
		return nil, nil, err
	}
	if out == "" || doc.Interim() {
		return doc, nil, nil
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, nil, err
	}
	jp, mp := filepath.Join(out, "values.json"), filepath.Join(out, "values.md")
	if err := fsx.WriteFile(jp, append(b, '\n')); err != nil {
		return nil, nil, err
	}
	if err := fsx.WriteFile(mp, []byte(doc.Markdown())); err != nil {
		return nil, nil, err
	}
	plots, err := doc.Plot(out)
	if err != nil {
		return nil, nil, err
	}
	return doc, append([]string{jp, mp}, plots...), nil
}
