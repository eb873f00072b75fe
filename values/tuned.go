package values

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"tamerlane/internal/fsx"
	"tamerlane/internal/stats"
	"tamerlane/tune"
	"tamerlane/values/published"
	"tamerlane/values/valueplot"
)

// ValuesFiles names the files WriteTuned writes.
type ValuesFiles struct {
	JSON     string   `json:"json"`
	Markdown string   `json:"markdown"`
	Plots    []string `json:"plots"`
}

// WriteTuned writes the values tables of a tuning report into dir: the
// tuned table's material weights as piece values beside the imbalance
// fits imbs (FitImbalances of the tuning's data) and the published
// figures, as values.json, values.md and, per variant,
// values-<variant>.png and .svg (estimates with 95% intervals against the
// published figures, in the variant's primary scale).
func WriteTuned(dir string, rep *tune.Report, imbs []ImbalanceFit, cat published.Catalog) ([]ValueRow, ValuesFiles, error) {
	var rows []ValueRow
	files := ValuesFiles{JSON: filepath.Join(dir, "values.json"), Markdown: filepath.Join(dir, "values.md")}
	for _, f := range rep.Fits {
		vr := ValueRows(f, imbalanceOf(imbs, f.Variant), cat)
		rows = append(rows, vr...)
		png, svg, err := plotValues(filepath.Join(dir, "values-"+f.Variant), f.Variant, vr, cat)
		if err != nil {
			return nil, files, fmt.Errorf("plot %s: %w", f.Variant, err)
		}
		files.Plots = append(files.Plots, png, svg)
	}
	if err := fsx.WriteJSON(files.JSON, rows); err != nil {
		return nil, files, err
	}
	if err := fsx.WriteFile(files.Markdown, []byte(TunedMarkdown(rep, imbs, rows))); err != nil {
		return nil, files, err
	}
	return rows, files, nil
}

func plotValues(base, variant string, rows []ValueRow, cat published.Catalog) (string, string, error) {
	scale := string(PrimaryScale(cat, variant))
	var pieces []string
	texel := valueplot.Series{Label: "texel (self-play)"}
	imb := valueplot.Series{Label: "imbalance matches"}
	pubs := newSeriesSet()
	for _, r := range rows {
		if r.Scale != scale {
			continue
		}
		pieces = append(pieces, r.Piece)
		if r.Texel != nil {
			texel.Points = append(texel.Points, plotPoint(r.Piece, r.Texel))
		}
		if r.Imbalance != nil {
			imb.Points = append(imb.Points, plotPoint(r.Piece, r.Imbalance))
		}
		if r.Published != nil {
			pubs.add(ShortCitation(r.Source), r.Piece, float64(*r.Published))
		}
	}
	est := []valueplot.Series{texel}
	if len(imb.Points) > 0 {
		est = append(est, imb)
	}
	return valueplot.WriteFiles(base, pieces, est, pubs.series, valueplot.Options{
		Title: fmt.Sprintf("%s piece values (%s), 95%% intervals", variant, scale), YLabel: "value (" + scale + ")"})
}

// ShortCitation shortens a bibliographic citation to its author part and
// year for tables and legends, e.g. "Larry Kaufman 1999".
func ShortCitation(c string) string {
	c = strings.Join(strings.Fields(c), " ")
	short := c
	if i := strings.IndexAny(c, ",.("); i > 0 {
		short = strings.TrimSpace(c[:i])
	}
	if len(short) > 40 {
		short = short[:40] + "…"
	}
	if ys := reYear.FindAllString(c, -1); len(ys) > 0 && !strings.Contains(short, ys[len(ys)-1]) {
		short += " " + ys[len(ys)-1]
	}
	return short
}

// reYear finds years in citations.
var reYear = regexp.MustCompile(`\b(1[5-9]|20)\d\d\b`)

// ReadTuned reads the values tables WriteTuned wrote into dir.
func ReadTuned(dir string) ([]ValueRow, error) {
	var rows []ValueRow
	err := fsx.ReadJSON(filepath.Join(dir, "values.json"), &rows, "")
	return rows, err
}

// imbalanceOf returns the imbalance fit of a variant, or nil.
func imbalanceOf(imbs []ImbalanceFit, variant string) *ImbalanceFit {
	for i := range imbs {
		if imbs[i].Variant == variant {
			return &imbs[i]
		}
	}
	return nil
}

