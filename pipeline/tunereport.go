package pipeline

import (
	"fmt"
	"strings"

	"tamerlane/tune"
)

// priorSetting describes the configured prior for the report's settings
// list.
func priorSetting(t TuneSettings) string {
	if r := t.Regularise; r != nil {
		grid := r.Grid
		if len(grid) == 0 {
			grid = tune.DefaultGrid()
		}
		g := make([]string, len(grid))
		for i, x := range grid {
			g[i] = fmt.Sprintf("%g", x)
			if x == 0 {
				g[i] = "none"
			}
		}
		rule := r.Rule
		if rule == "" {
			rule = tune.RuleOneSE
		}
		text := fmt.Sprintf("chosen by validation (rule %s) from %s cp around the current table", rule, strings.Join(g, ", "))
		if t.PriorByDefault {
			text += " (the default: the tune section sets no prior)"
		}
		return text
	}
	if t.PriorSD > 0 {
		return fmt.Sprintf("%g cp around the current table", t.PriorSD)
	}
	return "none"
}

// tuneDetail is the Markdown under a fit's summary line: its prior and,
// when the prior was chosen by validation, the regularisation path.
func tuneDetail(tr *TuneReport) string {
	return fmt.Sprintf("Prior: %s.\n\n", tune.PriorText(tr.PriorSD, tr.Regularisation)) + tune.RegularisationMarkdown(tr.Regularisation)
}
