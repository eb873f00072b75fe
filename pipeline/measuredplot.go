package pipeline

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tamerlane/internal/stats"
	"tamerlane/values"
)

// measuredData is what measuredPlot draws of a variant: per generation
// with measured values, its pieces, and the atlas's entry (for the plot's
// digest).
func measuredData(rep *Report, variant string) []any {
	var data []any
	for _, g := range rep.Generations {
		for _, vr := range g.Variants {
			if vr.Variant == variant && vr.Measured != nil && hasMeasured(vr.Measured) {
				data = append(data, g.Generation, vr.Measured.Pieces)
			}
		}
	}
	if a := rep.Atlas[variant]; a != nil && len(data) > 0 {
		data = append(data, a)
	}
	return data
}

// hasMeasured reports whether some piece other than the pawn has a
// measured value.
func hasMeasured(m *values.VariantValues) bool {
	for _, p := range m.Pieces {
		if p.Piece != "P" && (p.Regression != nil || p.Imbalance != nil) {
			return true
		}
	}
	return false
}

// measuredPlot draws a variant's measured piece values per generation in
// pawns (P=1), with 95% error bars: per piece the prior-free regression on
// the generation's self-play games (solid line, filled marker) and the
// imbalance matches (dotted line, ring), each piece's first published
// figure as a dashed line in its colour, and right of the generations, at
// "atlas", the atlas's values of the pieces (rep.Atlas: regression filled,
// imbalance ring, with their intervals). The engine table's values are
// not drawn here: they are a tuning result (tableValuesPlot).
func measuredPlot(rep *Report, variant string) (*plot.Plot, *legend, bool) {
	type series struct {
		piece, name string
		reg, imb    plotter.XYs
		regE, imbE  plotter.YErrors
		pub         float64
	}
	var order []*series
	byPiece := map[string]*series{}
	var sources []string
	maxGen := 0
	for _, g := range rep.Generations {
		for _, vr := range g.Variants {
			if vr.Variant != variant || vr.Measured == nil {
				continue
			}
			for _, p := range vr.Measured.Pieces {
				if p.Piece == "P" || p.Regression == nil && p.Imbalance == nil {
					continue // the pawn is the unit
				}
				s := byPiece[p.Piece]
				if s == nil {
					s = &series{piece: p.Piece, name: p.Name, pub: math.NaN()}
					byPiece[p.Piece] = s
					order = append(order, s)
				}
				if len(p.Published) > 0 && math.IsNaN(s.pub) {
					s.pub = p.Published[0].Value
					if !slices.Contains(sources, p.Published[0].Source) {
						sources = append(sources, p.Published[0].Source)
					}
				}
				x := float64(g.Generation)
				if p.Regression != nil {
					s.reg, s.regE = addInterval(s.reg, s.regE, x, *p.Regression)
				}
				if p.Imbalance != nil {
					s.imb, s.imbE = addInterval(s.imb, s.imbE, x, *p.Imbalance)
				}
				maxGen = max(maxGen, g.Generation)
			}
		}
	}
	if len(order) == 0 {
		return nil, nil, false
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s measured piece values per generation (P=1, 95%% intervals)", variant)
	sub := "this run: solid, filled: regression on the generation's games; dotted, rings: imbalance matches"
	if len(sources) > 0 {
		sub += "\ndashed: published (" + strings.Join(sources, ", ") + ")"
	}
	atlas := rep.Atlas[variant]
	if atlas != nil {
		sub += "\nat \"atlas\": " + atlas.Label
	}
	p.Title.Text += "\n" + sub
	p.X.Label.Text = "generation"
	p.Y.Label.Text = "value (pawns)"
	p.Add(plotter.NewGrid())
	generationTicks(p, 1, maxGen)
	atlasX := float64(maxGen + 1)
	if atlas != nil {
		if ticks, ok := p.X.Tick.Marker.(plot.ConstantTicks); ok {
			p.X.Tick.Marker = append(ticks, plot.Tick{Value: atlasX, Label: "atlas"})
		}
		p.X.Max = atlasX + 0.5
	}
	leg := newLegend()
	lo, hi := math.Inf(1), math.Inf(-1)
	n := len(order)
	for i, s := range order {
		c := plotutil.Color(i)
		dx := 0.0
		if n > 1 {
			dx = 0.2 * (float64(i)/float64(n-1) - 0.5)
		}
		label := s.piece + " " + s.name
		for _, m := range []struct {
			xys    plotter.XYs
			errs   plotter.YErrors
			shift  float64
			dashes []vg.Length
			glyph  draw.GlyphDrawer
			suffix string
		}{
			{s.reg, s.regE, 0, nil, filledGlyph(i), ""},
			{s.imb, s.imbE, 0.04, []vg.Length{vg.Points(1), vg.Points(3)}, draw.RingGlyph{}, " (imbalance)"},
		} {
			if len(m.xys) == 0 {
				continue
			}
			xys := make(plotter.XYs, len(m.xys))
			for k, pt := range m.xys {
				xys[k] = plotter.XY{X: pt.X + dx + m.shift, Y: pt.Y}
				lo, hi = math.Min(lo, pt.Y-m.errs[k].Low), math.Max(hi, pt.Y+m.errs[k].High)
			}
			line, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				continue
			}
			eb, err := plotter.NewYErrorBars(xyErr{xys, m.errs})
			if err != nil {
				continue
			}
			line.Color, line.Dashes = c, m.dashes
			pts.Color, pts.Shape = c, m.glyph
			eb.LineStyle.Color = c
			eb.CapWidth = vg.Points(4)
			p.Add(line, eb, pts)
			leg.add(label+m.suffix, line, pts)
		}
		if a := atlas.piece(s.piece); a != nil {
			for _, m := range []struct {
				iv    *stats.Interval
				shift float64
				glyph draw.GlyphDrawer
			}{{a.Regression, 0, filledGlyph(i)}, {a.Imbalance, 0.04, draw.RingGlyph{}}} {
				if m.iv == nil {
					continue
				}
				xys, errs := addInterval(nil, nil, atlasX+dx+m.shift, *m.iv)
				eb, err := plotter.NewYErrorBars(xyErr{xys, errs})
				pts, perr := plotter.NewScatter(xys)
				if err != nil || perr != nil {
					continue
				}
				eb.LineStyle.Color, eb.CapWidth = c, vg.Points(4)
				pts.Color, pts.Shape = c, m.glyph
				p.Add(eb, pts)
				lo, hi = math.Min(lo, xys[0].Y-errs[0].Low), math.Max(hi, xys[0].Y+errs[0].High)
			}
		}
		if !math.IsNaN(s.pub) {
			addPublishedLine(p, c, s.pub, p.X.Max)
			lo, hi = math.Min(lo, s.pub), math.Max(hi, s.pub)
		}
	}
	p.Y.Min = math.Min(0, lo)
	p.Y.Max = hi + 0.05*(hi-p.Y.Min)
	return p, leg, true
}

