package values

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"tamerlane/internal/stats"
	"tamerlane/selfplay"
	"tamerlane/tune"
	"tamerlane/values/imbalance"
	"tamerlane/values/published"
)

// Scales returns the normalisations reported for a variant: first the
// one its published values use (Rook = 5 for Tamerlane II, as Zillions
// publishes them; Pawn = 1 where nothing is published in a standard
// scale), then Pawn = 1 and Knight = 1.
func Scales(cat published.Catalog, variant string) []published.Scale {
	return append([]published.Scale{PrimaryScale(cat, variant)}, otherScales(PrimaryScale(cat, variant))...)
}

// PrimaryScale is the scale a variant's values are cited in: its published
// table's cited_scale when it names one, else the scale of its published
// values when it is one of Pawn = 1, Knight = 1 or Rook = 5, else Pawn = 1.
// Values tables and plots show estimates in it, beside the published
// figures.
func PrimaryScale(cat published.Catalog, variant string) published.Scale {
	if t := cat[variant]; t != nil {
		if t.CitedScale != "" {
			return t.CitedScale
		}
		for _, e := range t.Entries {
			if e.HasValue && slices.Contains(standardScales, e.Scale) {
				return e.Scale
			}
		}
	}
	return published.PawnOne
}

// standardScales are the normalisations values tables may use.
var standardScales = []published.Scale{published.PawnOne, published.KnightOne, published.RookFive}

func otherScales(primary published.Scale) []published.Scale {
	var out []published.Scale
	for _, s := range standardScales[:2] {
		if s != primary {
			out = append(out, s)
		}
	}
	return out
}

// ImbalanceFit is the second, independent estimate of piece values: a
// logistic regression of imbalance-match scores on material difference.
type ImbalanceFit struct {
	Variant   string              `json:"variant"`
	Reference string              `json:"reference"`
	Matches   []ImbalanceMatch    `json:"matches"`
	Estimates []ImbalanceEstimate `json:"estimates,omitempty"`
	// Error says why no estimate could be made (too few imbalances).
	Error string `json:"error,omitempty"`
}

// ImbalanceEstimate is one piece's value relative to the reference (= 1).
type ImbalanceEstimate struct {
	Piece string      `json:"piece"`
	Value stats.Float `json:"value"`
	SE    stats.Float `json:"se"`
}

// FitImbalances fits piece values per variant from the imbalance matches
// of a tuning's data (tune.Report.Data): of its self-play run directories
// (CollectImbalances, the collector of the values document; positions
// files and other directories hold no match) with the fit of the document
// and the planner (fitClasses), held by tunedRidge. Pieces are relative
// to the Pawn when a Pawn is among them, else to the Knight, else to the
// first piece. A data path that no longer exists is an error.
func FitImbalances(data []string) ([]ImbalanceFit, error) {
	var dirs []string
	for _, d := range data {
		if _, err := os.Stat(d); err != nil {
			return nil, fmt.Errorf("imbalance matches: %w", err)
		}
		if _, err := os.Stat(filepath.Join(d, selfplay.RunInfoName)); err == nil {
			dirs = append(dirs, d)
		}
	}
	imbs, _, err := CollectImbalances(dirs)
	if err != nil {
		return nil, err
	}
	var out []ImbalanceFit
	for _, name := range slices.Sorted(maps.Keys(imbs)) {
		f := ImbalanceFit{Variant: name}
		for _, m := range imbs[name] {
			f.Matches = append(f.Matches, *m)
		}
		f.fit()
		out = append(out, f)
	}
	return out, nil
}

// tunedRidge is the ridge of the imbalance column of the tuned values
// tables: a prior of standard deviation 10 on each logit, which keeps a
// whitewashed match finite where the few pairs of a pipeline's imbalance
// matches would leave it unbounded.
const tunedRidge = 0.01

