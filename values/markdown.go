package values

import (
	"fmt"
	"math"
	"strings"

	"tamerlane/internal/stats"
	"tamerlane/selfplay/elo"
	"tamerlane/values/imbalance"
)

// Markdown renders the document as tables, one per variant.
func (d *Document) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Piece values (%s, 95%% intervals)\n\n", d.Scale)
	fmt.Fprintf(&b, "Estimand: %s.\n\n", d.Definition)
	fmt.Fprintf(&b, "Regression samples from ply %d on, material unchanged for %d plies", d.Settings.MinPly, d.Settings.QuietPlies)
	if d.Settings.SharedPieces > 0 {
		fmt.Fprintf(&b, ", at least %d piece(s) on the board besides the material difference (both sides have them)", d.Settings.SharedPieces)
	}
	if d.Settings.Pairs {
		b.WriteString("; a class pair.T for every colour-bound type T (pieces of T on both colours of squares)")
	}
	fmt.Fprintf(&b, "; a piece is identified with at least %d games with a difference.\n\n", d.Settings.MinGames)
	if len(d.InProgress) > 0 {
		fmt.Fprintf(&b, "**Interim**: the games finished so far in runs still in progress (%s).\n\n", strings.Join(d.InProgress, ", "))
	}
	if len(d.UnfinishedPlans) > 0 {
		fmt.Fprintf(&b, "**Unfinished imbalance plans** (stopped before the planner's end, no plan.json): %s. Their values are of the matches played so far.\n\n", strings.Join(d.UnfinishedPlans, ", "))
	}
	for _, c := range d.ConcludedPlans {
		fmt.Fprintf(&b, "**Concluded imbalance plan** %s: ended at round %d by `tamerlane measure -conclude`, before its targets or caps", c.Dir, c.EndRound)
		if len(c.Pieces) > 0 {
			fmt.Fprintf(&b, " (the matches of %s stopped there)", strings.Join(c.Pieces, ", "))
		}
		b.WriteString("; its check matches follow the conclusion. Its values are of the matches played, with their intervals.\n\n")
	}
	if r := d.PGN; r != nil {
		fmt.Fprintf(&b, "Games from %s, not self-play of this program: %d read, %d used", strings.Join(d.PGNFiles, ", "), r.Games, r.Used)
		if r.Games > r.Used {
			fmt.Fprintf(&b, "; left out %d unfinished, %d of other variants, %d whose moves do not replay", r.Unfinished, countAll(r.OtherVariant), r.Unplayable)
			if r.FirstUnplayable != "" {
				fmt.Fprintf(&b, " (the first: %s)", r.FirstUnplayable)
			}
		}
		b.WriteString(".\n\n")
	}
	for _, v := range d.Variants {
		fmt.Fprintf(&b, "## %s\n\n%d games (%d quiet positions) for the regression, %d imbalance games.", v.Variant, v.Games, v.Samples, v.ImbalanceGames)
		if v.ImbalanceOpenings != "" {
			fmt.Fprintf(&b, " The imbalance matches took their material off the positions of %s, not the start array: their pawn and pieces are those of that stage of the game.", v.ImbalanceOpenings)
		}
		if v.Resigned+v.ImbalanceResigned > 0 {
			fmt.Fprintf(&b, " Resign adjudication (our engine's scores) ended %s of the regression's games and %s of the imbalance games.",
				FormatPercent(v.Resigned, v.Games), FormatPercent(v.ImbalanceResigned, v.ImbalanceGames))
		}
		switch l := v.Logistic; {
		case l != nil && l.PawnAtStart != nil:
			fmt.Fprintf(&b, " A pawn is worth %s logit at the start (phase 1) and %s at phase 0; White's edge %s logit.", l.PawnAtStart.Format(3), l.PawnAtEnd.Format(3), l.WhiteEdge.Format(3))
		case l != nil:
			fmt.Fprintf(&b, " A pawn is worth %.3f logit at the start (phase 1) and %.3f at phase 0; White's edge %+.3f logit.", l.Gamma0+l.Gamma1, l.Gamma0, l.Alpha)
		}
		b.WriteString("\n\n")
		var scaled []string
		for _, p := range v.Pieces {
			if len(p.Scaled) > len(scaled) {
				scaled = scaled[:0]
				for _, x := range p.Scaled {
					scaled = append(scaled, x.Scale)
				}
			}
		}
		b.WriteString("| piece | regression | imbalance | z | imbalance (regression's pawn at the start) | z |")
		for _, sc := range scaled {
			fmt.Fprintf(&b, " regression (%s) | imbalance (%s) | z (%s) |", sc, sc, sc)
		}
		b.WriteString(" scored (a pawn up = 1) | published (P=1) |\n|---|---|---|---|---|---|" + strings.Repeat("---|---|---|", len(scaled)) + "---|---|\n")
		for _, p := range v.Pieces {
			z := FormatZ(p.AgreementZ)
			var pubs []string
			for _, x := range p.Published {
				pubs = append(pubs, fmt.Sprintf("%.2f (%s, %s)", x.Value, x.Source, x.Kind))
			}
			name := p.Piece
			if p.Name != "" {
				name += " " + p.Name
			}
			cells := []string{name, FormatInterval(p.Regression), FormatInterval(p.Imbalance), z, FormatInterval(p.Bridged), FormatZ(p.BridgedZ)}
			for k := range scaled {
				if k < len(p.Scaled) {
					cells = append(cells, FormatInterval(p.Scaled[k].Regression), FormatInterval(p.Scaled[k].Imbalance), FormatZ(p.Scaled[k].AgreementZ))
				} else {
					cells = append(cells, "–", "–", "–")
				}
			}
			cells = append(cells, FormatInterval(p.Scored), strings.Join(pubs, "; "))
			fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | "))
		}
		var informed []string
		for _, p := range v.Pieces {
			if p.GamesWithDifference > 0 {
				informed = append(informed, fmt.Sprintf("%s %d (%s)", p.Piece, p.GamesWithDifference, FormatPercent(p.GamesWithDifference, v.Games)))
			}
		}
		if len(informed) > 0 {
			fmt.Fprintf(&b, "\nRegression games with a difference in the piece (the games that inform its value): %s.\n", strings.Join(informed, ", "))
		}
		for _, p := range v.Pieces {
			if p.WithPair != nil {
				fmt.Fprintf(&b, "\n%s with its pair: %s. Removing one %s from the start position breaks the pair, so an imbalance match that removes it measures %s + pair.%s; the z columns compare the imbalance value with this sum (and its ratios), and the phase bands are not compared.\n",
					p.Piece, FormatInterval(p.WithPair), p.Piece, p.Piece, p.Piece)
			}
		}
		if len(v.PawnSets) > 0 {
			sets := make([]string, len(v.PawnSets))
			for i, ps := range v.PawnSets {
				sets[i] = fmt.Sprintf("%s %s", ps.Set, FormatInterval(&ps.Imbalance))
				if ps.AdditivityZ != nil {
					sets[i] += fmt.Sprintf(" (z %+.2f)", *ps.AdditivityZ)
				}
				if !ps.Adds() {
					sets[i] += " **do not add up**"
				}
			}
			fmt.Fprintf(&b, "\nPawn sets measured by their own odds, each a class of the imbalance fit (in pawns; a set of k pawns is worth k if removed pawns add up; z = (value − k)/SE): %s.\n", strings.Join(sets, ", "))
		}
		disagreementsMarkdown(&b, v.Disagreements)
		scoredMarkdown(&b, &v)
		phaseMarkdown(&b, &v)
		matchesMarkdown(&b, &v)
		for _, n := range v.Notes {
			fmt.Fprintf(&b, "\n- %s", n)
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// FormatInterval prints "3.12 [2.90, 3.34]" or "–" (nil or unknown).
func FormatInterval(iv *stats.Interval) string {
	if iv == nil {
		return "–"
	}
	return iv.Format(2)
}

// FormatPercent formats n of total as a whole percentage ("-" when total
// is 0).
func FormatPercent(n, total int) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(total))
}

