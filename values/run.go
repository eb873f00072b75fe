package values

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
	"tamerlane/variantfile"
)

// RunOptions are the settings of Run that never change a result.
type RunOptions struct {
	// Workers overrides Config.Workers when positive.
	Workers int
	// Factory builds the players (nil: the engine).
	Factory selfplay.PlayerFactory
	// Progress receives progress lines (nil: none).
	Progress io.Writer
	// Stage restricts the run to "selfplay" or "imbalance" ("": both).
	Stage string
	// Conclude, when not 0, concludes every imbalance plan not yet ended
	// at that round (ConcludeNow: after the rounds begun) before it plays
	// on: no piece's matches play from then on, the check matches follow
	// and the plan ends (PlanConfig.EndRound). It is recorded in the
	// stage's conclude.json and kept on every later resume.
	Conclude int
}

// runInfo is measure.json: the identity of a measurement directory.
type runInfo struct {
	Format     string `json:"format"`
	Name       string `json:"name"`
	ConfigHash string `json:"config_hash"`
	// ConfigFile is the config's path as the run was started with it
	// (absent for a config not read from a file, and in runs made before
	// it was recorded).
	ConfigFile string `json:"config_file,omitempty"`
	// ImbalanceStop is the fit the imbalance planner's stopping rule
	// judges: "reported" (PlanConfig.StopOnReported) in runs begun since
	// it was recorded; absent, the plain fit the runs before were planned
	// with, which a resumed plan must keep to replay its rounds.
	ImbalanceStop string `json:"imbalance_stop,omitempty"`
}

// stopReported is runInfo.ImbalanceStop of the planner's rule
// PlanConfig.StopOnReported.
const stopReported = "reported"

// stopsOnReported reports whether the imbalance planner of the
// measurement directory dir (claimed) stops on the reported fit
// (runInfo.ImbalanceStop).
func stopsOnReported(dir string) (bool, error) {
	var ri runInfo
	err := fsx.ReadJSON(filepath.Join(dir, fsx.Marker(fsx.KindMeasure)), &ri, "")
	return ri.ImbalanceStop == stopReported, err
}

// claim makes dir a measurement directory of cfg, or checks that it is
// one; a directory of another kind or another config is refused.
func claim(dir string, cfg *Config, hash string) error {
	if err := fsx.CheckKind(dir, fsx.KindMeasure); err != nil {
		return err
	}
	path := filepath.Join(dir, fsx.Marker(fsx.KindMeasure))
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		var ri runInfo
		if err := json.Unmarshal(b, &ri); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		if err := recordVariantFiles(dir, cfg); err != nil {
			return err
		}
		if ri.ConfigHash != hash {
			hint := "use another directory"
			if old, err := LoadRunConfig(filepath.Join(dir, "config.yaml")); err == nil && old.Seed != cfg.Seed {
				hint = fmt.Sprintf("its seed is %d, this config's %d (tamerlane measure --seed %d resumes it), or use another directory", old.Seed, cfg.Seed, old.Seed)
			}
			return fmt.Errorf("%s holds the measurement %q of another config (hash %.12s, this config %.12s): %s", dir, ri.Name, ri.ConfigHash, hash, hint)
		}
		return nil
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s is not empty and not a measurement directory", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := recordVariantFiles(dir, cfg); err != nil {
		return err
	}
	y, err := cfgYAML(cfg)
	if err != nil {
		return err
	}
	if err := fsx.WriteFile(filepath.Join(dir, "config.yaml"), y); err != nil {
		return err
	}
	j, _ := json.MarshalIndent(runInfo{Format: formatVersion, Name: cfg.Name, ConfigHash: hash, ConfigFile: cfg.file, ImbalanceStop: stopReported}, "", "  ")
	return fsx.WriteFile(path, append(j, '\n'))
}

// recordVariantFiles keeps a copy of each variant file of the
// measurement in dir, or checks that each is the copy recorded when the
// measurement began (variantfile.Record).
func recordVariantFiles(dir string, cfg *Config) error {
	var files []string
	for _, v := range cfg.Variants {
		if v.VariantFile != "" {
			files = append(files, v.VariantFile)
		}
	}
	return variantfile.RecordAll(dir, files...)
}

// IsRun reports whether dir is a measurement directory.
func IsRun(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, fsx.Marker(fsx.KindMeasure)))
	return err == nil
}

