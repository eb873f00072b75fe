// Package valueplot draws piece-value estimates with confidence intervals
// beside published values, using gonum.org/v1/plot.
//
// Pieces are laid out along the x axis in the order given. Each estimate
// series (e.g. "texel", "imbalance") is drawn as filled markers with error
// bars; each published series as hollow markers of a different shape
// without error bars. Series are offset sideways so they do not overlap.
// The y axis carries whatever normalisation the caller used (say Pawn = 1);
// say which in Options.YLabel.
package valueplot

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tamerlane/internal/fsx"
)

// Point is one value for one piece. Lo and Hi bound its interval (for
// example the 95 % confidence interval); set both to NaN, or equal to
// Value, for no error bar. Points with a NaN Value are skipped.
type Point struct {
	Piece  string  // piece name, as on the x axis
	Value  float64 // point estimate
	Lo, Hi float64 // interval bounds, or NaN
}

// Series is a labelled set of points from one method or source.
type Series struct {
	Label  string  // legend label, e.g. "texel" or "Kaufman 1999"
	Points []Point // at most one per piece
}

// Options control the plot.
type Options struct {
	Title  string    // plot title
	YLabel string    // default "value"
	XLabel string    // default "piece"
	Width  vg.Length // default 16 cm
	Height vg.Length // default 10 cm
}

func (o Options) size() (vg.Length, vg.Length) {
	w, h := o.Width, o.Height
	if w <= 0 {
		w = 16 * vg.Centimeter
	}
	if h <= 0 {
		h = 10 * vg.Centimeter
	}
	return w, h
}

// xyErr joins points and their error distances for plotter.NewYErrorBars.
type xyErr struct {
	plotter.XYs
	plotter.YErrors
}

// New builds the plot. estimates are drawn with error bars, published
// values with distinct hollow markers. Every piece named in a series must
// appear in pieces.
func New(pieces []string, estimates, published []Series, opt Options) (*plot.Plot, error) {
	if len(pieces) == 0 {
		return nil, errors.New("valueplot: no pieces")
	}
	p := plot.New()
	p.Title.Text = opt.Title
	p.Y.Label.Text = cmp.Or(opt.YLabel, "value")
	p.X.Label.Text = cmp.Or(opt.XLabel, "piece")
	ticks := make([]plot.Tick, len(pieces))
	for i, name := range pieces {
		ticks[i] = plot.Tick{Value: float64(i), Label: name}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.5, float64(len(pieces))-0.5
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true

	total := len(estimates) + len(published)
	offset := func(k int) float64 {
		if total == 1 {
			return 0
		}
		return 0.6 * (float64(k)/float64(total-1) - 0.5)
	}
	for k, s := range slices.Concat(estimates, published) {
		xys, errs, err := layout(pieces, s, offset(k))
		if err != nil {
			return nil, err
		}
		if len(xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("valueplot: series %q: %w", s.Label, err)
		}
		sc.GlyphStyle = glyph(k, len(estimates))
		if k < len(estimates) {
			eb, err := plotter.NewYErrorBars(xyErr{xys, errs})
			if err != nil {
				return nil, fmt.Errorf("valueplot: series %q: %w", s.Label, err)
			}
			eb.LineStyle.Color = sc.GlyphStyle.Color
			eb.LineStyle.Width = vg.Points(1)
			eb.CapWidth = vg.Points(5)
			p.Add(eb)
		}
		p.Add(sc)
		p.Legend.Add(s.Label, sc)
	}
	// Piece values are compared as ratios, so show the origin, and leave
	// headroom for the legend and the top markers.
	p.Y.Min = math.Min(0, p.Y.Min)
	p.Y.Max += 0.08 * (p.Y.Max - p.Y.Min)
	return p, nil
}

// glyph returns the marker of series k of the plot: the nEst estimates
// come first, as filled circles in their own colours; the published
// values follow as hollow shapes, black once the shapes repeat.
func glyph(k, nEst int) draw.GlyphStyle {
	if k < nEst {
		return draw.GlyphStyle{Color: plotutil.Color(k), Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	}
	shapes := []draw.GlyphDrawer{draw.RingGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
	si := k - nEst
	g := draw.GlyphStyle{Color: plotutil.Color(k), Radius: vg.Points(4), Shape: shapes[si%len(shapes)]}
	if si >= len(shapes) {
		g.Color = color.Black
	}
	return g
}

// layout places a series' points at their piece positions plus dx and
// returns the error distances below and above each value.
func layout(pieces []string, s Series, dx float64) (plotter.XYs, plotter.YErrors, error) {
	var xys plotter.XYs
	var errs plotter.YErrors
	for _, pt := range s.Points {
		i := slices.Index(pieces, pt.Piece)
		if i < 0 {
			return nil, nil, fmt.Errorf("valueplot: series %q: piece %q is not on the axis", s.Label, pt.Piece)
		}
		if math.IsNaN(pt.Value) || math.IsInf(pt.Value, 0) {
			continue
		}
		lo, hi := pt.Value-pt.Lo, pt.Hi-pt.Value
		if !(lo >= 0) || math.IsInf(lo, 0) {
			lo = 0
		}
		if !(hi >= 0) || math.IsInf(hi, 0) {
			hi = 0
		}
		xys = append(xys, plotter.XY{X: float64(i) + dx, Y: pt.Value})
		errs = append(errs, struct{ Low, High float64 }{lo, hi})
	}
	return xys, errs, nil
}

// Save renders the plot to path in the format given by its extension
// (.png, .svg, .pdf, .eps, .jpg, .tif, .tex). The file is written to a
// temporary file in the same directory and renamed into place, so readers
// never see a partial file.
func Save(p *plot.Plot, width, height vg.Length, path string) error {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	wt, err := p.WriterTo(width, height, format)
	if err != nil {
		return fmt.Errorf("valueplot: %s: %w", path, err)
	}
	return fsx.Write(path, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}

// WriteFiles builds the plot (see New) and saves it as base+".png" and
// base+".svg", returning the two paths.
func WriteFiles(base string, pieces []string, estimates, published []Series, opt Options) (pngPath, svgPath string, err error) {
	p, err := New(pieces, estimates, published, opt)
	if err != nil {
		return "", "", err
	}
	w, h := opt.size()
	pngPath, svgPath = base+".png", base+".svg"
	if err := Save(p, w, h, pngPath); err != nil {
		return "", "", err
	}
	if err := Save(p, w, h, svgPath); err != nil {
		return "", "", err
	}
	return pngPath, svgPath, nil
}
