package quality

import (
	"fmt"
	"strings"
)

// Markdown renders the report: per player the mean value of its moves,
// the paired difference with the first player and the same by phase band.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Move quality: %s, %d positions, oracle %s\n\n", r.Variant, r.Positions, r.Oracle)
	fmt.Fprintf(&b, "Definition: %s.\n\n", r.Definition)
	if len(r.Players) == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "| player | mean value | minus %s (95%%) | same move |", r.Players[0].Name)
	for _, bd := range r.Players[0].Bands {
		fmt.Fprintf(&b, " phase %.2f-%.2f (n %d) |", bd.PhaseLo, bd.PhaseHi, bd.Positions)
	}
	b.WriteString("\n|---|---|---|---|" + strings.Repeat("---|", len(r.Players[0].Bands)) + "\n")
	for i, p := range r.Players {
		diff := "–"
		if i > 0 {
			diff = signed(p.Diff.Format(4))
		}
		fmt.Fprintf(&b, "| %s | %.4f | %s | %d/%d |", p.Name, p.Mean, diff, p.Same, r.Positions)
		for _, bd := range p.Bands {
			if i == 0 {
				fmt.Fprintf(&b, " %.4f |", bd.Mean)
				continue
			}
			fmt.Fprintf(&b, " %s |", signed(bd.Diff.Format(4)))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n(The first player's row gives its mean value by band; the others, their difference with it.)\n")
	return b.String()
}

// signed puts a plus sign before a non-negative leading figure.
func signed(s string) string {
	if s != "" && s[0] != '-' && s != "–" {
		return "+" + s
	}
	return s
}