// Run plays a measurement into dir: per variant the self-play games of
// the regression (dir/<variant>/selfplay) and the planned imbalance
// matches (dir/<variant>/imbalance/round-NNN), each a self-play run
// directory. Rerunning resumes; the plan is replayed from the recorded
// rounds. Each start records the program's build (BuildsDir).
func Run(ctx context.Context, cfg *Config, dir string, opt RunOptions) error {
	if err := selfplay.CheckWorkers(opt.Workers); err != nil {
		return fmt.Errorf("workers: %v", err) // before the directory is made
	}
	if opt.Conclude != 0 && opt.Stage == "selfplay" {
		return errors.New("conclude: the imbalance plans are concluded by their stage, not the self-play one")
	}
	hash, err := cfg.Hash()
	if err != nil {
		return err
	}
	if err := claim(dir, cfg, hash); err != nil {
		return err
	}
	stopOnReported, err := stopsOnReported(dir)
	if err != nil {
		return err
	}
	if err := recordBuild(dir); err != nil {
		return err
	}
	spOpt := selfplay.RunOptions{Workers: cmpOr(opt.Workers, cfg.Workers), Factory: opt.Factory, Progress: opt.Progress}
	for i, v := range cfg.Variants {
		vdir := filepath.Join(dir, v.Variant)
		if v.Pairs > 0 && opt.Stage != "imbalance" {
			logf(opt.Progress, "measure %s: %d self-play pairs for the regression", v.Variant, v.Pairs)
			if _, err := selfplay.Run(ctx, cfg.selfplayConfig(i), filepath.Join(vdir, "selfplay"), spOpt); err != nil {
				return fmt.Errorf("%s regression games: %w", v.Variant, err)
			}
		}
		if v.Imbalance != nil && opt.Stage != "selfplay" {
			if _, err := runPlan(ctx, cfg, i, vdir, spOpt, opt, stopOnReported); err != nil {
				return fmt.Errorf("%s imbalance matches: %w", v.Variant, err)
			}
		}
	}
	return nil
}

// The files of an imbalance stage's directory: the planner's first
// estimates, written before its first round, and its final state,
// written when it ends.
const (
	startFile = "start.json"
	planFile  = "plan.json"
)

// unfinishedPlans returns the imbalance stages among the parents of dirs
// (the rounds' run directories) whose planner has not ended: start.json
// without plan.json. Their matches are read as far as they were played.
func unfinishedPlans(dirs []string) []string {
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	var out []string
	for _, d := range dirs {
		stage := filepath.Dir(d)
		if slices.Contains(out, stage) || !exists(filepath.Join(stage, startFile)) || exists(filepath.Join(stage, planFile)) {
			continue
		}
		out = append(out, stage)
	}
	return out
}

