package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"tamerlane/internal/fsx"
	"tamerlane/internal/stats"
	"tamerlane/values"
)

// writePlots draws the report's plots into dir and returns their paths
// relative to dir, in the order the report shows them:
// values-<variant>.png/.svg (the measured piece values per generation
// against the published figures) once a generation's games are measured,
// elo.png/.svg (Elo of the accepted tables) once a generation is
// verified, and table-values-<variant>.png/.svg (the engine tables' tuned
// material values, not a measurement) once a generation is tuned. A plot
// whose data are those it was last drawn from in this session
// (drawn[name] holds their digest) is not drawn again.
func writePlots(dir string, rep *Report, drawn map[string]string) ([]string, error) {
	var out []string
	render := func(name string, data any, build func() (*plot.Plot, *legend, bool)) error {
		b, err := json.Marshal(data)
		if err != nil {
			return err
		}
		sum := digest(b)
		base := filepath.Join(dir, name)
		if drawn[name] == sum && exists(base+".png") && exists(base+".svg") {
			out = append(out, name+".png", name+".svg")
			return nil
		}
		p, leg, ok := build()
		if !ok {
			return nil
		}
		if _, err := savePlot(p, leg, base); err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
		drawn[name] = sum
		out = append(out, name+".png", name+".svg")
		return nil
	}
	for _, v := range rep.Config.Variants {
		data := measuredData(rep, v.Variant)
		if len(data) == 0 {
			continue
		}
		if err := render("values-"+v.Variant, data, func() (*plot.Plot, *legend, bool) { return measuredPlot(rep, v.Variant) }); err != nil {
			return nil, err
		}
	}
	data := []any{rep.Elo, rep.EloVsGen0}
	for _, g := range rep.Generations {
		for _, vr := range g.Variants {
			if vr.Match != nil {
				data = append(data, g.Generation, vr.Variant, vr.Match.Elo)
			}
		}
	}
	if err := render("elo", data, func() (*plot.Plot, *legend, bool) { return eloPlot(rep) }); err != nil {
		return nil, err
	}
	for _, v := range rep.Config.Variants {
		var data []any
		for _, g := range rep.Generations {
			for _, vr := range g.Variants {
				if vr.Variant == v.Variant && len(vr.Values) > 0 {
					data = append(data, g.Generation, vr.Values)
				}
			}
		}
		if len(data) == 0 {
			continue
		}
		if err := render("table-values-"+v.Variant, data, func() (*plot.Plot, *legend, bool) { return tableValuesPlot(rep, v.Variant) }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// addPublishedLine draws a published figure y as a thin dashed
// horizontal line in colour c from the first generation's left edge to
// x = xMax.
func addPublishedLine(p *plot.Plot, c color.Color, y, xMax float64) {
	ref, err := plotter.NewLine(plotter.XYs{{X: 0.5, Y: y}, {X: xMax, Y: y}})
	if err != nil {
		return
	}
	ref.Color = c
	ref.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	ref.Width = vg.Points(0.8)
	p.Add(ref)
}

// xyErr joins points and their error distances for plotter.NewYErrorBars.
type xyErr struct {
	plotter.XYs
	plotter.YErrors
}

// tableValuesPlot draws a variant's engine-table piece values per
// generation (x) in its primary scale: the Texel fit of the table's
// material weights, shrunk towards the starting table by the fit's prior
// (a tuning result, not a measurement: measuredPlot draws those), one
// line per piece with 95% error bars, and a dashed horizontal line in the
// same colour at the published value.
func tableValuesPlot(rep *Report, variant string) (*plot.Plot, *legend, bool) {
	scale := ""
	for _, g := range rep.Generations {
		for _, v := range g.Variants {
			if v.Variant == variant && scale == "" {
				scale = v.Scale
			}
		}
	}
	type series struct {
		piece, name string
		xys         plotter.XYs
		errs        plotter.YErrors
		pub         float64
		src         string
	}
	var order []*series
	byPiece := map[string]*series{}
	maxGen := 0
	for _, g := range rep.Generations {
		for _, v := range g.Variants {
			if v.Variant != variant {
				continue
			}
			for _, r := range v.Values {
				if r.Scale != scale || r.Texel == nil {
					continue
				}
				s := byPiece[r.Piece]
				if s == nil {
					s = &series{piece: r.Piece, name: r.Name, pub: math.NaN()}
					byPiece[r.Piece] = s
					order = append(order, s)
				}
				if r.Published != nil && math.IsNaN(s.pub) {
					s.pub, s.src = float64(*r.Published), values.ShortCitation(r.Source)
				}
				val, lo, hi := float64(r.Texel.Value), float64(r.Texel.Lo), float64(r.Texel.Hi)
				if math.IsNaN(val) {
					continue
				}
				el, eh := val-lo, hi-val
				if !(el >= 0) || math.IsInf(el, 0) {
					el = 0
				}
				if !(eh >= 0) || math.IsInf(eh, 0) {
					eh = 0
				}
				s.xys = append(s.xys, plotter.XY{X: float64(g.Generation), Y: val})
				s.errs = append(s.errs, struct{ Low, High float64 }{el, eh})
				maxGen = max(maxGen, g.Generation)
			}
		}
	}
	if len(order) == 0 {
		return nil, nil, false
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s engine table's material values per generation (%s): tuned, not a measurement, not the atlas", variant, scale)
	p.X.Label.Text = "generation"
	p.Y.Label.Text = "value (" + scale + ")"
	p.Add(plotter.NewGrid())
	generationTicks(p, 1, maxGen)
	leg := newLegend()
	n := len(order)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, s := range order {
		c := plotutil.Color(i)
		dx := 0.0
		if n > 1 {
			dx = 0.2 * (float64(i)/float64(n-1) - 0.5)
		}
		xys := make(plotter.XYs, len(s.xys))
		for k, pt := range s.xys {
			xys[k] = plotter.XY{X: pt.X + dx, Y: pt.Y}
			lo, hi = math.Min(lo, pt.Y-s.errs[k].Low), math.Max(hi, pt.Y+s.errs[k].High)
		}
		label := s.piece + " " + s.name
		if len(xys) > 0 {
			line, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				continue
			}
			line.Color = c
			pts.Color = c
			pts.Shape = plotutil.Shape(i)
			eb, err := plotter.NewYErrorBars(xyErr{xys, s.errs})
			if err != nil {
				continue
			}
			eb.LineStyle.Color = c
			eb.CapWidth = vg.Points(4)
			p.Add(line, eb, pts)
			leg.add(label, line, pts)
		}
		if !math.IsNaN(s.pub) {
			addPublishedLine(p, c, s.pub, float64(maxGen)+0.5)
			lo, hi = math.Min(lo, s.pub), math.Max(hi, s.pub)
		}
	}
	sub := "Texel fit shrunk by its prior, 95% intervals"
	if order[0].src != "" {
		sub += "; dashed: published (" + order[0].src + ")"
	}
	p.Title.Text += "\n" + sub
	p.Y.Min = math.Min(0, lo)
	p.Y.Max = hi + 0.05*(hi-p.Y.Min)
	return p, leg, true
}

// eloPlot draws each variant's cumulative Elo over its generation-0 table
// after each decided generation, with 95% intervals.
func eloPlot(rep *Report) (*plot.Plot, *legend, bool) {
	maxGen := 0
	for _, pts := range rep.Elo {
		for _, p := range pts {
			maxGen = max(maxGen, p.Generation)
		}
	}
	for _, g := range rep.Generations {
		for _, v := range g.Variants {
			if v.Match != nil {
				maxGen = max(maxGen, g.Generation)
			}
		}
	}
	if maxGen == 0 {
		return nil, nil, false
	}
	p := plot.New()
	p.Title.Text = "Elo per generation (95% intervals)\nsolid: cumulative (sum of accepted matches); dotted: measured, current vs generation 0;\nrings: each match, new vs current"
	p.X.Label.Text = "generation"
	p.Y.Label.Text = "Elo"
	p.Add(plotter.NewGrid())
	generationTicks(p, 0, maxGen)
	zero, _ := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: float64(maxGen) + 0.5, Y: 0}})
	zero.Color = color.Gray{Y: 120}
	zero.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	p.Add(zero)
	leg := newLegend()
	n := len(rep.Config.Variants)
	for i, v := range rep.Config.Variants {
		c := plotutil.Color(i)
		dx := 0.0
		if n > 1 {
			dx = 0.15 * (float64(i)/float64(n-1) - 0.5)
		}
		var xys plotter.XYs
		var errs plotter.YErrors
		for _, pt := range rep.Elo[v.Variant] {
			xys, errs = addInterval(xys, errs, float64(pt.Generation)+dx, pt.Elo)
		}
		if len(xys) == 0 {
			continue
		}
		line, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			continue
		}
		line.Color, pts.Color, pts.Shape = c, c, plotutil.Shape(i)
		eb, err := plotter.NewYErrorBars(xyErr{xys, errs})
		if err != nil {
			continue
		}
		eb.LineStyle.Color = c
		eb.CapWidth = vg.Points(4)
		p.Add(line, eb, pts)
		leg.add(v.Variant+" cumulative", line, pts)
		if ml, mp, meb := measuredSeries(rep.EloVsGen0[v.Variant], dx-0.08, c); ml != nil {
			p.Add(ml, meb, mp)
			leg.add(v.Variant+" measured vs gen 0", ml, mp)
		}
		// Each generation's match, accepted or not.
		var mxy plotter.XYs
		var merr plotter.YErrors
		for _, g := range rep.Generations {
			for _, vr := range g.Variants {
				if vr.Variant != v.Variant || vr.Match == nil || math.IsNaN(float64(vr.Match.Elo.Elo)) {
					continue
				}
				m := float64(vr.Match.Elo.Margin)
				if !(m >= 0) || math.IsInf(m, 0) {
					m = 0
				}
				mxy = append(mxy, plotter.XY{X: float64(g.Generation) + dx + 0.08, Y: float64(vr.Match.Elo.Elo)})
				merr = append(merr, struct{ Low, High float64 }{m, m})
			}
		}
		if len(mxy) > 0 {
			sc, err := plotter.NewScatter(mxy)
			if err != nil {
				continue
			}
			sc.Color, sc.Shape, sc.Radius = c, draw.RingGlyph{}, vg.Points(3.5)
			meb, err := plotter.NewYErrorBars(xyErr{mxy, merr})
			if err != nil {
				continue
			}
			meb.LineStyle.Color = c
			meb.LineStyle.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
			meb.CapWidth = vg.Points(3)
			p.Add(meb, sc)
			leg.add(v.Variant+" match", sc)
		}
	}
	if p.Y.Max > p.Y.Min {
		pad := 0.05 * (p.Y.Max - p.Y.Min)
		p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
	}
	return p, leg, true
}

