package pipeline

import (
	"fmt"
	"path/filepath"
	"strings"

	"tamerlane/internal/fsx"
	"tamerlane/values"
)

// writeMeasured writes the prior-free values table of a variant.
func writeMeasured(b *strings.Builder, v *values.VariantValues) {
	resigned := ""
	if v.Resigned > 0 {
		resigned = fmt.Sprintf(" (%s ended by resign adjudication)", values.FormatPercent(v.Resigned, v.Games))
	}
	// The scored differences (a pawn up as the unit) get a column when
	// they valued some piece.
	scored := false
	for _, p := range v.Pieces {
		scored = scored || p.Piece != "P" && p.Scored != nil
	}
	head, rule := "| piece | regression | imbalance | z | published |", "|---|---|---|---|---|"
	if scored {
		head, rule = "| piece | regression | imbalance | z | scored (a pawn up = 1) | published |", "|---|---|---|---|---|---|"
	}
	fmt.Fprintf(b, "**Measured piece values** (P=1, 95%% intervals; prior-free regression on %d games%s, imbalance matches %d games; "+
		"definition: README \"Piece values\"):\n\n%s\n%s\n", v.Games, resigned, v.ImbalanceGames, head, rule)
	for _, p := range v.Pieces {
		if p.Piece == "P" {
			continue
		}
		cells := []string{p.Piece, values.FormatInterval(p.Regression), values.FormatInterval(p.Imbalance), values.FormatZ(p.AgreementZ)}
		if scored {
			cells = append(cells, values.FormatInterval(p.Scored))
		}
		var pubs []string
		for _, x := range p.Published {
			pubs = append(pubs, fmt.Sprintf("%s %s (%s)", ff(x.Value, 2), x.Source, x.Kind))
		}
		fmt.Fprintf(b, "| %s |\n", strings.Join(append(cells, strings.Join(pubs, "; ")), " | "))
	}
	for _, d := range v.Disagreements {
		if d.Comparison == values.Scale {
			fmt.Fprintf(b, "\nDisagreements at 95%% (expected by chance if every piece agrees; still disagreeing at a family-wise 5%%, Holm's correction): %s\n", d)
		}
	}
	if text := values.ConsistencySummary(v.ImbalanceConsistency); text != "" {
		fmt.Fprintf(b, "\n%s\n", text)
	}
	for _, n := range v.Notes {
		fmt.Fprintf(b, "\n- %s", n)
	}
	b.WriteString("\n\n")
}

// MeasuredName is the prior-free values document of a generation's games
// (values.Document as JSON), in its directory gen-NNN.
const MeasuredName = "measured-values.json"

// measure writes the prior-free values of generation g's self-play games
// (package values: the regression and the imbalance matches) to
// gen-NNN/measured-values.json, which the report reads.
func (r *runner) measure(g int) error {
	gd := GenDir(r.dir, g)
	sp := filepath.Join(gd, "selfplay")
	doc, err := values.Measure([]string{sp}, r.cat, values.Options{})
	if err != nil {
		return fmt.Errorf("measured values of %s: %w", sp, err)
	}
	for _, v := range doc.Variants {
		r.logf(g, StepMeasure, v.Variant, "%d regression games, %d imbalance games", v.Games, v.ImbalanceGames)
	}
	return fsx.WriteJSON(filepath.Join(gd, MeasuredName), doc)
}

// readMeasured reads the prior-free values the measure step wrote into
// the generation directory gd.
func readMeasured(gd string) (*values.Document, error) {
	var doc values.Document
	if err := fsx.ReadJSON(filepath.Join(gd, MeasuredName), &doc, ""); err != nil {
		return nil, err
	}
	return &doc, nil
}
