package pipeline

import (
	"context"
	"fmt"
	"math"
	"path/filepath"

	"tamerlane/internal/stats"
	"tamerlane/selfplay"
)

// DefaultGen0Pairs caps the default number of pairs of the match against
// generation 0 (verify.vs_gen0.pairs).
const DefaultGen0Pairs = 50

// Gen0Dir is the directory, in a generation's directory, of its matches
// against generation 0 (gen-00g/vs-gen0/<variant>).
const Gen0Dir = "vs-gen0"

// defaultGen0Pairs is verify.vs_gen0.pairs when the file leaves it out.
func defaultGen0Pairs(verifyPairs int) int { return min(DefaultGen0Pairs, verifyPairs) }

// gen0Table is a variant's generation-0 table in the run directory.
func (r *runner) gen0Table(v string) string {
	return filepath.Join(GenDir(r.dir, 0), TablesDir, v+".yaml")
}

// verifiedAgainstGen0 reports whether generation g's verification match
// of variant v was played against the generation-0 table: a match was
// played and no earlier generation accepted a table of v.
func (r *runner) verifiedAgainstGen0(g int, v string) bool {
	return r.cfg.Verify.Pairs > 0 && r.origin(g, v) == rel(r.dir, r.gen0Table(v))
}

// vsGen0 plays, for every variant whose table generation g accepted, the
// new table against the generation-0 table (verify.vs_gen0.pairs pairs at
// verify.nodes) into gen-00g/vs-gen0/<variant>. A variant whose
// verification match was already played against generation 0 reuses it;
// a variant whose table did not change keeps its last measurement.
func (r *runner) vsGen0(ctx context.Context, g int) error {
	n := r.cfg.Verify.VsGen0.Pairs
	if n == 0 {
		r.logf(g, StepVsGen0, "", "no matches (verify.vs_gen0.pairs is 0)")
		return nil
	}
	gd := GenDir(r.dir, g)
	acc, err := ReadAcceptance(gd)
	if err != nil {
		return err
	}
	for _, d := range acc.Variants {
		switch {
		case !d.Accepted:
			r.logf(g, StepVsGen0, d.Variant, "table unchanged: its Elo against generation 0 is the last one measured")
			continue
		case r.verifiedAgainstGen0(g, d.Variant):
			r.logf(g, StepVsGen0, d.Variant, "the verification match was against the generation-0 table: reused, not played again")
			continue
		}
		vc, ok := r.variantConfig(d.Variant)
		if !ok {
			return fmt.Errorf("variant %s is not among selfplay.variants", d.Variant)
		}
		spec := r.cfg.pairSpec(vc, filepath.Join(r.dir, d.Table), r.gen0Table(d.Variant), g, n)
		spec.NameB = "gen-000"
		dir := filepath.Join(gd, Gen0Dir, d.Variant)
		r.logf(g, StepVsGen0, d.Variant, "gen-%03d vs gen-000, %d pairs at %d nodes", g, n, spec.Nodes)
		res, err := selfplay.Match(ctx, spec, dir, selfplay.RunOptions{Workers: r.opts.Workers, Factory: r.opts.Factory, Progress: r.opts.Progress})
		if err != nil {
			return err
		}
		st := res.Stream
		r.logf(g, StepVsGen0, d.Variant, "%d pairs, A +%d =%d -%d, Elo %s", st.Pairs, st.FirstPlayer.Wins, st.FirstPlayer.Draws, st.FirstPlayer.Losses, st.Elo)
	}
	return nil
}

// variantConfig returns the self-play stream of variant v.
func (r *runner) variantConfig(v string) (selfplay.VariantConfig, bool) {
	for _, vc := range r.cfg.Selfplay.Variants {
		if vc.Variant == v {
			return vc, true
		}
	}
	return selfplay.VariantConfig{}, false
}

// Gen0Point is the measured Elo of a variant's current table against its
// generation-0 table after a generation: the logistic (pentanomial) Elo
// of one match of the two, with its 95% interval (the match's margin),
// not a sum over generations. Measured is the generation whose match
// measured it: the last one that changed the table (0 when the table is
// still the generation-0 one: then the Elo is exactly 0). A changed table
// without a measurement (verify.vs_gen0.pairs 0) has a null Elo.
type Gen0Point struct {
	Generation int            `json:"generation"`
	Elo        stats.Interval `json:"elo"`
	Measured   int            `json:"measured"`
	// Match is the match's directory (relative to the run directory).
	Match string `json:"match,omitempty"`
}

// gen0Points computes Report.EloVsGen0 from the generations' accept
// decisions and matches against generation 0 (VariantReport.VsGen0).
// A generation appears once its accept step is done and, when it changed
// the table, its vs-gen0 step too.
func gen0Points(rep *Report) map[string][]Gen0Point {
	out := map[string][]Gen0Point{}
	for _, v := range rep.Config.Variants {
		last := Gen0Point{}
		pts := []Gen0Point{last}
		for _, g := range rep.Generations {
			for _, vr := range g.Variants {
				if vr.Variant != v.Variant || vr.Accept == nil {
					continue
				}
				if vr.Accept.Accepted {
					if !g.done(StepVsGen0) {
						continue
					}
					last = Gen0Point{Measured: g.Generation, Elo: stats.UnknownInterval()}
					if m := vr.VsGen0; m != nil {
						last.Elo, last.Match = stats.NewInterval(float64(m.Elo.Elo), float64(m.Elo.Margin)/stats.Z95), m.Dir
					}
				}
				p := last
				p.Generation = g.Generation
				pts = append(pts, p)
			}
		}
		out[v.Variant] = pts
	}
	return out
}

// gen0Cell formats a measured point for the report's tables.
func gen0Cell(p Gen0Point) string {
	switch {
	case math.IsNaN(float64(p.Elo.Value)):
		return "unknown"
	case p.Measured == 0:
		return "0 (generation-0 table)"
	}
	s := eloCell(p.Elo)
	if p.Measured != p.Generation {
		s += fmt.Sprintf(" (gen %d)", p.Measured)
	}
	return s
}

// done reports whether the generation's step is finished.
func (g *GenerationReport) done(step string) bool {
	for _, s := range g.Steps {
		if s == step {
			return true
		}
	}
	return false
}
