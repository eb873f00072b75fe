package paired

import (
	"fmt"
	"strings"
)

// Markdown renders the report as a table: a row per stream and the total.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Paired comparison: A (%s) against B (%s)\n\nDefinition: %s.\n\n", strings.Join(r.A, ", "), strings.Join(r.B, ", "), r.Definition)
	b.WriteString("| stream | pairs | A's score | B's score | A minus B per game (95%) | Elo of A minus Elo of B (95%) | pairs of A only | pairs of B only |\n|---|---|---|---|---|---|---|---|\n")
	row := func(name string, c Comparison) {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %d | %d |\n", name, c.Pairs, c.ScoreA.Format(4), c.ScoreB.Format(4), c.Diff.Format(4), c.EloDiff.Format(1), c.OnlyA, c.OnlyB)
	}
	for _, c := range r.Streams {
		row(c.Stream, c)
	}
	if len(r.Streams) > 1 {
		row("**all**", r.Total)
	}
	if r.Total.Pairs == 0 {
		b.WriteString("\nNo pair of A has a partner in B: the runs played other openings or other streams.\n")
	}
	return b.String()
}
