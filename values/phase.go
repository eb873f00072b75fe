package values

import (
	"fmt"
	"math"
	"strings"

	"tamerlane/internal/stats"
	"tamerlane/values/published"
	"tamerlane/values/valueplot"
)

// Band is a range of the phase φ (the non-pawn material left, 1 at the
// start): Lo <= φ < Hi, and φ = 1 belongs to the band with Hi = 1.
type Band struct {
	Lo float64 `json:"phase_lo"`
	Hi float64 `json:"phase_hi"`
}

// contains reports whether φ is in the band.
func (b Band) contains(phase float64) bool {
	return phase >= b.Lo && (phase < b.Hi || (b.Hi == 1 && phase == 1))
}

// String prints the band as "0.25-0.50".
func (b Band) String() string { return fmt.Sprintf("%.2f-%.2f", b.Lo, b.Hi) }

// PhaseBands returns the bands of the by-phase regression: quarters of the
// non-pawn material, the first of them the endgame.
func PhaseBands() []Band {
	return []Band{{0, 0.25}, {0.25, 0.5}, {0.5, 0.75}, {0.75, 1}}
}

// PhaseRegression is the regression with one value per class and phase
// band: the model of the package documentation with Σ_j v_j·d_j replaced
// by Σ_j v_j(band(φ))·d_j. The pawn stays the unit in every band (its
// change with the phase is the scale γ0 + γ1·φ), so v_j(b) is what a
// piece of class j is worth in pawns while the phase is in band b.
type PhaseRegression struct {
	// Bands are the phase bands; Values[c][b] is class c's value in band
	// b (unknown when Identified[c][b] is false: too few games with a
	// difference of c in that band, or differences that separate the
	// results there, Regression.Separated).
	Bands      []Band
	Values     [][]stats.Interval
	Identified [][]bool
	// Fit is the underlying regression on the expanded classes.
	Fit *Regression
}

// FitByPhase fits the by-phase regression of the samples of one variant
// (names[0] = "P"). It is FitRegression on expanded classes "X@band", so
// its estimation, clustering and identification rules are the same.
func FitByPhase(names []string, samples []Sample, bands []Band, opt RegressionOptions) (*PhaseRegression, error) {
	ext := []string{"P"}
	for _, n := range names[1:] {
		for _, b := range bands {
			ext = append(ext, n+"@"+b.String())
		}
	}
	nb := len(bands)
	exp := make([]Sample, len(samples))
	for i, s := range samples {
		if len(s.Diff) != len(names) {
			return nil, fmt.Errorf("values: sample %d has %d classes, want %d", i, len(s.Diff), len(names))
		}
		band := -1
		for k, b := range bands {
			if b.contains(s.Phase) {
				band = k
				break
			}
		}
		if band < 0 {
			return nil, fmt.Errorf("values: sample %d: phase %g is in no band", i, s.Phase)
		}
		d := make([]float64, len(ext))
		d[0] = s.Diff[0]
		for c := 1; c < len(names); c++ {
			d[1+(c-1)*nb+band] = s.Diff[c]
		}
		exp[i] = s
		exp[i].Diff = d
	}
	opt.Start = nil
	fit, err := FitRegression(ext, exp, opt)
	if err != nil {
		return nil, err
	}
	r := &PhaseRegression{Bands: bands, Fit: fit,
		Values: make([][]stats.Interval, len(names)), Identified: make([][]bool, len(names))}
	for c := range names {
		r.Values[c] = make([]stats.Interval, nb)
		r.Identified[c] = make([]bool, nb)
		for b := range nb {
			k := 0
			if c > 0 {
				k = 1 + (c-1)*nb + b
			}
			r.Values[c][b], r.Identified[c][b] = fit.Values[k], fit.Identified[k]
		}
	}
	return r, nil
}

// PhaseValue is a piece's by-phase regression value in one band (null:
// not identified in that band).
type PhaseValue struct {
	Band
	Value *stats.Interval `json:"value"`
	// ImbalanceZ is the band value's agreement with the piece's imbalance
	// value, (band − imbalance)/√(SE_band² + SE_imbalance²), both in P=1
	// (null without both). A piece whose pooled values disagree may agree
	// with the regression of the stage of the game the matches play
	// (they start from the full array).
	ImbalanceZ *float64 `json:"imbalance_z"`
	// Knights is the band value relative to the knight's in the same band
	// (N=1; delta-method interval from the fit's covariance), a unit that
	// does not depend on which pawn each method counts; KnightsImbalanceZ
	// is its agreement with the imbalance value in N=1. Absent for the
	// knight and pawn, and in variants without a knight.
	Knights           *stats.Interval `json:"knights,omitempty"`
	KnightsImbalanceZ *float64        `json:"knights_imbalance_z,omitempty"`
}

// setImbalanceZ sets the bands' agreement with the imbalance value imb
// (P=1) and with imbN, the imbalance value relative to the knight.
func setImbalanceZ(bands []PhaseValue, imb, imbN *stats.Interval) {
	for k := range bands {
		bands[k].ImbalanceZ = agreementZ(bands[k].Value, imb)
		bands[k].KnightsImbalanceZ = agreementZ(bands[k].Knights, imbN)
	}
}

// knights returns class c's value in band b relative to class ref's in
// the same band, with its delta-method interval (nil unless both are
// identified).
func (r *PhaseRegression) knights(c, ref, b int) *stats.Interval {
	if !r.Identified[c][b] || !r.Identified[ref][b] {
		return nil
	}
	nb := len(r.Bands)
	i, j := 1+(c-1)*nb+b, 1+(ref-1)*nb+b
	f := r.Fit
	return ratio(1, float64(f.Values[i].Value), float64(f.Values[j].Value), f.cov(i, i), f.cov(j, j), f.cov(i, j))
}

