package pipeline

import (
	"fmt"
	"strings"

	"tamerlane/internal/stats"
	"tamerlane/values"
	"tamerlane/values/published"
)

// AtlasReport is the atlas's entry for a variant (data/measured) as the
// report sets it beside the run's measured values: in pawns (P=1), each
// method in its own pawn as the run's values are.
type AtlasReport struct {
	// Label names the atlas's measurement: "atlas (data/measured, DATE,
	// N games)".
	Label  string       `json:"label"`
	Pieces []AtlasPiece `json:"pieces"`
}

// AtlasPiece is one piece's atlas values with their 95% intervals (nil:
// the atlas has none).
type AtlasPiece struct {
	Piece      string          `json:"piece"`
	Regression *stats.Interval `json:"regression"`
	Imbalance  *stats.Interval `json:"imbalance"`
}

// piece returns a piece's atlas values, or nil.
func (a *AtlasReport) piece(p string) *AtlasPiece {
	if a == nil {
		return nil
	}
	for i := range a.Pieces {
		if a.Pieces[i].Piece == p {
			return &a.Pieces[i]
		}
	}
	return nil
}

// atlasReports returns the atlas's entries of the variants (none for a
// variant the atlas lacks).
func atlasReports(atlas published.Catalog, variants []string) map[string]*AtlasReport {
	out := map[string]*AtlasReport{}
	for _, v := range variants {
		tab := atlas[v]
		if tab == nil {
			continue
		}
		a := &AtlasReport{Label: values.AtlasLabel(tab), Pieces: []AtlasPiece{}}
		for _, p := range tab.Pieces {
			reg := values.AtlasInterval(tab, p.Letter, values.AtlasRegression, published.PawnOne)
			imb := values.AtlasInterval(tab, p.Letter, values.AtlasImbalance, published.PawnOne)
			if reg != nil || imb != nil {
				a.Pieces = append(a.Pieces, AtlasPiece{Piece: p.Letter, Regression: reg, Imbalance: imb})
			}
		}
		out[v] = a
	}
	return out
}

// writeAtlasLines writes one line per variant of the report: the atlas
// measurement its values are set beside, or that the atlas has none.
func writeAtlasLines(b *strings.Builder, rep *Report) {
	for _, v := range rep.Config.Variants {
		if a := rep.Atlas[v.Variant]; a != nil {
			fmt.Fprintf(b, "- %s: %s beside this run's values.\n", v.Variant, a.Label)
		} else {
			fmt.Fprintf(b, "- %s: the atlas (data/measured) has no entry for this variant.\n", v.Variant)
		}
	}
	b.WriteString("\n")
}
