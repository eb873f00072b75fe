package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"tamerlane/selfplay"
)

// DefaultAnchorPairs is verify.anchor.pairs when the file leaves it out.
const DefaultAnchorPairs = 50

// AnchorDir is the directory, in a generation's directory, of its
// matches against the outside anchor (gen-00g/anchor/<variant>).
const AnchorDir = "anchor"

// anchorDefaults fills in the anchor's pairs and variants.
func (c *Config) anchorDefaults() {
	a := c.Verify.Anchor
	if a == nil {
		return
	}
	if c.src == nil && a.Pairs == 0 || c.src != nil && !c.src.Has("verify.anchor.pairs") {
		a.Pairs = DefaultAnchorPairs
	}
	if len(a.Variants) == 0 && c.Selfplay != nil {
		a.Variants = c.Variants()
	}
}

// validateAnchor checks the anchor: an engine that exists and whose
// limits parse, a positive number of pairs, and variants among the
// pipeline's, each once.
func (c *Config) validateAnchor(seen map[string]bool, bad func(path, format string, a ...any)) {
	a := c.Verify.Anchor
	if a == nil {
		return
	}
	if a.Engine == nil {
		bad("verify.anchor.engine", "required: the outside engine ({cmd: ..., options: {...}, nodes: N})")
	} else if err := a.Engine.Validate(); err != nil {
		bad("verify.anchor.engine", "%v", err)
	}
	if a.Pairs < 1 || a.Pairs > selfplay.MaxPairs {
		bad("verify.anchor.pairs", "must be at least 1 and at most %d (got %d)", selfplay.MaxPairs, a.Pairs)
	}
	dup := map[string]bool{}
	for i, v := range a.Variants {
		p := fmt.Sprintf("verify.anchor.variants[%d]", i)
		switch {
		case !seen[v]:
			known := slices.Sorted(mapKeys(seen))
			sort.Strings(known)
			bad(p, "variant %q is not among selfplay.variants (%s): the anchor plays a pipeline variant's current table", v, strings.Join(known, ", "))
		case dup[v]:
			bad(p, "variant %q is listed twice", v)
		}
		dup[v] = true
	}
}

// anchor plays, per anchor variant, the current table after generation g
// (A) against the outside engine (B) into gen-00g/anchor/<variant>. The
// engine's forfeits are game results (selfplay's Termination), not
// errors.
func (r *runner) anchor(ctx context.Context, g int) error {
	a := r.cfg.Verify.Anchor
	if a == nil {
		r.logf(g, StepAnchor, "", "no anchor (verify.anchor is not set)")
		return nil
	}
	gd := GenDir(r.dir, g)
	acc, err := ReadAcceptance(gd)
	if err != nil {
		return err
	}
	factory := r.opts.Factory
	if factory == nil {
		factory = selfplay.DefaultFactory()
	}
	factory = selfplay.ExternalFactory(factory)
	for _, v := range a.Variants {
		vc, ok := r.variantConfig(v)
		if !ok {
			return fmt.Errorf("anchor variant %s is not among selfplay.variants", v)
		}
		table := ""
		for _, d := range acc.Variants {
			if d.Variant == v {
				table = filepath.Join(r.dir, d.Table)
			}
		}
		if table == "" {
			// Not tuned: its table is the one current before g.
			table = filepath.Join(r.dir, r.origin(g, v))
		}
		spec := r.cfg.pairSpec(vc, table, "", g, a.Pairs)
		eng := *a.Engine
		spec.EngineB, spec.NameB = &eng, eng.Label()
		dir := filepath.Join(gd, AnchorDir, v)
		r.logf(g, StepAnchor, v, "gen-%03d (%s) vs %s, %d pairs, our side at %d nodes", g, rel(r.dir, table), eng.Label(), a.Pairs, spec.Nodes)
		res, err := selfplay.Match(ctx, spec, dir, selfplay.RunOptions{Workers: r.opts.Workers, Factory: factory, Progress: r.opts.Progress})
		if err != nil {
			return err
		}
		st := res.Stream
		r.logf(g, StepAnchor, v, "%d pairs, ours +%d =%d -%d, Elo %s, forfeits %d", st.Pairs, st.FirstPlayer.Wins, st.FirstPlayer.Draws, st.FirstPlayer.Losses, st.Elo, forfeits(st.Terminations))
	}
	return nil
}