// filledGlyph returns the i-th of the regression's marker shapes: filled
// ones, then crosses (the rings are the imbalance's).
func filledGlyph(i int) draw.GlyphDrawer {
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
	return shapes[i%len(shapes)]
}

// latestMeasured returns the newest generation with measured values of
// a variant and those values (0 and nil when none has any yet).
func latestMeasured(rep *Report, variant string) (int, *values.VariantValues) {
	for i := len(rep.Generations) - 1; i >= 0; i-- {
		g := rep.Generations[i]
		for _, vr := range g.Variants {
			if vr.Variant == variant && vr.Measured != nil && hasMeasured(vr.Measured) {
				return g.Generation, vr.Measured
			}
		}
	}
	return 0, nil
}

// writeMeasuredSummary writes the report's leading section: per variant
// the newest generation's measured piece values (regression and
// imbalance with 95% intervals, their agreement), the atlas's values
// beside them when some variant has an atlas entry (a line per variant
// says which atlas, or that it has none), the published figures, and the
// plot of the measured values per generation.
func writeMeasuredSummary(b *strings.Builder, rep *Report) {
	withAtlas := len(rep.Atlas) > 0
	var rows []string
	for _, v := range rep.Config.Variants {
		g, m := latestMeasured(rep, v.Variant)
		if m == nil {
			continue
		}
		for _, p := range m.Pieces {
			if p.Piece == "P" || p.Regression == nil && p.Imbalance == nil {
				continue
			}
			var pubs []string
			for _, x := range p.Published {
				pubs = append(pubs, fmt.Sprintf("%s %s", ff(x.Value, 2), x.Source))
			}
			cells := []string{v.Variant, fmt.Sprint(g), p.Piece, values.FormatInterval(p.Regression), values.FormatInterval(p.Imbalance), values.FormatZ(p.AgreementZ)}
			if withAtlas {
				var reg, imb *stats.Interval
				if a := rep.Atlas[v.Variant].piece(p.Piece); a != nil {
					reg, imb = a.Regression, a.Imbalance
				}
				cells = append(cells, values.FormatInterval(reg), values.FormatInterval(imb))
			}
			rows = append(rows, "| "+strings.Join(append(cells, strings.Join(pubs, "; ")), " | ")+" |")
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("## Measured piece values\n\n")
	b.WriteString("Prior-free measurements of the newest generation's games (this run), in pawns (P=1) with 95% intervals: the regression on the self-play games " +
		"and the imbalance matches (z: their agreement), beside the atlas of this project's published measurements and the published figures. " +
		"The engine tables' tuned values further down are shrunk towards the starting tables by the fit's prior: a tuning result, neither a measurement nor the atlas.\n\n")
	writeAtlasLines(b, rep)
	if withAtlas {
		b.WriteString("| variant | gen | piece | this run: regression (95%) | this run: imbalance (95%) | z | atlas: regression (95%) | atlas: imbalance (95%) | published |\n|---|---|---|---|---|---|---|---|---|\n")
	} else {
		b.WriteString("| variant | gen | piece | regression (95%) | imbalance (95%) | z | published |\n|---|---|---|---|---|---|---|\n")
	}
	b.WriteString(strings.Join(rows, "\n") + "\n\n")
	for _, p := range rep.Plots {
		if isMeasuredPlot(p) {
			fmt.Fprintf(b, "![%s](%s)\n\n", strings.TrimSuffix(p, ".png"), p)
		}
	}
}

// isMeasuredPlot reports whether a report plot's path is a PNG of the
// measured values (values-<variant>.png).
func isMeasuredPlot(p string) bool {
	return strings.HasPrefix(p, "values-") && strings.HasSuffix(p, ".png")
}
