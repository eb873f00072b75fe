package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
	"tamerlane/tune"
	"tamerlane/values/published"
	"tamerlane/variantfile"
)

// Format identifies the run directory layout (pipeline.json).
const Format = "tamerlane-pipeline/1"

// Steps returns the steps of a generation, in order (a new slice each
// call).
func Steps() []string {
	return []string{StepSelfplay, StepMeasure, StepTune, StepExport, StepVerify, StepAccept, StepVsGen0, StepAnchor}
}

// Step names.
const (
	StepSelfplay = "selfplay"
	// StepMeasure writes the prior-free piece values of the generation's
	// games (measured-values.json).
	StepMeasure = "measure"
	StepTune    = "tune"
	StepExport  = "export"
	StepVerify  = "verify"
	StepAccept  = "accept"
	// StepVsGen0 measures the accepted tables against generation 0.
	StepVsGen0 = "vs-gen0"
	// StepAnchor plays the current tables against the outside anchor.
	StepAnchor = "anchor"
)

// File names in a run directory.
const (
	InfoName     = "pipeline.json"
	ConfigName   = "config.yaml"
	StepsName    = "steps.json"
	AcceptedName = "accepted.json"
	ReportMD     = "report.md"
	ReportJSON   = "report.json"
	TablesDir    = "tables"
)

// Options are the settings of Run that never change a result.
type Options struct {
	// Workers is the number of game pairs played at once (0: the
	// selfplay config's workers, else one per CPU).
	Workers int
	// Factory builds the players (nil: selfplay.DefaultFactory()).
	Factory selfplay.PlayerFactory
	// Progress receives self-play progress (nil: none): a progress bar on
	// a terminal, log lines otherwise.
	Progress io.Writer
	// Log receives one line per step and variant (nil: none).
	Log io.Writer
	// Quiet is the quiescence function tuning uses when tune.quiet is on
	// (nil: tune.QuietLine under each generation's starting table).
	Quiet tune.QuietFunc
	// Catalog holds the published values (nil: the embedded catalog).
	Catalog published.Catalog
	// Atlas holds the atlas of measured values the report sets beside
	// the run's (nil: the embedded data/measured).
	Atlas published.Catalog
	// Now stamps a new run (nil: time.Now); the stamp dates the tuned
	// tables, so that a resumed run writes the same bytes.
	Now func() time.Time
	// AfterStep, if set, is called after each step is recorded (tests use
	// it to interrupt a run).
	AfterStep func(gen int, step string)
}

// Info is pipeline.json: the identity of a run directory.
type Info struct {
	Format string `json:"format"`
	// Kind is the run kind, "pipeline" (see fsx.CheckKind).
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	ConfigHash string `json:"config_hash"`
	// ConfigFile is the configuration's file name as given.
	ConfigFile string `json:"config_file"`
	// Created is when the run started (RFC 3339); it dates the tuned
	// tables' provenance.
	Created string `json:"created"`
	// Variants are the pipeline's variants.
	Variants []string `json:"variants"`
}

// StepRecord is one finished step in steps.json.
type StepRecord struct {
	Step    string  `json:"step"`
	Seconds float64 `json:"seconds"`
	Done    string  `json:"done"`
}

// StepsFile is steps.json: the finished steps of a generation, written
// atomically after each step's outputs.
type StepsFile struct {
	Generation int          `json:"generation"`
	Steps      []StepRecord `json:"steps"`
}

func (s *StepsFile) done(step string) bool {
	for _, r := range s.Steps {
		if r.Step == step {
			return true
		}
	}
	return false
}

// Acceptance is accepted.json: a generation's accept decisions.
type Acceptance struct {
	Generation int               `json:"generation"`
	Rule       string            `json:"rule"`
	Variants   []VariantDecision `json:"variants"`
}

// VariantDecision is one variant's accept decision.
type VariantDecision struct {
	Variant  string `json:"variant"`
	Accepted bool   `json:"accepted"`
	// Reason explains the decision in words.
	Reason string `json:"reason"`
	// Decision is the SPRT's ("H0", "H1", "continue"; "" without a match).
	Decision string `json:"decision"`
	// Table is the table current after this generation, relative to the
	// run directory.
	Table string `json:"table"`
}

// GenDir returns the directory of generation g.
func GenDir(dir string, g int) string { return filepath.Join(dir, fmt.Sprintf("gen-%03d", g)) }