// forfeits counts the games an outside engine lost by crashing, by an
// illegal move or on time.
func forfeits(terms map[string]int) int {
	return terms[selfplay.TermEngineCrash] + terms[selfplay.TermIllegalMove] + terms[selfplay.TermTimeForfeit]
}

// anchorLimit describes the anchor engine's limit per move.
func anchorLimit(a *AnchorConfig, nodes int64) string {
	e := a.Engine
	switch {
	case e.TC != "":
		return "clock " + e.TC
	case e.MoveTime > 0:
		return fmt.Sprintf("%d ms/move", e.MoveTime)
	case e.Nodes > 0 && e.Depth > 0:
		return fmt.Sprintf("%d nodes and depth %d", e.Nodes, e.Depth)
	case e.Nodes > 0:
		return fmt.Sprintf("%d nodes/move", e.Nodes)
	case e.Depth > 0:
		return fmt.Sprintf("depth %d", e.Depth)
	}
	return fmt.Sprintf("%d nodes/move, as ours", nodes)
}

// writeAnchorSummary writes the table of the anchor matches: per
// generation and variant the current table's Elo against the anchor with
// its 95% interval and the engine's forfeits.
func writeAnchorSummary(b *strings.Builder, rep *Report) {
	head := false
	for _, g := range rep.Generations {
		for _, v := range g.Variants {
			m := v.Anchor
			if m == nil {
				continue
			}
			if !head {
				b.WriteString("Against the outside anchor (our current table as A; logistic Elo from the pentanomial counts, 95% interval):\n\n")
				b.WriteString("| gen | variant | pairs | ours +/=/- | score (95%) | Elo (95%) | engine forfeits |\n|---|---|---|---|---|---|---|\n")
				head = true
			}
			fmt.Fprintf(b, "| %d | %s | %d | +%d =%d -%d | %s [%s, %s] | %s | %d |\n", g.Generation, v.Variant, m.Pairs, m.A.Wins, m.A.Draws, m.A.Losses,
				ff(float64(m.Score.Value), 3), ff(float64(m.Score.Lo), 3), ff(float64(m.Score.Hi), 3), m.Elo.String(), forfeits(m.Terminations))
		}
	}
	if head {
		b.WriteString("\n")
	}
}

// writeMatchLine writes one fixed-length match (no SPRT) of a variant's
// generation section.
func writeMatchLine(b *strings.Builder, title, what string, m *MatchReport) {
	state := ""
	if !m.Complete {
		state = " (in progress)"
	}
	fmt.Fprintf(b, "**%s**%s: %s, %d pairs, %d games, A +%d =%d -%d, pentanomial %v, score %s [%s, %s], Elo %s, nElo %s (95%%)",
		title, state, what, m.Pairs, m.Games, m.A.Wins, m.A.Draws, m.A.Losses, m.Pentanomial, ff(float64(m.Score.Value), 3), ff(float64(m.Score.Lo), 3), ff(float64(m.Score.Hi), 3),
		m.Elo.String(), m.NElo.String())
	if n := forfeits(m.Terminations); n > 0 {
		fmt.Fprintf(b, "; %d games lost by an engine's forfeit (%s)", n, terminationList(m.Terminations))
	}
	fmt.Fprintf(b, " (`%s`).\n\n", m.Dir)
}

// terminationList lists the forfeit terminations with their counts.
func terminationList(terms map[string]int) string {
	var out []string
	for _, t := range []string{selfplay.TermEngineCrash, selfplay.TermIllegalMove, selfplay.TermTimeForfeit} {
		if n := terms[t]; n > 0 {
			out = append(out, fmt.Sprintf("%s %d", t, n))
		}
	}
	return strings.Join(out, ", ")
}