// matchesMarkdown writes the imbalance matches and, when they
// overdetermine the values, the test of the additive model: each match's
// score against the fit's and its standardised residual.
func matchesMarkdown(b *strings.Builder, v *VariantValues) {
	if len(v.Matches) == 0 {
		return
	}
	c := v.ImbalanceConsistency
	if text := ConsistencySummary(c); text != "" {
		fmt.Fprintf(b, "\n%s", text)
		if c.Overdetermined() {
			b.WriteString(" A match's z is its score against the fitted one, standardised by the game-to-game spread within matches")
			if c.PairInflation > 1 {
				b.WriteString(" (times the pairs' 1 + ρ̂)")
			}
			b.WriteString(" and its leverage (– where the match alone sets a value).")
		}
		b.WriteString("\n")
	}
	if pc := v.ImbalancePairCorrelation; pc != nil {
		verdict := "the fit's intervals, which count games as independent, stand"
		switch {
		case pc.Correlated():
			verdict = fmt.Sprintf("**they correlate**: the intervals are at least √(1 + ρ̂) = %.3f times as wide as independent games would make them", math.Sqrt(pc.Inflation()))
		case pc.Inflation() > 1:
			verdict = fmt.Sprintf("not significantly, but the intervals are at least √(1 + ρ̂) = %.3f times as wide as independent games would make them", math.Sqrt(pc.Inflation()))
		}
		fmt.Fprintf(b, "\nThe two games of a pair (one position, colours swapped) correlate ρ = %s over %d pairs: %s.\n", pc.Rho.Format(3), pc.Pairs, verdict)
	}
	b.WriteString("\n| match (first side lacks vs second side lacks) | pairs | first side W-D-L | first side score (95%) |")
	if c.Overdetermined() {
		b.WriteString(" fitted score | z |\n|---|---|---|---|---|---|\n")
	} else {
		b.WriteString("\n|---|---|---|---|\n")
	}
	// The fit skipped matches without games; its residuals follow the rest.
	next := 0
	for _, m := range v.Matches {
		sc := elo.Trinomial{Wins: m.Wins, Draws: m.Draws, Losses: m.Losses}.Score()
		fmt.Fprintf(b, "| %v vs %v | %d | %d-%d-%d | %s |", m.FirstRemoves, m.SecondRemoves, m.Pairs, m.Wins, m.Draws, m.Losses, sc.Format(3))
		if c.Overdetermined() && m.Games() > 0 && next < len(c.Residuals) {
			r := c.Residuals[next]
			next++
			fmt.Fprintf(b, " %s | %s |", r.Fitted.Format(3), r.Z.Format(2))
		} else if c.Overdetermined() {
			b.WriteString(" – | – |")
		}
		b.WriteString("\n")
	}
}