func (f *ImbalanceFit) fit() {
	seen := map[string]bool{}
	var pieces []string
	for _, m := range f.Matches {
		for _, p := range imbalance.PiecesOf(m.FirstRemoves, m.SecondRemoves) {
			if !seen[p] {
				seen[p] = true
				pieces = append(pieces, p)
			}
		}
	}
	sort.Strings(pieces)
	switch {
	case seen["P"]:
		f.Reference = "P"
	case seen["N"]:
		f.Reference = "N"
	case len(pieces) > 0:
		f.Reference = pieces[0]
	}
	played := make([]*ImbalanceMatch, len(f.Matches))
	for i := range f.Matches {
		played[i] = &f.Matches[i]
	}
	// Every piece, the reference included, has its own logistic
	// coefficient: n pieces need n independent imbalances (e.g. pawn odds
	// beside pieces against pawns).
	if len(played) < len(pieces) || len(pieces) == 0 {
		f.Error = fmt.Sprintf("%d imbalances cannot identify the logistic values of %d pieces (%v); add e.g. a pawn-odds match", len(played), len(pieces), pieces)
		return
	}
	res, _, err := fitClasses(pieces, played, imbalance.Options{Reference: f.Reference, Ridge: tunedRidge})
	if err != nil {
		f.Error = err.Error()
		return
	}
	// As the values document reports it: matches that disagree, and
	// pairs whose games correlate, widen the intervals.
	res = ReportedImbalance(res, PairCorrelationOf(played))
	for _, e := range res.Estimates {
		f.Estimates = append(f.Estimates, ImbalanceEstimate{Piece: e.Piece, Value: stats.Float(e.Value), SE: stats.Float(e.SE)})
	}
}

// inScale converts an imbalance estimate to a scale when the fit's
// reference piece is the scale's reference, or when both the estimate's
// and the scale's references are in the fit (ratio of estimates, without
// an interval for the conversion itself).
func (f *ImbalanceFit) inScale(piece string, scale published.Scale) (stats.Interval, bool) {
	ref, refValue, err := scale.Parse()
	if err != nil || f == nil {
		return stats.Interval{}, false
	}
	var e, r *ImbalanceEstimate
	for i := range f.Estimates {
		if f.Estimates[i].Piece == piece {
			e = &f.Estimates[i]
		}
		if f.Estimates[i].Piece == ref {
			r = &f.Estimates[i]
		}
	}
	if e == nil || r == nil || r.Value == 0 {
		return stats.Interval{}, false
	}
	k := refValue / float64(r.Value)
	return stats.NewInterval(k*float64(e.Value), k*float64(e.SE)), true
}

// ValueRow is one line of a values table: a piece's estimates in one scale
// beside its published value.
type ValueRow struct {
	Variant   string          `json:"variant"`
	Scale     string          `json:"scale"`
	Piece     string          `json:"piece"`
	Name      string          `json:"name"`
	Texel     *stats.Interval `json:"texel,omitempty"`
	Imbalance *stats.Interval `json:"imbalance,omitempty"`
	Published *stats.Float    `json:"published,omitempty"`
	Source    string          `json:"source,omitempty"`
	Kind      string          `json:"source_kind,omitempty"`
	// Ratio is the Texel estimate divided by the published value.
	Ratio *stats.Float `json:"ratio,omitempty"`
}

// ValueRows builds the values table of one variant in every scale.
func ValueRows(f *tune.VariantFit, imb *ImbalanceFit, cat published.Catalog) []ValueRow {
	var rows []ValueRow
	for _, scale := range Scales(cat, f.Variant) {
		ref, refValue, err := scale.Parse()
		if err != nil || !f.HasReference(ref) {
			continue
		}
		for _, pv := range f.Pieces {
			row := ValueRow{Variant: f.Variant, Scale: string(scale), Piece: pv.Piece, Name: pv.Name}
			if iv, err := f.Ratio(pv, ref, refValue); err == nil {
				row.Texel = &iv
			}
			if iv, ok := imb.inScale(pv.Piece, scale); ok {
				row.Imbalance = &iv
			}
			if val, src, ok := cat.Value(f.Variant, pv.Piece, scale); ok {
				x := stats.Float(val)
				row.Published, row.Source, row.Kind = &x, src.Citation, string(src.Kind)
				if row.Texel != nil && val != 0 {
					r := row.Texel.Value / x
					row.Ratio = &r
				}
			}
			rows = append(rows, row)
		}
	}
	return rows
}