// addInterval appends an estimate at x with its 95% error bar to a
// series; an unknown or infinite value is left out, an unknown or
// infinite end draws no bar on its side.
func addInterval(xys plotter.XYs, errs plotter.YErrors, x float64, iv stats.Interval) (plotter.XYs, plotter.YErrors) {
	v := float64(iv.Value)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return xys, errs
	}
	bar := func(d float64) float64 {
		if !(d >= 0) || math.IsInf(d, 0) {
			return 0
		}
		return d
	}
	return append(xys, plotter.XY{X: x, Y: v}), append(errs, struct{ Low, High float64 }{bar(v - float64(iv.Lo)), bar(float64(iv.Hi) - v)})
}

// measuredSeries draws a variant's measured Elo against generation 0
// (dotted line, triangles, 95% error bars), shifted by dx; nil when no
// point is known.
func measuredSeries(pts []Gen0Point, dx float64, c color.Color) (*plotter.Line, *plotter.Scatter, *plotter.YErrorBars) {
	var xys plotter.XYs
	var errs plotter.YErrors
	for _, pt := range pts {
		xys, errs = addInterval(xys, errs, float64(pt.Generation)+dx, pt.Elo)
	}
	if len(xys) < 2 {
		return nil, nil, nil // generation 0 alone says nothing
	}
	line, sc, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, nil, nil
	}
	eb, err := plotter.NewYErrorBars(xyErr{xys, errs})
	if err != nil {
		return nil, nil, nil
	}
	line.Color, sc.Color, sc.Shape = c, c, draw.TriangleGlyph{}
	line.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
	eb.LineStyle.Color = c
	eb.CapWidth = vg.Points(3)
	return line, sc, eb
}

