package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
	"tamerlane/tune"
	"tamerlane/tune/published"
)

// Format identifies the run directory layout (pipeline.json).
const Format = "tamerlane-pipeline/1"

// Steps are the steps of a generation, in order.
var Steps = []string{StepSelfplay, StepTune, StepExport, StepVerify, StepAccept}

// Step names.
const (
	StepSelfplay = "selfplay"
	StepTune     = "tune"
	StepExport   = "export"
	StepVerify   = "verify"
	StepAccept   = "accept"
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
	// (nil: tune.QuietLine()).
	Quiet tune.QuietFunc
	// Catalog holds the published values (nil: the embedded catalog).
	Catalog published.Catalog
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
	log  io.Writer
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
	if r.opts.Quiet == nil {
		r.opts.Quiet = tune.QuietLine()
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
		for _, step := range Steps {
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
			case StepTune:
				serr = r.tune(ctx, g)
			case StepExport:
				serr = r.export(g)
			case StepVerify:
				serr = r.verify(ctx, g)
			case StepAccept:
				serr = r.accept(g)
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
		case ".lock", ConfigName, TablesDir, "gen-000", ReportMD, ReportJSON, InfoName, "gen-001":
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
	b, err := os.ReadFile(filepath.Join(gd, StepsName))
	if errors.Is(err, os.ErrNotExist) {
		return &s, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(gd, StepsName), err)
	}
	return &s, nil
}

// baseTable is the table current when generation g started (player B of
// its matches, the start of its tuning).
func (r *runner) baseTable(g int, v string) string {
	return filepath.Join(GenDir(r.dir, g), "base", v+".yaml")
}

// newTable is generation g's exported table.
func (r *runner) newTable(g int, v string) string {
	return filepath.Join(GenDir(r.dir, g), TablesDir, v+".yaml")
}

// selfplay copies the current tables to gen/base and plays the
// generation's self-play run.
func (r *runner) selfplay(ctx context.Context, g int) error {
	gd := GenDir(r.dir, g)
	if err := os.MkdirAll(filepath.Join(gd, "base"), 0o755); err != nil {
		return err
	}
	for _, v := range r.cfg.Variants() {
		b, err := os.ReadFile(filepath.Join(r.dir, TablesDir, v+".yaml"))
		if err != nil {
			return err
		}
		if err := fsx.WriteFile(r.baseTable(g, v), b); err != nil {
			return err
		}
	}
	cfg, err := r.selfplayConfig(g)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	pairs := 0
	for _, s := range cfg.Variants {
		pairs += s.Pairs
	}
	for _, s := range cfg.Imbalances {
		pairs += s.Pairs
	}
	r.logf(g, StepSelfplay, "", "%d streams, %d game pairs at %s into %s", len(cfg.Variants)+len(cfg.Imbalances), pairs, limits(cfg), filepath.Join(gd, "selfplay"))
	res, err := selfplay.Run(ctx, cfg, filepath.Join(gd, "selfplay"), selfplay.RunOptions{Workers: r.opts.Workers, Factory: r.opts.Factory, Progress: r.opts.Progress})
	if err != nil {
		return err
	}
	for _, s := range res.Summary.Streams {
		r.logf(g, StepSelfplay, s.Name, "%d pairs, %d games, White +%d =%d -%d, mean %.1f plies, %d positions",
			s.Pairs, s.Games, s.White.Wins, s.White.Draws, s.White.Losses, float64(s.MeanPlies), s.Positions)
	}
	if res.Timing != nil && res.Timing.PairsPlayed > 0 {
		r.logf(g, StepSelfplay, "", "%d games in %.0f s (%.0f games/hour)", res.Timing.GamesPlayed, res.Timing.WallSeconds, res.Timing.GamesPerHour)
	}
	return nil
}

func limits(c *selfplay.Config) string {
	switch {
	case c.Nodes > 0 && c.Depth > 0:
		return fmt.Sprintf("%d nodes and depth %d", c.Nodes, c.Depth)
	case c.Depth > 0:
		return fmt.Sprintf("depth %d", c.Depth)
	}
	return fmt.Sprintf("%d nodes", c.Nodes)
}

// selfplayConfig is generation g's self-play configuration: the
// configured one with the base tables and seed+g-1. The tables' paths are
// absolute: selfplay resolves relative paths against the config file's
// directory, not the working directory.
func (r *runner) selfplayConfig(g int) (*selfplay.Config, error) {
	cp := *r.cfg.Selfplay
	cp.Seed = r.cfg.seed(g)
	cp.Variants = slices.Clone(cp.Variants)
	cp.Imbalances = slices.Clone(cp.Imbalances)
	table := func(v string) (string, error) { return filepath.Abs(r.baseTable(g, v)) }
	var err error
	for i := range cp.Variants {
		if cp.Variants[i].Table, err = table(cp.Variants[i].Variant); err != nil {
			return nil, err
		}
	}
	for i := range cp.Imbalances {
		if cp.Imbalances[i].Table, err = table(cp.Imbalances[i].Variant); err != nil {
			return nil, err
		}
	}
	return &cp, nil
}

// dataDirs lists the self-play directories generation g tunes on: its own
// and History previous ones (all with History -1), newest first.
func (r *runner) dataDirs(g int) []string {
	dirs := []string{filepath.Join(GenDir(r.dir, g), "selfplay")}
	for k := g - 1; k >= 1; k-- {
		if r.cfg.History >= 0 && g-k > r.cfg.History {
			break
		}
		dirs = append(dirs, filepath.Join(GenDir(r.dir, k), "selfplay"))
	}
	return dirs
}

// tune fits the tables of generation g and writes its values tables and
// plots.
func (r *runner) tune(ctx context.Context, g int) error {
	gd := GenDir(r.dir, g)
	out := filepath.Join(gd, "tune")
	opt := r.cfg.Tune.Options(r.opts.Quiet)
	opt.Start = func(v *engine.Variant) (*eval.Weights, error) { return eval.LoadFile(v, r.baseTable(g, v.Name)) }
	opt.Name = fmt.Sprintf("%s/gen-%03d", r.cfg.Name, g)
	created, err := time.Parse(time.RFC3339, r.info.Created)
	if err != nil {
		return fmt.Errorf("%s: created: %v", InfoName, err)
	}
	opt.Now = created
	dirs := r.dataDirs(g)
	r.logf(g, StepTune, "", "fitting %s on %d self-play run(s) into %s", strings.Join(opt.Load.Variants, ", "), len(dirs), out)
	rep, err := tune.Run(ctx, dirs, out, opt)
	if err != nil {
		return err
	}
	for _, f := range rep.Fits {
		r.logf(g, StepTune, f.Variant, "%d positions (validation %d), K %.3f, train MSE %.5f -> %.5f, validation MSE %.5f -> %.5f, %s",
			f.Positions, f.ValidPositions, float64(f.K), float64(f.StartTrainMSE), float64(f.TrainMSE),
			float64(f.StartValidMSE), float64(f.ValidMSE), f.Status)
	}
	if _, _, err := tune.WriteValues(out, rep, r.cat); err != nil {
		return err
	}
	return nil
}

// export writes generation g's fitted tables to gen/tables.
func (r *runner) export(g int) error {
	gd := GenDir(r.dir, g)
	if err := os.MkdirAll(filepath.Join(gd, TablesDir), 0o755); err != nil {
		return err
	}
	for _, v := range r.cfg.Tune.Variants {
		p := r.newTable(g, v)
		if err := tune.Export(filepath.Join(gd, "tune"), v, p); err != nil {
			return err
		}
		ev, err := engine.NewVariant(v, nil)
		if err != nil {
			return err
		}
		nw, err := eval.LoadFile(ev, p)
		if err != nil {
			return err
		}
		old, err := eval.LoadFile(ev, r.baseTable(g, v))
		if err != nil {
			return err
		}
		diff, err := eval.Diff(old, nw)
		if err != nil {
			return err
		}
		r.logf(g, StepExport, v, "%s (%d weights changed)", rel(r.dir, p), len(diff))
	}
	return nil
}

// verify plays each variant's new table against the current one.
func (r *runner) verify(ctx context.Context, g int) error {
	if r.cfg.Verify.Pairs == 0 {
		r.logf(g, StepVerify, "", "no matches (verify.pairs is 0)")
		return nil
	}
	for _, v := range r.cfg.Selfplay.Variants {
		if !slices.Contains(r.cfg.Tune.Variants, v.Variant) {
			continue
		}
		spec := r.cfg.matchSpec(v, r.newTable(g, v.Variant), r.baseTable(g, v.Variant), g)
		dir := filepath.Join(GenDir(r.dir, g), "match", v.Variant)
		s := r.cfg.Verify.SPRT
		r.logf(g, StepVerify, v.Variant, "gen-%03d vs current, up to %d pairs at %d nodes, SPRT nElo [%g, %g] alpha %g beta %g",
			g, spec.Pairs, spec.Nodes, s.Elo0, s.Elo1, s.Alpha, s.Beta)
		res, err := selfplay.Match(ctx, spec, dir, selfplay.RunOptions{Workers: r.opts.Workers, Factory: r.opts.Factory, Progress: r.opts.Progress})
		if err != nil {
			return err
		}
		st := res.Stream
		line := fmt.Sprintf("%d pairs, A +%d =%d -%d, Elo %s, nElo %s", st.Pairs, st.FirstPlayer.Wins, st.FirstPlayer.Draws, st.FirstPlayer.Losses, st.Elo, st.NElo)
		if st.SPRT != nil {
			line += fmt.Sprintf(", LLR %.2f [%.2f, %.2f] %s", float64(st.SPRT.LLR), float64(st.SPRT.Lower), float64(st.SPRT.Upper), st.SPRT.Decision)
		}
		r.logf(g, StepVerify, v.Variant, "%s", line)
	}
	return nil
}

// decide applies the accept rule to a match's SPRT decision ("" when no
// match was played).
func decide(rule, decision string) (bool, string) {
	switch rule {
	case AcceptAlways:
		return true, "accept: always"
	case AcceptNotWorse:
		switch decision {
		case "":
			return false, "no verification match (not-worse needs a match)"
		case "H0":
			return false, "SPRT accepted H0 (not better by elo1; not-worse rejects)"
		case "H1":
			return true, "SPRT accepted H1"
		}
		return true, "SPRT undecided at the pair cap: not worse"
	}
	switch decision {
	case "":
		return false, "no verification match (pass needs SPRT H1)"
	case "H1":
		return true, "SPRT accepted H1"
	case "H0":
		return false, "SPRT accepted H0"
	}
	return false, "SPRT undecided at the pair cap (pass needs H1)"
}

// accept decides per variant, installs the accepted tables as current and
// writes accepted.json.
func (r *runner) accept(g int) error {
	gd := GenDir(r.dir, g)
	acc := Acceptance{Generation: g, Rule: r.cfg.Accept}
	for _, v := range r.cfg.Tune.Variants {
		decision := ""
		if r.cfg.Verify.Pairs > 0 {
			sum, err := selfplay.ReadSummary(filepath.Join(gd, "match", v, selfplay.SummaryName))
			if err != nil {
				return err
			}
			if len(sum.Streams) != 1 || sum.Streams[0].SPRT == nil {
				return fmt.Errorf("%s: no SPRT in the match summary", filepath.Join(gd, "match", v))
			}
			decision = sum.Streams[0].SPRT.Decision
		}
		ok, reason := decide(r.cfg.Accept, decision)
		d := VariantDecision{Variant: v, Accepted: ok, Reason: reason, Decision: decision, Table: r.origin(g, v)}
		if ok {
			b, err := os.ReadFile(r.newTable(g, v))
			if err != nil {
				return err
			}
			if err := fsx.WriteFile(filepath.Join(r.dir, TablesDir, v+".yaml"), b); err != nil {
				return err
			}
			d.Table = rel(r.dir, r.newTable(g, v))
		}
		verdict := "rejected"
		if ok {
			verdict = "accepted"
		}
		r.logf(g, StepAccept, v, "%s: %s; current table %s", verdict, reason, d.Table)
		acc.Variants = append(acc.Variants, d)
	}
	return fsx.WriteJSON(filepath.Join(gd, AcceptedName), acc)
}

// origin names the table current before generation g: the table of the
// last generation before g that accepted one, else the generation-0 table
// (relative to the run directory).
func (r *runner) origin(g int, v string) string {
	for k := g - 1; k >= 1; k-- {
		acc, err := ReadAcceptance(GenDir(r.dir, k))
		if err != nil {
			continue
		}
		for _, d := range acc.Variants {
			if d.Variant == v && d.Accepted {
				return rel(r.dir, r.newTable(k, v))
			}
		}
	}
	return rel(r.dir, filepath.Join(GenDir(r.dir, 0), TablesDir, v+".yaml"))
}

// ReadAcceptance reads a generation's accepted.json.
func ReadAcceptance(gd string) (*Acceptance, error) {
	b, err := os.ReadFile(filepath.Join(gd, AcceptedName))
	if err != nil {
		return nil, err
	}
	var a Acceptance
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(gd, AcceptedName), err)
	}
	return &a, nil
}

// ReadInfo reads a run directory's pipeline.json.
func ReadInfo(dir string) (*Info, error) {
	var i Info
	if err := fsx.ReadJSON(filepath.Join(dir, InfoName), &i, Format); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s is not a pipeline run directory (no %s)", dir, InfoName)
		}
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
