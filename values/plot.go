package values

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"tamerlane/internal/stats"
	"tamerlane/values/published"
	"tamerlane/values/valueplot"
)

// plotPoint is an estimate as a point of the plot.
func plotPoint(piece string, r *stats.Interval) valueplot.Point {
	return valueplot.Point{Piece: piece, Value: float64(r.Value), Lo: float64(r.Lo), Hi: float64(r.Hi)}
}

// Plot writes one plot per variant, "values-<variant>.png/.svg", with
// every estimate in pawns, its interval and every published figure; one
// per other scale of the document ("values-<variant>-R5" for R=5: the
// variant's published scale, and N=1), where the published figures are
// each source's own ratios to the scale's piece; and one of the
// regression's values by phase ("values-<variant>-phase").
func (d *Document) Plot(dir string) ([]string, error) {
	var files []string
	write := func(name, title, ylabel string, pieces []string, est, pub []valueplot.Series) error {
		png, svg, err := valueplot.WriteFiles(filepath.Join(dir, name), pieces, est, pub, valueplot.Options{Title: title, YLabel: ylabel})
		if err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
		files = append(files, png, svg)
		return nil
	}
	for _, v := range d.Variants {
		var pieces []string
		for _, p := range v.Pieces {
			if p.Piece != "P" {
				pieces = append(pieces, p.Piece)
			}
		}
		if len(pieces) == 0 {
			continue
		}
		pawns := func(p *PieceValues) (*stats.Interval, *stats.Interval) { return p.Regression, p.Imbalance }
		pub := publishedSeries(&v, func(_ string, x float64) (float64, bool) { return x, true })
		if err := write("values-"+v.Variant, v.Variant+": piece values, 95% intervals", "pawns (P=1)", pieces, estimateSeries(&v, pawns), pub); err != nil {
			return nil, err
		}
		for _, sc := range v.scales() {
			sp, sv, err := published.Scale(sc).Parse()
			if err != nil {
				return nil, err
			}
			in := func(p *PieceValues) (*stats.Interval, *stats.Interval) {
				if x := p.scaled(published.Scale(sc)); x != nil {
					return x.Regression, x.Imbalance
				}
				return nil, nil
			}
			est := estimateSeries(&v, in)
			if len(est[0].Points)+len(est[1].Points) == 0 {
				continue
			}
			ref := v.publishedOf(sp)
			conv := func(source string, x float64) (float64, bool) {
				r, ok := ref[source]
				return x * sv / r, ok && r > 0
			}
			name := "values-" + v.Variant + "-" + strings.ReplaceAll(sc, "=", "")
			if err := write(name, v.Variant+": piece values in "+sc+", 95% intervals", sc, pieces, est, publishedSeries(&v, conv)); err != nil {
				return nil, err
			}
		}
		if bands := phaseSeries(&v); len(bands) > 0 {
			title := v.Variant + ": regression values by phase (non-pawn material left), 95% intervals"
			if err := write("values-"+v.Variant+"-phase", title, "pawns (P=1)", pieces, bands, pub); err != nil {
				return nil, err
			}
		}
	}
	return files, nil
}

// estimateSeries returns the two estimates of every piece but the pawn,
// as pick gives them (regression first), as the plot's two series.
func estimateSeries(v *VariantValues, pick func(*PieceValues) (reg, imb *stats.Interval)) []valueplot.Series {
	reg := valueplot.Series{Label: "regression (prior-free)"}
	imb := valueplot.Series{Label: "imbalance matches"}
	for k := range v.Pieces {
		p := &v.Pieces[k]
		if p.Piece == "P" {
			continue
		}
		r, i := pick(p)
		if r != nil {
			reg.Points = append(reg.Points, plotPoint(p.Piece, r))
		}
		if i != nil {
			imb.Points = append(imb.Points, plotPoint(p.Piece, i))
		}
	}
	return []valueplot.Series{reg, imb}
}

// publishedSeries returns one series per published source, in the order
// the sources first appear, with one point per piece but the pawn (its
// first value from that source): the value (P=1) as conv turns it,
// left out where conv cannot.
func publishedSeries(v *VariantValues, conv func(source string, value float64) (float64, bool)) []valueplot.Series {
	set := newSeriesSet()
	for _, p := range v.Pieces {
		if p.Piece == "P" {
			continue
		}
		for _, x := range p.Published {
			if y, ok := conv(x.Source, x.Value); ok {
				set.add(x.Source+" ("+x.Kind+")", p.Piece, y)
			}
		}
	}
	return set.series
}

// seriesSet collects figures without intervals into one series per
// label, in the order the labels first appear, one point per piece (the
// first given).
type seriesSet struct {
	series []valueplot.Series
	index  map[string]int
}

func newSeriesSet() *seriesSet { return &seriesSet{index: map[string]int{}} }

// add adds the figure y of piece to the series label.
func (s *seriesSet) add(label, piece string, y float64) {
	i, ok := s.index[label]
	if !ok {
		i = len(s.series)
		s.index[label] = i
		s.series = append(s.series, valueplot.Series{Label: label})
	}
	if slices.ContainsFunc(s.series[i].Points, func(q valueplot.Point) bool { return q.Piece == piece }) {
		return
	}
	s.series[i].Points = append(s.series[i].Points, valueplot.Point{Piece: piece, Value: y, Lo: math.NaN(), Hi: math.NaN()})
}

// scales returns the scales of the pieces' Scaled values, in the order
// they first appear.
func (v *VariantValues) scales() []string {
	var out []string
	for _, p := range v.Pieces {
		for _, x := range p.Scaled {
			if !slices.Contains(out, x.Scale) {
				out = append(out, x.Scale)
			}
		}
	}
	return out
}

// publishedOf returns each source's first published value (P=1) of piece.
func (v *VariantValues) publishedOf(piece string) map[string]float64 {
	out := map[string]float64{}
	for _, p := range v.Pieces {
		if p.Piece != piece {
			continue
		}
		for _, x := range p.Published {
			if _, ok := out[x.Source]; !ok {
				out[x.Source] = x.Value
			}
		}
	}
	return out
}