// runner carries one Run.
type runner struct {
	cfg  *Config
	dir  string
	opts Options
	info *Info
	cat  published.Catalog
	// atlas is the atlas of measured values (Options.Atlas).
	atlas published.Catalog
	log   io.Writer
	// drawn holds the digests of the plots' data as last drawn.
	drawn map[string]string
}

// Run runs (or resumes) the pipeline of cfg in dir: for each generation
// self-play with the current tables, tuning, export, verification matches
// and the accept decision, regenerating report.md and report.json after
// every step. A directory holding a run of another configuration is
// refused. Cancelling ctx stops at the next step boundary (self-play and
// matches stop after their running pairs); running again resumes. It
// returns the final report.
func Run(ctx context.Context, cfg *Config, dir string, opts Options) (*Report, error) {
	r := &runner{cfg: cfg, dir: dir, opts: opts, log: opts.Log, drawn: map[string]string{}}
	if r.log == nil {
		r.log = io.Discard
	}
	if r.opts.Now == nil {
		r.opts.Now = time.Now
	}
	r.cat = opts.Catalog
	if r.cat == nil {
		var err error
		if r.cat, err = published.Embedded(); err != nil {
			return nil, err
		}
	}
	r.atlas = opts.Atlas
	if r.atlas == nil {
		var err error
		if r.atlas, err = published.EmbeddedMeasured(); err != nil {
			return nil, err
		}
	}
	if err := selfplay.CheckWorkers(opts.Workers); err != nil {
		return nil, fmt.Errorf("workers: %v", err) // before the directory is made
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := selfplay.LockDir(dir, "pipeline")
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := r.claim(); err != nil {
		return nil, err
	}
	if _, err := fsx.CleanTemps(dir); err != nil {
		return nil, err
	}
	fmt.Fprintf(r.log, "pipeline %s: %d generation(s) of %s; run directory %s\n",
		cfg.Name, cfg.Generations, strings.Join(cfg.Variants(), ", "), dir)
	if _, err := r.report(); err != nil {
		return nil, err
	}
	G := cfg.Generations
	for g := 1; g <= G; g++ {
		gd := GenDir(dir, g)
		if err := os.MkdirAll(gd, 0o755); err != nil {
			return nil, err
		}
		steps, err := readSteps(gd)
		if err != nil {
			return nil, err
		}
		steps.Generation = g
		for _, step := range Steps() {
			if steps.done(step) {
				r.logf(g, step, "", "done earlier")
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			start := time.Now()
			var serr error
			switch step {
			case StepSelfplay:
				serr = r.selfplay(ctx, g)
			case StepMeasure:
				serr = r.measure(g)
			case StepTune:
				serr = r.tune(ctx, g)
			case StepExport:
				serr = r.export(g)
			case StepVerify:
				serr = r.verify(ctx, g)
			case StepAccept:
				serr = r.accept(g)
			case StepVsGen0:
				serr = r.vsGen0(ctx, g)
			case StepAnchor:
				serr = r.anchor(ctx, g)
			}
			if serr != nil {
				r.report() // best effort: show what is done
				return nil, fmt.Errorf("generation %d, %s: %w", g, step, serr)
			}
			steps.Steps = append(steps.Steps, StepRecord{Step: step, Seconds: time.Since(start).Seconds(), Done: time.Now().UTC().Format(time.RFC3339)})
			if err := fsx.WriteJSON(filepath.Join(gd, StepsName), steps); err != nil {
				return nil, err
			}
			if _, err := r.report(); err != nil {
				return nil, err
			}
			if opts.AfterStep != nil {
				opts.AfterStep(g, step)
			}
		}
	}
	rep, err := r.report()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(r.log, "report: %s\n", filepath.Join(dir, ReportMD))
	return rep, nil
}

// logf writes one step log line: "gen g/G step variant: ...".
func (r *runner) logf(g int, step, variant, format string, a ...any) {
	head := fmt.Sprintf("gen %d/%d %s", g, r.cfg.Generations, step)
	if variant != "" {
		head += " " + variant
	}
	fmt.Fprintf(r.log, "%s: %s\n", head, fmt.Sprintf(format, a...))
}

// claim checks that dir is new or holds this configuration's run and, for
// a new run, writes the generation-0 tables, the configuration and
// pipeline.json (last).
func (r *runner) claim() error {
	if err := r.cfg.recordVariantFiles(r.dir); err != nil {
		return err
	}
	hash, err := r.cfg.Hash()
	if err != nil {
		return err
	}
	if err := fsx.CheckKind(r.dir, fsx.KindPipeline); err != nil {
		return err
	}
	path := filepath.Join(r.dir, InfoName)
	var old Info
	err = fsx.ReadJSON(path, &old, Format)
	switch {
	case err == nil && old.ConfigHash != hash:
		started, serr := r.started()
		if serr != nil {
			return serr
		}
		if started {
			return fmt.Errorf("%s holds pipeline run %q of another configuration (%s, hash %.12s; this one: %s, hash %.12s): "+
				"use another directory (-o) or the same configuration (only generations may change)",
				r.dir, old.Name, old.ConfigFile, old.ConfigHash, r.cfg.File, hash)
		}
		// Nothing was played: an earlier run failed at its start; claim anew.
	case err == nil:
		r.info = &old
		// The generations may have changed (they are not hashed): keep
		// config.yaml the configuration that is running.
		cpath := filepath.Join(r.dir, ConfigName)
		if cur, err := os.ReadFile(cpath); err != nil || !bytes.Equal(cur, r.cfg.source) {
			return fsx.WriteFile(cpath, r.cfg.source)
		}
		return nil
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		switch e.Name() {
		case ".lock", ConfigName, TablesDir, "gen-000", ReportMD, ReportJSON, InfoName, "gen-001", variantfile.RecordDir:
		default:
			if !strings.HasPrefix(e.Name(), ".") {
				return fmt.Errorf("%s is not empty and holds no pipeline run (%s): use a new directory", r.dir, e.Name())
			}
		}
	}
	info := &Info{Format: Format, Kind: fsx.KindPipeline, Name: r.cfg.Name, ConfigHash: hash, ConfigFile: r.cfg.File,
		Created: r.opts.Now().UTC().Format(time.RFC3339), Variants: r.cfg.Variants()}
	for _, d := range []string{filepath.Join(r.dir, TablesDir), filepath.Join(GenDir(r.dir, 0), TablesDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for _, v := range r.cfg.Variants() {
		b, err := r.cfg.initialTable(v)
		if err != nil {
			return err
		}
		for _, p := range []string{filepath.Join(GenDir(r.dir, 0), TablesDir, v+".yaml"), filepath.Join(r.dir, TablesDir, v+".yaml")} {
			if err := fsx.WriteFile(p, b); err != nil {
				return err
			}
		}
	}
	if err := fsx.WriteFile(filepath.Join(r.dir, ConfigName), r.cfg.source); err != nil {
		return err
	}
	if err := fsx.WriteJSON(path, info); err != nil {
		return err
	}
	r.info = info
	return nil
}

// started reports whether the run directory holds any work: a finished
// step or a journaled self-play pair.
func (r *runner) started() (bool, error) {
	for _, pat := range []string{filepath.Join(r.dir, "gen-*", StepsName), filepath.Join(r.dir, "gen-*", "*", "*", "journal.jsonl"), filepath.Join(r.dir, "gen-*", "*", "*", "*", "journal.jsonl")} {
		ms, err := filepath.Glob(pat)
		if err != nil {
			return false, err
		}
		for _, m := range ms {
			if st, err := os.Stat(m); err == nil && st.Size() > 0 {
				return true, nil
			}
		}
	}
	return false, nil
}

func readSteps(gd string) (*StepsFile, error) {
	var s StepsFile
	if err := fsx.ReadJSON(filepath.Join(gd, StepsName), &s, ""); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return &s, nil
}

// ReadAcceptance reads a generation's accepted.json.
func ReadAcceptance(gd string) (*Acceptance, error) {
	var a Acceptance
	if err := fsx.ReadJSON(filepath.Join(gd, AcceptedName), &a, ""); err != nil {
		return nil, err
	}
	return &a, nil
}

// ReadInfo reads a run directory's pipeline.json.
func ReadInfo(dir string) (*Info, error) {
	var i Info
	if err := fsx.ReadRun(dir, fsx.KindPipeline, Format, &i); err != nil {
		return nil, err
	}
	return &i, nil
}

// rel returns path relative to dir (slash-separated), or path.
func rel(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}