// generationTicks puts a tick at every generation from lo to hi.
func generationTicks(p *plot.Plot, lo, hi int) {
	var ticks []plot.Tick
	step := max(1, (hi-lo+1)/12)
	for g := lo; g <= hi; g += step {
		ticks = append(ticks, plot.Tick{Value: float64(g), Label: fmt.Sprint(g)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = float64(lo)-0.5, float64(hi)+0.5
}

// savePlot renders the plot with its legend to the right as base.png and
// base.svg, each written atomically.
func savePlot(p *plot.Plot, leg *legend, base string) ([]string, error) {
	const legendPad = 8
	lw := vg.Length(0)
	if leg != nil {
		leg.Top, leg.Left = true, true
		for _, name := range leg.names {
			lw = max(lw, leg.TextStyle.Width(name))
		}
		lw += leg.ThumbnailWidth + 3*legendPad
	}
	w, h := 16*vg.Centimeter+lw, 10*vg.Centimeter
	if leg != nil {
		// Room for every legend entry below the title.
		h = max(h, vg.Length(len(leg.names))*leg.TextStyle.Font.Size*1.25+2*vg.Centimeter)
	}
	render := func(c vg.CanvasWriterTo) ([]byte, error) {
		dc := draw.New(c)
		p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
		if leg != nil {
			lc := draw.Crop(dc, w-lw+legendPad, 0, 0, -4*legendPad)
			leg.Draw(lc)
		}
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	var out []string
	for _, f := range []struct {
		ext string
		c   vg.CanvasWriterTo
	}{
		{".png", fastPNG{vgimg.New(w, h)}},
		{".svg", vgsvg.New(w, h)},
	} {
		b, err := render(f.c)
		if err != nil {
			return nil, err
		}
		if err := fsx.WriteFile(base+f.ext, b); err != nil {
			return nil, err
		}
		out = append(out, base+f.ext)
	}
	return out, nil
}

// fastPNG is a PNG canvas that favours encoding speed over file size
// (the report redraws its plots as the run goes).
type fastPNG struct{ *vgimg.Canvas }

// WriteTo implements io.WriterTo.
func (c fastPNG) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, c.Image()); err != nil {
		return 0, err
	}
	return buf.WriteTo(w)
}

// legend is a plot legend that remembers its entries' texts (to size
// the space it is drawn in).
type legend struct {
	plot.Legend
	names []string
}

func newLegend() *legend { return &legend{Legend: plot.NewLegend()} }

func (l *legend) add(name string, thumbs ...plot.Thumbnailer) {
	l.Add(name, thumbs...)
	l.names = append(l.names, name)
}
