package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tamerlane/configs"
	"tamerlane/pipeline"
	"tamerlane/selfplay"
	"tamerlane/values/published"
)

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	cfgPath := fs.String("c", "", "pipeline config: a YAML file, or an embedded one by name ("+strings.Join(embeddedConfigs(), ", ")+"); default: default")
	out := fs.String("o", "", "run directory (default: runs/<config name>)")
	workers := fs.Int("workers", 0, "game pairs played at once (default: the config's, else the number of CPUs)")
	quiet := fs.Bool("quiet", false, "no progress bars or progress lines (step logs are still printed)")
	var va variantArg
	fs.StringVar(&va.file, "variant-file", "", "a variant file (docs/variant-files.md) for the config's self-play streams that name its variant without a variant_file")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tamerlane run [-c CONFIG] [-o DIR] [--workers N] [--quiet]")
		fmt.Fprintln(stderr, "Runs generations of self-play, tuning, export, verification and accept into DIR")
		fmt.Fprintln(stderr, "and writes DIR/report.md. Running the same command again resumes.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := selfplay.CheckWorkers(*workers); err != nil {
		return fmt.Errorf("--workers: %v", err)
	}
	cfg, err := loadPipelineConfig(*cfgPath, va.file)
	if err != nil {
		return err
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("runs", cfg.Name)
	}
	cat, err := published.Embedded()
	if err != nil {
		return err
	}
	opts := pipeline.Options{Workers: *workers, Log: stderr, Catalog: cat}
	if !*quiet {
		opts.Progress = stderr
	}
	start := time.Now()
	rep, err := pipeline.Run(ctx, cfg, dir, opts)
	if err != nil {
		return resumable(dir, err)
	}
	for _, g := range rep.Generations {
		for _, v := range g.Variants {
			line := fmt.Sprintf("gen %d %-18s", g.Generation, v.Variant)
			if v.Tune != nil {
				line += fmt.Sprintf(" %6d positions, valid MSE %s -> %s", v.Tune.Positions, v.Tune.StartValidMSE.Format(5), v.Tune.ValidMSE.Format(5))
			}
			if m := v.Match; m != nil {
				line += fmt.Sprintf(", Elo %s", m.Elo)
				if m.SPRT != nil {
					line += fmt.Sprintf(", LLR %.2f %s", float64(m.SPRT.LLR), m.SPRT.Decision)
				}
			}
			if v.Accept != nil {
				line += map[bool]string{true: ", accepted", false: ", not accepted"}[v.Accept.Accepted]
			}
			fmt.Fprintln(stdout, line)
		}
	}
	fmt.Fprintf(stdout, "%s in %s; report: %s\n", rep.Status, time.Since(start).Round(time.Second), filepath.Join(dir, pipeline.ReportMD))
	return nil
}

// embeddedConfigs lists the embedded pipeline configs by name.
func embeddedConfigs() []string {
	names, _ := fs.Glob(configs.FS, "*.yaml")
	for i, n := range names {
		names[i] = strings.TrimSuffix(n, ".yaml")
	}
	return names
}

// loadPipelineConfig reads a config file, or an embedded config by name
// when nothing is at path ("" is the embedded default). Something at path
// that cannot be read (a loop of symbolic links, a link to a missing
// file, a directory) is an error saying what it is.
func loadPipelineConfig(path, variantFile string) (*pipeline.Config, error) {
	if path == "" {
		path = "default"
	}
	var files []string
	if variantFile != "" {
		files = append(files, variantFile)
	}
	if _, err := os.Lstat(path); err == nil {
		return pipeline.Load(path, files...)
	}
	name := strings.TrimSuffix(filepath.Base(path), ".yaml") + ".yaml"
	if filepath.Dir(path) == "." || filepath.Clean(filepath.Dir(path)) == "configs" {
		if b, err := fs.ReadFile(configs.FS, name); err == nil {
			return pipeline.Parse(b, filepath.Join("configs", name), files...)
		}
	}
	return nil, fmt.Errorf("%s: no such file, and no embedded config of that name (embedded: %s)", path, strings.Join(embeddedConfigs(), ", "))
}