// phaseAgreement describes, for a piece whose two methods disagree
// pooled (in pawns or relative to the knight), in which phase bands the
// regression agrees with the imbalance value, in both units ("" when they
// agree pooled or no band has both).
func phaseAgreement(p *PieceValues) string {
	var pooledN *float64
	if n := p.scaled(published.KnightOne); n != nil {
		pooledN = n.AgreementZ
	}
	disagree := func(z *float64) bool { return z != nil && math.Abs(*z) > stats.Z95 }
	if !disagree(p.AgreementZ) && !disagree(pooledN) {
		return ""
	}
	bands := func(z func(PhaseValue) *float64) string {
		var agree, not []string
		for _, x := range p.ByPhase {
			if z(x) == nil {
				continue
			}
			cell := fmt.Sprintf("%s (z %+.2f)", x.Band, *z(x))
			if disagree(z(x)) {
				not = append(not, cell)
			} else {
				agree = append(agree, cell)
			}
		}
		if len(agree)+len(not) == 0 {
			return ""
		}
		if len(agree) == 0 {
			return "in no band (" + strings.Join(not, ", ") + ")"
		}
		out := "at " + strings.Join(agree, ", ")
		if len(not) > 0 {
			out += " and not at " + strings.Join(not, ", ")
		}
		return out
	}
	inP := bands(func(x PhaseValue) *float64 { return x.ImbalanceZ })
	inN := bands(func(x PhaseValue) *float64 { return x.KnightsImbalanceZ })
	if inP == "" && inN == "" {
		return ""
	}
	out := fmt.Sprintf("%s: pooled, the methods %s in pawns", p.Piece, zWords(p.AgreementZ))
	if pooledN != nil {
		out += fmt.Sprintf(" and %s relative to the knight", zWords(pooledN))
	}
	out += "; by phase the imbalance value agrees with the regression"
	if inP != "" {
		out += " in pawns " + inP
	}
	if inN != "" {
		if inP != "" {
			out += ";"
		}
		out += " relative to the knight " + inN
	}
	return out + "."
}

// zWords says whether an agreement z is a disagreement at 95%.
func zWords(z *float64) string {
	if z == nil {
		return "cannot be compared"
	}
	if math.Abs(*z) > stats.Z95 {
		return fmt.Sprintf("disagree (z %+.2f)", *z)
	}
	return fmt.Sprintf("agree (z %+.2f)", *z)
}

// phaseValues returns class c's row of the by-phase fit.
func (r *PhaseRegression) phaseValues(c int) []PhaseValue {
	out := make([]PhaseValue, len(r.Bands))
	for b, band := range r.Bands {
		out[b].Band = band
		if r.Identified[c][b] {
			iv := r.Values[c][b]
			out[b].Value = &iv
		}
	}
	return out
}

// phaseMarkdown renders the by-phase values of a variant as a table.
func phaseMarkdown(b *strings.Builder, v *VariantValues) {
	var bands []Band
	for _, p := range v.Pieces {
		if len(p.ByPhase) > 0 {
			for _, x := range p.ByPhase {
				bands = append(bands, x.Band)
			}
			break
		}
	}
	if len(bands) == 0 {
		return
	}
	phaseTable(b, "Regression by phase (pawns; phase = non-pawn material left, 1 at the start; z: the band value against the imbalance value, both in P=1)",
		bands, v.Pieces, func(x PhaseValue) (*stats.Interval, *float64) { return x.Value, x.ImbalanceZ }, true)
	phaseTable(b, "Regression by phase relative to the knight in the same band (N=1; z: against the imbalance value in N=1)",
		bands, v.Pieces, func(x PhaseValue) (*stats.Interval, *float64) { return x.Knights, x.KnightsImbalanceZ }, false)
	var notes []string
	for k := range v.Pieces {
		if s := phaseAgreement(&v.Pieces[k]); s != "" {
			notes = append(notes, "- "+s)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
}

// phaseTable renders one by-phase table: a row per piece with band
// values (every piece with bands when all is set, else only those with
// at least one value; no table without a row), each cell the value of get
// and its z against the imbalance value.
func phaseTable(b *strings.Builder, title string, bands []Band, pieces []PieceValues, get func(PhaseValue) (*stats.Interval, *float64), all bool) {
	var rows []string
	for _, p := range pieces {
		cells := []string{p.Piece}
		some := false
		for _, x := range p.ByPhase {
			iv, z := get(x)
			cell := FormatInterval(iv)
			if z != nil {
				cell += fmt.Sprintf(" (z %+.2f)", *z)
			}
			cells = append(cells, cell)
			some = some || iv != nil
		}
		if len(p.ByPhase) > 0 && (all || some) {
			rows = append(rows, "| "+strings.Join(cells, " | ")+" |\n")
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s:\n\n| piece |", title)
	for _, x := range bands {
		fmt.Fprintf(b, " phase %s |", x)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(bands)) + "\n" + strings.Join(rows, ""))
}

// phaseSeries returns one plot series per phase band with the by-phase
// values of the variant's pieces (none without by-phase values).
func phaseSeries(v *VariantValues) []valueplot.Series {
	var out []valueplot.Series
	for _, p := range v.Pieces {
		for b, x := range p.ByPhase {
			if b == len(out) {
				out = append(out, valueplot.Series{Label: "phase " + x.Band.String()})
			}
			if x.Value != nil {
				out[b].Points = append(out[b].Points, plotPoint(p.Piece, x.Value))
			}
		}
	}
	return out
}
