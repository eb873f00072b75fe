package pipeline

import (
	"context"
	"fmt"
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
	"tamerlane/values"
)

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
	start := func(v *engine.Variant) (*eval.Weights, error) { return eval.LoadFile(v, r.baseTable(g, v.Name)) }
	quiet := r.opts.Quiet
	if quiet == nil {
		quiet = tune.QuietLine(start) // the generation's table resolves its positions
	}
	opt := r.cfg.Tune.Options(quiet)
	opt.Start = start
	opt.Name = fmt.Sprintf("%s/gen-%03d", r.cfg.Name, g)
	created, err := time.Parse(time.RFC3339, r.info.Created)
	if err != nil {
		return fmt.Errorf("%s: created: %v", InfoName, err)
	}
	opt.Now = created
	opt.KeepGoing = true // a variant without a usable fit keeps its table (see fitMissing)
	dirs := r.dataDirs(g)
	r.logf(g, StepTune, "", "fitting %s on %d self-play run(s) into %s", strings.Join(opt.Load.Variants, ", "), len(dirs), out)
	rep, err := tune.Run(ctx, dirs, out, opt)
	if err != nil {
		return err
	}
	for _, f := range rep.Fits {
		r.logf(g, StepTune, f.Variant, "%d positions (validation %d), K %.3f, train MSE %.5f -> %.5f, validation MSE %.5f -> %.5f, %s",
			f.Positions, f.ValidPositions, float64(f.K), float64(f.StartTrainMSE), float64(f.TrainMSE),
			float64(f.StartValidMSE), float64(f.ValidMSE), tune.StatusText(f.Status))
	}
	for _, u := range rep.Unfitted {
		r.logf(g, StepTune, u.Variant, "no usable fit (%s): the current table is kept", u.Error)
	}
	imbs, err := values.FitImbalances(dirs)
	if err != nil {
		return err
	}
	if _, _, err := values.WriteTuned(out, rep, imbs, r.cat); err != nil {
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
		if why, err := r.fitMissing(g, v); err != nil || why != "" {
			if err != nil {
				return err
			}
			r.logf(g, StepExport, v, "no table: %s", why)
			continue
		}
		if err := tune.Export(filepath.Join(gd, "tune"), v, p); err != nil {
			return err
		}
		ev, err := r.cfg.variant(v)
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
		if why, err := r.fitMissing(g, v.Variant); err != nil || why != "" {
			if err != nil {
				return err
			}
			r.logf(g, StepVerify, v.Variant, "no match: %s", why)
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

// fitMissing says why generation g has no fitted table of variant v
// ("" when it has one): its fit failed (tune.Report.Unfitted), or the
// data held no position of it. Such a variant keeps its current table:
// no table is exported, no match played, and the accept step rejects it
// with this reason.
func (r *runner) fitMissing(g int, v string) (string, error) {
	rep, err := tune.ReadReport(filepath.Join(GenDir(r.dir, g), "tune"))
	if err != nil {
		return "", err
	}
	switch {
	case rep.Fit(v) != nil:
		return "", nil
	case rep.FitError(v) != "":
		return "no usable fit (" + rep.FitError(v) + ")", nil
	}
	return "no fit: the self-play data hold no position of " + v, nil
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
		why, err := r.fitMissing(g, v)
		if err != nil {
			return err
		}
		if why != "" {
			d := VariantDecision{Variant: v, Reason: why + ": the current table is kept", Table: r.origin(g, v)}
			r.logf(g, StepAccept, v, "rejected: %s; current table %s", d.Reason, d.Table)
			acc.Variants = append(acc.Variants, d)
			continue
		}
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