// TunedMarkdown renders the values tables of a tuning report and its
// imbalance fits as Markdown.
func TunedMarkdown(rep *tune.Report, imbs []ImbalanceFit, rows []ValueRow) string {
	var b strings.Builder
	b.WriteString("# Piece values of the tuned eval tables\n\n")
	b.WriteString("The tuned tables' material weights (tune.json) read as piece values: a tuning result, shrunk towards the starting table by the fit's prior, not a measurement and not the atlas (the prior-free values are the measurement's values.md; the atlas of measured values is data/measured). ")
	b.WriteString("Texel estimates are the mean of a piece's middlegame and endgame material weights, as ratios to the scale's reference piece (the Pawn reference is the mean of all pawn types), with 95% delta-method intervals from the game-clustered covariance of the fit. Imbalance estimates come from a logistic regression of imbalance-match scores on the material difference.\n\n")
	for _, f := range rep.Fits {
		fmt.Fprintf(&b, "## %s\n\n", f.Variant)
		fmt.Fprintf(&b, "%d positions of %d games (validation %d); K %.3f; lambda %g; %s; train MSE %.5f (start %.5f); validation MSE %.5f (start %.5f); %d iterations, %s; errors: %s.\n\n",
			f.Positions, f.Games, f.ValidPositions, float64(f.K), float64(f.Lambda), f.PriorText(), float64(f.TrainMSE), float64(f.StartTrainMSE),
			float64(f.ValidMSE), float64(f.StartValidMSE), f.Iterations, tune.StatusText(f.Status), f.SEMethod)
		if f.Lambda != 0 {
			fmt.Fprintf(&b, "Validation MSE against game results alone: %.5f (start %.5f).\n\n", float64(f.ValidResultMSE), float64(f.StartValidResultMSE))
		}
		b.WriteString(tune.RegularisationMarkdown(f.Regularisation))
		b.WriteString(tune.IdentificationMarkdown(f))
		if imb := imbalanceOf(imbs, f.Variant); imb != nil && imb.Error != "" {
			fmt.Fprintf(&b, "Imbalance fit: %s.\n\n", imb.Error)
		}
		for _, scale := range rowScales(rows, f.Variant) {
			var any bool
			for _, r := range rows {
				if r.Variant == f.Variant && r.Scale == scale {
					if !any {
						fmt.Fprintf(&b, "### %s\n\n| piece | name | texel (95%%) | imbalance (95%%) | published | source | texel/published |\n|---|---|---|---|---|---|---|\n", scale)
						any = true
					}
					fmt.Fprintf(&b, "| %s |\n", strings.Join(r.Cells(true), " | "))
				}
			}
			if any {
				b.WriteString("\n")
			}
		}
		fmt.Fprintf(&b, "![%s values](values-%s.png)\n\n", f.Variant, f.Variant)
	}
	return b.String()
}

// rowScales lists the scales of a variant's rows in their order (the
// primary scale first, see ValueRows).
func rowScales(rows []ValueRow, variant string) []string {
	var out []string
	for _, r := range rows {
		if r.Variant == variant && !slices.Contains(out, r.Scale) {
			out = append(out, r.Scale)
		}
	}
	return out
}

// Cells are the row's cells in a table of the engine table's values:
// piece, name, the Texel estimate, the imbalance estimate (when
// withImbalance), the published value, its source (short citation and
// kind), and the Texel estimate over the published value; an unknown
// figure is an empty cell.
func (r ValueRow) Cells(withImbalance bool) []string {
	cells := []string{r.Piece, r.Name, fmtInterval(r.Texel)}
	if withImbalance {
		cells = append(cells, fmtInterval(r.Imbalance))
	}
	return append(cells, fmtFloat(r.Published), sourceCell(r), fmtFloat(r.Ratio))
}

func sourceCell(r ValueRow) string {
	if r.Source == "" {
		return ""
	}
	return fmt.Sprintf("%s (%s)", ShortCitation(r.Source), r.Kind)
}

func fmtInterval(iv *stats.Interval) string {
	if iv == nil {
		return ""
	}
	return iv.Format(2)
}

func fmtFloat(f *stats.Float) string {
	if f == nil || math.IsNaN(float64(*f)) {
		return ""
	}
	return fmt.Sprintf("%.2f", float64(*f))
}