// ConsistencySummary says in a sentence whether the imbalance matches
// agree with the fit's additive model ("" without a fit).
func ConsistencySummary(c *imbalance.Consistency) string {
	switch {
	case c == nil:
		return ""
	case c.DF == 0:
		return "As many imbalance matches as values: each match sets one, so nothing here tests that the values add up (a further match would)."
	case !c.Tested():
		return fmt.Sprintf("The %d imbalance matches overdetermine the values, but no match's games differ, so nothing measures the spread to test the additive model against.", c.Matches)
	}
	verdict := "they agree with it at 95%"
	if c.Disagrees(0.05) {
		verdict = "**they disagree with it at 95%**: some pieces are not worth the same in every match, or do not add up"
	}
	dispersion, root := c.PureError.Format(3), "√(X²/df)"
	if k := c.PairInflation; k > 1 {
		dispersion += fmt.Sprintf(" per game, times 1 + ρ̂ = %.3f for the pairs' correlation", k)
		root = "√((1 + ρ̂)·X²/df)"
	}
	text := fmt.Sprintf("The %d imbalance matches overdetermine the values: lack of fit of the additive model X² = %s on %d df (pure-error dispersion %s; F test p = %s): %s.",
		c.Matches, c.ChiSquare.Format(2), c.DF, dispersion, formatP(float64(c.P)), verdict)
	if c.Heterogeneity > 1 {
		text += fmt.Sprintf(" The imbalance intervals are %.2f times as wide as independent games would make them (%s), for the matches' spread about the model.", math.Sqrt(c.Heterogeneity*max(1, c.PairInflation)), root)
	}
	return text
}