// runPlan runs the planner of variant i with self-play rounds, its
// stopping rule on the reported fit or the plain one (stopOnReported),
// concluded where opt or an earlier run concluded it (conclude.json).
func runPlan(ctx context.Context, cfg *Config, i int, vdir string, spOpt selfplay.RunOptions, opt RunOptions, stopOnReported bool) (*ImbalanceResult, error) {
	progress := opt.Progress
	pc := cfg.plan(i)
	pc.StopOnReported = stopOnReported
	idir := filepath.Join(vdir, "imbalance")
	if err := os.MkdirAll(idir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := selfplay.LockDir(idir, "imbalance plan")
	if err != nil {
		return nil, err
	}
	defer unlock()
	if opt.Conclude != 0 {
		switch _, err := conclude(idir, opt.Conclude, time.Now()); {
		case errors.Is(err, errPlanEnded):
			logf(progress, "measure %s: %v", cfg.Variants[i].Variant, err)
		case err != nil:
			return nil, err
		}
	}
	if pc.EndRound, err = readConclusion(idir); err != nil {
		return nil, err
	}
	if pc.EndRound > 0 {
		logf(progress, "measure %s: the imbalance plan is concluded at round %d (%s): no piece's matches play from that round on; the check matches follow",
			cfg.Variants[i].Variant, pc.EndRound, filepath.Join(idir, concludeFile))
	}
	pc.Report = func(round int, standing []PieceStanding) {
		parts := make([]string, len(standing))
		for k, st := range standing {
			parts[k] = st.String()
		}
		logf(progress, "measure %s: after round %d, value±half-width/target: %s", cfg.Variants[i].Variant, round, strings.Join(parts, ", "))
	}
	start, err := planStart(cfg, i, vdir, idir)
	if err != nil {
		return nil, err
	}
	pc.Start = start
	v := cfg.Variants[i]
	ev, err := v.engineVariant()
	if err != nil {
		return nil, err
	}
	play := func(ctx context.Context, round int, batch []PlannedMatch, pairs int) ([]ImbalanceMatch, error) {
		sc := selfplay.DefaultConfig()
		sc.Seed = cfg.Seed*1000003 + uint64(round) + 1
		sc.Nodes, sc.MaxPlies = cfg.Nodes, cfg.MaxPlies
		sc.Adjudication = *cfg.adjudication(i)
		sc.Dataset.PositionsPerGame = 0
		for _, m := range batch {
			im := v.Imbalance
			sc.Imbalances = append(sc.Imbalances, selfplay.ImbalanceConfig{Name: m.Name, Variant: v.Variant, VariantFile: v.VariantFile, Rules: v.Rules,
				FirstRemoves: im.boundPawns(ev, m.FirstRemoves), SecondRemoves: im.boundPawns(ev, m.SecondRemoves),
				Pairs: pairs, Engine: im.Engine,
				// Each round goes on through the file where the match's last ended.
				OpeningsFile: im.OpeningsFile, OpeningsOffset: openingsOffset(im, m.Pairs)})
		}
		names := make([]string, len(batch))
		for k, m := range batch {
			names[k] = m.Name
		}
		logf(progress, "measure %s: imbalance round %d: %d pairs each of %s", v.Variant, round, pairs, strings.Join(names, ", "))
		res, err := selfplay.Run(ctx, sc, filepath.Join(idir, fmt.Sprintf("round-%03d", round)), spOpt)
		if err != nil {
			return nil, err
		}
		var out []ImbalanceMatch
		for k := range res.Summary.Streams {
			out = append(out, streamMatch(&res.Summary.Streams[k]))
		}
		return out, nil
	}
	res, err := Plan(ctx, pc, play)
	if err != nil {
		return nil, err
	}
	b, _ := json.MarshalIndent(res, "", "  ")
	return res, fsx.WriteFile(filepath.Join(idir, planFile), append(b, '\n'))
}

// planStart returns the estimates the planner chooses its first
// opponents from, recorded in start.json so that a resumed plan replays
// the same rounds: the regression's values when its games are complete
// at the first round, otherwise the config's start (ImbalanceConfig.Start;
// a piece without one starts at 3 pawns, re-planned as the matches
// measure).
func planStart(cfg *Config, i int, vdir, idir string) (map[string]float64, error) {
	path := filepath.Join(idir, startFile)
	if b, err := os.ReadFile(path); err == nil {
		var m map[string]float64
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		return m, nil
	}
	v := cfg.Variants[i]
	m := maps.Clone(v.Imbalance.Start)
	if m == nil {
		m = map[string]float64{}
	}
	if sum, err := selfplay.ReadSummary(filepath.Join(vdir, "selfplay", "summary.json")); err == nil && v.Pairs > 0 &&
		len(sum.Streams) == 1 && sum.Streams[0].Pairs == v.Pairs {
		if reg, err := regressionOf(cfg, i, vdir); err == nil {
			for k, name := range reg.Pieces {
				if k > 0 && reg.Identified[k] && reg.Values[k].Value > 0 {
					m[name] = float64(reg.Values[k].Value)
				}
			}
		}
	}
	if err := os.MkdirAll(idir, 0o755); err != nil {
		return nil, err
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	return m, fsx.WriteFile(path, append(b, '\n'))
}

// regressionOf fits the regression of variant i of a measurement.
func regressionOf(cfg *Config, i int, vdir string) (*Regression, error) {
	v := cfg.Variants[i]
	vs, err := CollectRegression([]string{filepath.Join(vdir, "selfplay")}, cfg.Regression.SampleOptions())
	if err != nil {
		return nil, err
	}
	d := vs[v.Variant]
	if d == nil {
		return nil, fmt.Errorf("no %s games", v.Variant)
	}
	return FitRegression(d.Classes.Names, d.Samples, RegressionOptions{MinGames: cfg.Regression.MinGames})
}

// openingsOffset is the position of an imbalance's openings file a
// match's round starts from after pairs pairs (0 without a file).
func openingsOffset(im *ImbalanceConfig, pairs int) int {
	if im.OpeningsFile == "" {
		return 0
	}
	return pairs
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

func logf(w io.Writer, format string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", a...)
	}
}
