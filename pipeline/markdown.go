package pipeline

import (
	"fmt"
	"math"
	"strings"

	"tamerlane/internal/stats"
	"tamerlane/tune"
	"tamerlane/values"
)

// Markdown renders the report.
func Markdown(rep *Report) string {
	var b strings.Builder
	c := rep.Config
	fmt.Fprintf(&b, "# Pipeline run %s\n\n", rep.Name)
	fmt.Fprintf(&b, "Status: **%s**. Configuration %s (hash %.12s), started %s, report updated %s.\n\n", rep.Status, rep.ConfigFile, rep.ConfigHash, rep.Created, rep.Updated)

	writeMeasuredSummary(&b, rep) // what the games measured leads the report

	b.WriteString("## Configuration\n\n")
	var plans []string
	for _, v := range c.Variants {
		s := fmt.Sprintf("%s (%d pairs", v.Variant, v.Pairs)
		if v.Rules != "" {
			s += ", rules " + v.Rules
		}
		plans = append(plans, s+")")
	}
	budget := fmt.Sprintf("%d nodes/move", c.Nodes)
	if c.Depth > 0 {
		budget = fmt.Sprintf("depth %d", c.Depth)
		if c.Nodes > 0 {
			budget = fmt.Sprintf("%d nodes and depth %d", c.Nodes, c.Depth)
		}
	}
	fmt.Fprintf(&b, "- generations: %d; seed %d (generation g plays with seed+g-1)\n", c.Generations, c.Seed)
	fmt.Fprintf(&b, "- self-play: %s at %s, %d positions sampled per game\n", strings.Join(plans, ", "), budget, c.PositionsPerGame)
	if len(c.Imbalances) > 0 {
		fmt.Fprintf(&b, "- imbalances: %s\n", strings.Join(c.Imbalances, "; "))
	}
	var tabs []string
	for _, v := range c.Variants {
		tabs = append(tabs, fmt.Sprintf("%s: %s", v.Variant, c.Tables[v.Variant]))
	}
	fmt.Fprintf(&b, "- generation-0 tables: %s\n", strings.Join(tabs, "; "))
	t := c.Tune
	free := "all weights"
	if len(t.Free) > 0 {
		free = strings.Join(t.Free, ", ")
	}
	prior := priorSetting(t)
	hist := "this generation's data only"
	switch {
	case c.History < 0:
		hist = "all generations' data"
	case c.History > 0:
		hist = fmt.Sprintf("this and %d previous generations' data", c.History)
	}
	fmt.Fprintf(&b, "- tuning: free %s; prior sd %s; lambda %g; quiet %v; validation %g; %s\n", free, prior, t.Lambda, t.Quiet, t.Validation, hist)
	if c.SPRT != nil {
		fmt.Fprintf(&b, "- verification: new (A) vs current (B), up to %d pairs at %d nodes/move, SPRT %s nElo [%g, %g], alpha %g, beta %g (pentanomial)\n",
			c.Verify.Pairs, c.Verify.Nodes, c.SPRT.Model, c.SPRT.Elo0, c.SPRT.Elo1, c.SPRT.Alpha, c.SPRT.Beta)
	} else {
		b.WriteString("- verification: none (verify.pairs is 0)\n")
	}
	if n := c.Verify.VsGen0Pairs; n > 0 {
		fmt.Fprintf(&b, "- Elo against generation 0: in each generation that changes a table, %d pairs of the new table against the generation-0 table at %d nodes/move (the verification match instead while the current table is the generation-0 one)\n", n, c.Verify.Nodes)
	} else {
		b.WriteString("- Elo against generation 0: no match (verify.vs_gen0.pairs is 0); only the verification matches against generation 0 are shown\n")
	}
	if a := c.Verify.Anchor; a != nil && a.Engine != nil {
		fmt.Fprintf(&b, "- anchor: after each generation the current tables of %s play %s (%s), %d pairs, our side at %d nodes/move\n",
			strings.Join(a.Variants, ", "), a.Engine.Label(), anchorLimit(a, c.Verify.Nodes), a.Pairs, c.Verify.Nodes)
	}
	fmt.Fprintf(&b, "- accept: %s (%s)\n\n", c.Accept, acceptDoc(c.Accept))

	if len(rep.Generations) > 0 {
		b.WriteString("## Summary\n\n")
		b.WriteString("| gen | variant | games | mean plies | positions | K | valid MSE | Elo (95%) | LLR | SPRT | accepted | cumulative Elo (95%) | measured Elo vs gen 0 (95%) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, g := range rep.Generations {
			for _, v := range g.Variants {
				cells := make([]string, 11)
				if s := v.Selfplay; s != nil {
					cells[0], cells[1] = fmt.Sprint(s.Games), ff(float64(s.MeanPlies), 1)
				}
				if tr := v.Tune; tr != nil {
					cells[2], cells[3] = fmt.Sprint(tr.Positions), ff(float64(tr.K), 3)
					cells[4] = fmt.Sprintf("%s → %s", ff(float64(tr.StartValidMSE), 5), ff(float64(tr.ValidMSE), 5))
				} else if v.TuneError != "" {
					cells[4] = "no usable fit"
				}
				if m := v.Match; m != nil {
					cells[5] = m.Elo.String()
					if m.SPRT != nil {
						cells[6], cells[7] = ff(float64(m.SPRT.LLR), 2), m.SPRT.Decision
					}
				}
				if a := v.Accept; a != nil {
					cells[8] = map[bool]string{true: "**yes**", false: "no"}[a.Accepted]
					for _, p := range rep.Elo[v.Variant] {
						if p.Generation == g.Generation {
							cells[9] = eloCell(p.Elo)
						}
					}
					for _, p := range rep.EloVsGen0[v.Variant] {
						if p.Generation == g.Generation {
							cells[10] = gen0Cell(p)
						}
					}
				}
				fmt.Fprintf(&b, "| %d | %s | %s |\n", g.Generation, v.Variant, strings.Join(cells, " | "))
			}
		}
		b.WriteString("\n")
		b.WriteString("Cumulative Elo: the sum of the accepted generations' verification matches (new vs current), intervals added in quadrature. " +
			"Measured Elo vs gen 0: one match of the current table against the generation-0 table; \"(gen k)\" means the table last changed, and was measured, in generation k.\n\n")
		writeAnchorSummary(&b, rep)
	}
	for _, p := range rep.Plots {
		if strings.HasSuffix(p, ".png") && !isMeasuredPlot(p) { // the measured values' plots lead the report
			fmt.Fprintf(&b, "![%s](%s)\n\n", strings.TrimSuffix(p, ".png"), p)
		}
	}
	if len(rep.Current) > 0 {
		b.WriteString("Current tables (`tamerlane apply --run DIR` copies the changed ones to data/weights):\n\n")
		for _, v := range c.Variants {
			cur := rep.Current[v.Variant]
			fmt.Fprintf(&b, "- %s: `tables/%s.yaml` = `%s` (generation %d)\n", v.Variant, v.Variant, cur.Table, cur.Generation)
		}
		b.WriteString("\n")
	}

	for _, g := range rep.Generations {
		fmt.Fprintf(&b, "## Generation %d\n\n", g.Generation)
		done := "none"
		if len(g.Steps) > 0 {
			done = strings.Join(g.Steps, ", ")
		}
		fmt.Fprintf(&b, "Steps done: %s.\n\n", done)
		for _, v := range g.Variants {
			fmt.Fprintf(&b, "### %s\n\n", v.Variant)
			if s := v.Selfplay; s != nil {
				fmt.Fprintf(&b, "**Self-play**: %d pairs, %d games, White +%d =%d -%d (score %s), mean length %s plies, %d positions sampled ([PGN](%s)).\n\n",
					s.Pairs, s.Games, s.White.Wins, s.White.Draws, s.White.Losses, ff(float64(s.White.Score), 3), ff(float64(s.MeanPlies), 1), s.Positions, s.PGN)
			}
			if v.Measured != nil {
				writeMeasured(&b, v.Measured)
			}
			if tr := v.Tune; tr != nil {
				fmt.Fprintf(&b, "**Tuning**: %d positions of %d games (validation %d), K %s, train MSE %s → %s, validation MSE %s → %s, %d iterations (%s); errors: %s.\n\n",
					tr.Positions, tr.Games, tr.ValidPositions, ff(float64(tr.K), 4), ff(float64(tr.StartTrainMSE), 5), ff(float64(tr.TrainMSE), 5),
					ff(float64(tr.StartValidMSE), 5), ff(float64(tr.ValidMSE), 5), tr.Iterations, tune.StatusText(tr.Status), tr.SEMethod)
				b.WriteString(tuneDetail(tr))
			} else if v.TuneError != "" {
				fmt.Fprintf(&b, "**Tuning**: %s. This generation exports no table of %s and keeps the current one.\n\n", v.TuneError, v.Variant)
			}
			if len(v.Values) > 0 {
				writeValues(&b, g.Generation, v)
			}
			if v.Table != "" {
				fmt.Fprintf(&b, "Exported table: `%s`.\n\n", v.Table)
			}
			if m := v.Match; m != nil {
				state := ""
				if !m.Complete {
					state = " (in progress)"
				}
				fmt.Fprintf(&b, "**Verification**%s: new vs current, %d pairs, %d games, new +%d =%d -%d, pentanomial %v, score %s [%s, %s], Elo %s, nElo %s (95%%).",
					state, m.Pairs, m.Games, m.A.Wins, m.A.Draws, m.A.Losses, m.Pentanomial, m.Score.Value.Format(3), m.Score.Lo.Format(3), m.Score.Hi.Format(3),
					m.Elo.String(), m.NElo.String())
				if s := m.SPRT; s != nil {
					fmt.Fprintf(&b, " SPRT nElo [%g, %g]: LLR %s (bounds %s, %s) → **%s**", float64(s.Elo0), float64(s.Elo1), ff(float64(s.LLR), 3),
						ff(float64(s.Lower), 2), ff(float64(s.Upper), 2), s.Decision)
					if s.DecidedAt > 0 {
						fmt.Fprintf(&b, " after %d pairs", s.DecidedAt)
					}
					b.WriteString(".")
				}
				b.WriteString("\n\n")
			}
			if m := v.VsGen0; m != nil && m != v.Match {
				writeMatchLine(&b, "Against generation 0", "new vs gen-000", m)
			}
			if m := v.Anchor; m != nil {
				writeMatchLine(&b, "Anchor", "current vs the anchor engine", m)
			}
			if a := v.Accept; a != nil {
				verdict := "not accepted"
				if a.Accepted {
					verdict = "**accepted**"
				}
				fmt.Fprintf(&b, "**Decision**: %s — %s. Current table: `%s`.\n\n", verdict, a.Reason, a.Table)
			}
		}
		if len(g.Imbalances) > 0 {
			b.WriteString("### Imbalance matches\n\n| stream | pairs | first player +/=/- | score |\n|---|---|---|---|\n")
			for _, s := range g.Imbalances {
				fmt.Fprintf(&b, "| %s | %d | +%d =%d -%d | %s |\n", s.Name, s.Pairs, s.First.Wins, s.First.Draws, s.First.Losses, ff(float64(s.First.Score), 3))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// writeValues writes a variant's values table in its primary scale.
func writeValues(b *strings.Builder, gen int, v VariantReport) {
	scale := v.Scale
	var rows []values.ValueRow
	for _, r := range v.Values {
		if r.Scale == scale {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 && len(v.Values) > 0 {
		scale = v.Values[0].Scale
		for _, r := range v.Values {
			if r.Scale == scale {
				rows = append(rows, r)
			}
		}
	}
	imb := false
	for _, r := range rows {
		imb = imb || r.Imbalance != nil
	}
	fmt.Fprintf(b, "**Piece values** of the engine table (%s; the Texel fit of the eval table's material weights, "+
		"shrunk towards the starting table by the fit's prior (see Tuning): a tuning result, not a measurement and not the atlas (data/measured); 95%% intervals; all scales in `gen-%03d/tune/values.md`):\n\n", scale, gen)
	head := "| piece | name | texel (95%) |"
	sep := "|---|---|---|"
	if imb {
		head += " imbalance (95%) |"
		sep += "---|"
	}
	head += " published | source | texel/published |"
	sep += "---|---|---|"
	b.WriteString(head + "\n" + sep + "\n")
	for _, r := range rows {
		fmt.Fprintf(b, "| %s |\n", strings.Join(r.Cells(imb), " | "))
	}
	b.WriteString("\n")
	if v.ValuesPlot != "" {
		fmt.Fprintf(b, "![%s values](%s)\n\n", v.Variant, v.ValuesPlot)
	}
}

func acceptDoc(rule string) string {
	switch rule {
	case AcceptAlways:
		return "every generation's table becomes current"
	case AcceptNotWorse:
		return "the new table becomes current unless the SPRT accepted H0"
	}
	return "the new table becomes current only if the SPRT accepted H1"
}

// ff formats a number, or "–" when it is NaN.
func ff(x float64, prec int) string { return stats.Format(x, prec) }

// eloCell formats an Elo with its interval, "unknown" when it is null.
func eloCell(iv stats.Interval) string {
	if math.IsNaN(float64(iv.Value)) {
		return "unknown"
	}
	return fmt.Sprintf("%+.1f [%s, %s]", float64(iv.Value), ff(float64(iv.Lo), 1), ff(float64(iv.Hi), 1))
}