// formatP prints a p-value with four decimals, or in scientific notation
// below 0.0001 (not as 0.0000).
func formatP(p float64) string {
	if p > 0 && p < 1e-4 {
		return fmt.Sprintf("%.1e", p)
	}
	return stats.Format(p, 4)
}

// scoredRows is how many differences the Markdown lists; the JSON has
// them all.
const scoredRows = 16

// scoredMarkdown writes the scored differences of a variant: the unit,
// the values with their ratios, and the differences read.
func scoredMarkdown(b *strings.Builder, v *VariantValues) {
	s := v.Scored
	if s == nil {
		return
	}
	u := s.PawnUp
	fmt.Fprintf(b, "\nScored differences (a second reading of the same positions; definition in the JSON and docs/values.md): the side a pawn up, nothing else different, scores %s (%d games with White ahead, %d with Black), %s logit: the unit.",
		u.Score.Format(3), u.GamesWhite, u.GamesBlack, stats.Format(logit(float64(u.Score.Value)), 3))
	var vals []string
	for _, p := range v.Pieces {
		if p.Scored == nil || p.Piece == "P" {
			continue
		}
		x := fmt.Sprintf("%s %s", p.Piece, FormatInterval(p.Scored))
		for _, sc := range p.Scaled {
			if sc.Scored != nil && sc.Scored.SE > 0 { // not the unit itself
				x += fmt.Sprintf(" (%s: %s)", sc.Scale, FormatInterval(sc.Scored))
			}
		}
		vals = append(vals, x)
	}
	if len(vals) > 0 {
		fmt.Fprintf(b, " Values: %s; %d bootstrap replicates of whole games", strings.Join(vals, ", "), s.Replicates)
		if s.SkippedReplicates > 0 {
			fmt.Fprintf(b, " (%d left out: a difference without a finite logit)", s.SkippedReplicates)
		}
		b.WriteString(".")
		used := 0
		for _, d := range s.Differences {
			if d.ResidualZ != nil {
				used++
			}
		}
		fmt.Fprintf(b, " Of the %d differences fitted, %d do not fit the values at 95%% (|z| > 1.96), %d under Holm's correction.", used, s.Misfits, s.MisfitsHolm)
		if s.MisfitsHolm > 0 {
			b.WriteString(" **The differences' scores do not add up**: one set of values does not describe them, and the values depend on which differences are read (scored_max_pawns).")
		}
	}
	b.WriteString("\n\n| difference | regression's worth | games (White ahead / Black) | score | pawns | fitted | z |\n|---|---|---|---|---|---|---|\n")
	for i, d := range s.Differences {
		if i == scoredRows {
			fmt.Fprintf(b, "\n%d more differences in the JSON (scored_differences).\n", len(s.Differences)-scoredRows)
			break
		}
		fitted := "not used (no piece)"
		switch {
		case d.Fitted != nil:
			fitted = stats.Format(*d.Fitted, 2)
		case hasPiece(d.Diff):
			fitted = "not used (no finite logit)"
		}
		fmt.Fprintf(b, "| %s | %.2f | %d / %d | %s | %s | %s | %s |\n", d.Difference, d.Worth, d.GamesWhite, d.GamesBlack, d.Score.Format(3), d.Pawns.Format(2), fitted, FormatZ(d.ResidualZ))
	}
}
