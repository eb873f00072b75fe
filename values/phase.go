package values

import (
	"fmt"
	"math"
	"strings"

	"tamerlane/internal/stats"
	"tamerlane/tune/valueplot"
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
	// difference of c in that band).
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
}

// setImbalanceZ sets the bands' agreement with the imbalance value imb.
func setImbalanceZ(bands []PhaseValue, imb *stats.Interval) {
	for k := range bands {
		bands[k].ImbalanceZ = agreementZ(bands[k].Value, imb)
	}
}

// phaseAgreement describes, for a piece whose two methods disagree
// pooled, in which phase bands the regression agrees with the imbalance
// value ("" when they agree pooled or no band has both).
func phaseAgreement(p *PieceValues) string {
	if !p.Disagree || p.AgreementZ == nil {
		return ""
	}
	var agree, not []string
	for _, x := range p.ByPhase {
		if x.ImbalanceZ == nil {
			continue
		}
		cell := fmt.Sprintf("%s (z %+.2f)", x.Band, *x.ImbalanceZ)
		if math.Abs(*x.ImbalanceZ) > stats.Z95 {
			not = append(not, cell)
		} else {
			agree = append(agree, cell)
		}
	}
	if len(agree)+len(not) == 0 {
		return ""
	}
	out := fmt.Sprintf("%s: the methods disagree pooled (z %+.2f); the imbalance value agrees with the regression by phase ", p.Piece, *p.AgreementZ)
	if len(agree) == 0 {
		out += "in no band"
	} else {
		out += "at " + strings.Join(agree, ", ")
	}
	if len(not) > 0 {
		out += " and not at " + strings.Join(not, ", ")
	}
	return out + "."
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
	b.WriteString("\nRegression by phase (pawns; phase = non-pawn material left, 1 at the start; z: the band value against the imbalance value, both in P=1):\n\n| piece |")
	for _, x := range bands {
		fmt.Fprintf(b, " phase %s |", x)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(bands)) + "\n")
	for _, p := range v.Pieces {
		if len(p.ByPhase) == 0 {
			continue
		}
		cells := []string{p.Piece}
		for _, x := range p.ByPhase {
			cell := FormatInterval(x.Value)
			if x.ImbalanceZ != nil {
				cell += fmt.Sprintf(" (z %+.2f)", *x.ImbalanceZ)
			}
			cells = append(cells, cell)
		}
		fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
	}
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
