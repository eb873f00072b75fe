package tune

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"tamerlane/engine"
	"tamerlane/internal/stats"
	"tamerlane/selfplay"
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

// PrimaryScale is the scale of a variant's published values when it is
// one of Pawn = 1, Knight = 1 or Rook = 5, else Pawn = 1: values tables
// and plots show estimates in it, beside the published figures.
func PrimaryScale(cat published.Catalog, variant string) published.Scale {
	if t := cat[variant]; t != nil {
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

// reference returns the weight combination of a scale's reference piece:
// the Pawn (the mean of all pawn types in variants with several), the
// Knight or the Rook.
func (f *VariantFit) reference(scale published.Scale) (map[int]float64, float64, error) {
	piece, value, err := scale.Parse()
	if err != nil {
		return nil, 0, err
	}
	v := engine.MustVariant(f.Variant, nil)
	var refs []PieceValue
	for _, pv := range f.Pieces {
		t, _ := v.PieceByToken(pv.Piece)
		if pv.Piece == piece || (piece == "P" && v.Def(t).Pawn) {
			refs = append(refs, pv)
		}
	}
	if len(refs) == 0 {
		return nil, 0, fmt.Errorf("variant %s has no %s", f.Variant, piece)
	}
	coef := map[int]float64{}
	for _, r := range refs {
		rc := r.coef
		if rc == nil {
			rc = f.coefOf(r.Piece)
		}
		for i, c := range rc {
			coef[i] += c / float64(len(refs))
		}
	}
	return coef, value, nil
}

// Ratio returns the value of pv in the given scale with its 95% interval by
// the delta method.
func (f *VariantFit) Ratio(pv PieceValue, scale published.Scale) (stats.Interval, error) {
	ref, refValue, err := f.reference(scale)
	if err != nil {
		return stats.Interval{}, err
	}
	if pv.coef == nil {
		pv.coef = f.coefOf(pv.Piece)
	}
	a, b := f.dot(pv.coef), f.dot(ref)
	va, vb, cab := f.variance(pv.coef, pv.coef), f.variance(ref, ref), f.variance(pv.coef, ref)
	r := a / b
	vr := r * r * (va/(a*a) + vb/(b*b) - 2*cab/(a*b))
	if a == 0 {
		vr = va / (b * b)
	}
	if vr < 0 {
		vr = 0
	}
	return stats.NewInterval(refValue*r, refValue*math.Sqrt(vr)), nil
}

func (f *VariantFit) coefOf(piece string) map[int]float64 {
	v := engine.MustVariant(f.Variant, nil)
	t, ok := v.PieceByToken(piece)
	if !ok {
		return nil
	}
	for i, w := range f.Weights {
		if w.Name == "material."+v.Def(t).Token+".mg" {
			return map[int]float64{i: 0.5, i + 1: 0.5}
		}
	}
	return nil
}

func (f *VariantFit) dot(c map[int]float64) float64 {
	var s float64
	for _, i := range slices.Sorted(maps.Keys(c)) {
		s += c[i] * float64(f.Weights[i].Value)
	}
	return s
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

// ImbalanceMatch is the result of an imbalance match (one stream, or the
// sum of a planned match's rounds): the first side lacks FirstRemoves,
// the second SecondRemoves; Wins, Draws and Losses are the first side's.
type ImbalanceMatch struct {
	Name          string   `json:"name"`
	FirstRemoves  []string `json:"first_removes"`
	SecondRemoves []string `json:"second_removes"`
	Pairs         int      `json:"pairs"`
	Wins          int      `json:"wins"`
	Draws         int      `json:"draws"`
	Losses        int      `json:"losses"`
	// Resigned counts the games that resign adjudication ended
	// (selfplay.AdjudicationConfig): results our engine's scores decided.
	Resigned int `json:"resigned,omitempty"`
	// Pentanomial counts the pairs by the first side's points over the
	// pair (0, ½, 1, 1½, 2), as selfplay's summaries do; nil when some
	// of the games were read without their pairs (a run in progress).
	Pentanomial []int `json:"pentanomial,omitempty"`
}

// Games returns the number of games played.
func (m *ImbalanceMatch) Games() int { return m.Wins + m.Draws + m.Losses }

// Add adds the pairs and results of another round of the same match.
// The sum has a pentanomial only when both have one (or the match had
// no game yet).
func (m *ImbalanceMatch) Add(o ImbalanceMatch) {
	switch {
	case m.Games() == 0 && m.Pentanomial == nil:
		m.Pentanomial = slices.Clone(o.Pentanomial)
	case m.Pentanomial == nil || o.Pentanomial == nil:
		m.Pentanomial = nil
	default:
		for i := range m.Pentanomial {
			m.Pentanomial[i] += o.Pentanomial[i]
		}
	}
	m.Pairs += o.Pairs
	m.Wins += o.Wins
	m.Draws += o.Draws
	m.Losses += o.Losses
	m.Resigned += o.Resigned
}

// Fitted returns the match as the imbalance fit reads it: the material
// difference over pieces (what the second side lacks counts for the first).
func (m *ImbalanceMatch) Fitted(pieces []string) (imbalance.Match, error) {
	d, err := imbalance.DiffFromRemoved(pieces, m.FirstRemoves, m.SecondRemoves)
	if err != nil {
		return imbalance.Match{}, err
	}
	return imbalance.Match{Name: m.Name, Diff: d, Wins: float64(m.Wins), Draws: float64(m.Draws), Losses: float64(m.Losses)}, nil
}

// ImbalanceEstimate is one piece's value relative to the reference (= 1).
type ImbalanceEstimate struct {
	Piece string `json:"piece"`
	Value Float  `json:"value"`
	SE    Float  `json:"se"`
}

// FitImbalances fits piece values per variant from the imbalance streams of
// the run directories' summaries. Pieces are relative to the Pawn when a
// Pawn is among them, else to the Knight, else to the first piece.
func FitImbalances(dirs []string) ([]ImbalanceFit, error) {
	byVariant := map[string]*ImbalanceFit{}
	var order []string
	for _, dir := range dirs {
		sum, err := selfplay.ReadSummary(dir + "/summary.json")
		if err != nil {
			continue
		}
		for _, s := range sum.Streams {
			if s.Kind != "imbalance" {
				continue
			}
			f := byVariant[s.Variant]
			if f == nil {
				f = &ImbalanceFit{Variant: s.Variant}
				byVariant[s.Variant] = f
				order = append(order, s.Variant)
			}
			f.Matches = append(f.Matches, ImbalanceMatch{Name: s.Name, FirstRemoves: s.FirstRemoves, SecondRemoves: s.SecondRemoves,
				Pairs: s.Pairs, Wins: s.FirstPlayer.Wins, Draws: s.FirstPlayer.Draws, Losses: s.FirstPlayer.Losses})
		}
	}
	sort.Strings(order)
	var out []ImbalanceFit
	for _, name := range order {
		f := byVariant[name]
		f.fit()
		out = append(out, *f)
	}
	return out, nil
}

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
	var ms []imbalance.Match
	for _, m := range f.Matches {
		fm, err := m.Fitted(pieces)
		if err != nil {
			f.Error = err.Error()
			return
		}
		ms = append(ms, fm)
	}
	// Every piece, the reference included, has its own logistic
	// coefficient: n pieces need n independent imbalances (e.g. pawn odds
	// beside pieces against pawns).
	if len(ms) < len(pieces) || len(pieces) == 0 {
		f.Error = fmt.Sprintf("%d imbalances cannot identify the logistic values of %d pieces (%v); add e.g. a pawn-odds match", len(ms), len(pieces), pieces)
		return
	}
	res, err := imbalance.Fit(pieces, ms, imbalance.Options{Reference: f.Reference, Ridge: 0.01})
	if err != nil {
		f.Error = err.Error()
		return
	}
	played := make([]*ImbalanceMatch, len(f.Matches))
	for i := range f.Matches {
		played[i] = &f.Matches[i]
	}
	// As the values document reports it: matches that disagree, and
	// pairs whose games correlate, widen the intervals.
	res = ReportedImbalance(res, PairCorrelationOf(played))
	for _, e := range res.Estimates {
		f.Estimates = append(f.Estimates, ImbalanceEstimate{Piece: e.Piece, Value: Float(e.Value), SE: Float(e.SE)})
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
	Published *Float          `json:"published,omitempty"`
	Source    string          `json:"source,omitempty"`
	Kind      string          `json:"source_kind,omitempty"`
	// Ratio is the Texel estimate divided by the published value.
	Ratio *Float `json:"ratio,omitempty"`
}

// ValueRows builds the values table of one variant in every scale.
func ValueRows(f *VariantFit, imb *ImbalanceFit, cat published.Catalog) []ValueRow {
	var rows []ValueRow
	for _, scale := range Scales(cat, f.Variant) {
		if _, _, err := f.reference(scale); err != nil {
			continue
		}
		for _, pv := range f.Pieces {
			row := ValueRow{Variant: f.Variant, Scale: string(scale), Piece: pv.Piece, Name: pv.Name}
			if iv, err := f.Ratio(pv, scale); err == nil {
				row.Texel = &iv
			}
			if iv, ok := imb.inScale(pv.Piece, scale); ok {
				row.Imbalance = &iv
			}
			if val, src, ok := cat.Value(f.Variant, pv.Piece, scale); ok {
				x := Float(val)
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
