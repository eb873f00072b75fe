package values

import (
	"fmt"
	"math"
	"strings"

	"tamerlane/internal/stats"
)

// Disagreements sum up one family of a variant's agreement tests: the
// per-piece z of one comparison. A variant compares many pieces, and
// each flag is a test at 95%, so some flags come by chance alone; the
// family says how many to expect, and which disagreements survive Holm's
// correction (stats.Holm) at a family-wise 5%.
type Disagreements struct {
	// Comparison names the family: "P=1" (agreement_z), "bridged"
	// (bridged_z, the imbalance value in the regression's pawn) or a
	// scale of the pieces' "scaled" rows ("N=1", "R=5"): the regression
	// against the imbalance matches; or "scored P=1", "scored N=1", ...
	// (scored_imbalance_z): the scored differences against them.
	Comparison string `json:"comparison"`
	// Compared counts the pieces with a z, Disagree those with |z| > 1.96.
	Compared int `json:"compared"`
	Disagree int `json:"disagree"`
	// Expected is 0.05·Compared: the mean number of flags by chance when
	// every piece agrees.
	Expected float64 `json:"expected_by_chance"`
	// Holm are the pieces whose disagreement Holm's procedure rejects at
	// a family-wise error rate of 5% (two-sided normal p-values of z).
	Holm []string `json:"holm"`
}

// disagreements returns the families of the pieces' agreement tests that
// have at least one z: P=1, bridged, then the scales in the pieces' order.
func disagreements(pieces []PieceValues) []Disagreements {
	var ts []familyTest
	for _, p := range pieces {
		ts = append(ts, familyTest{Scale, p.Piece, p.AgreementZ}, familyTest{"bridged", p.Piece, p.BridgedZ})
		for _, s := range p.Scaled {
			ts = append(ts, familyTest{s.Scale, p.Piece, s.AgreementZ})
		}
	}
	// The scored differences against the imbalance values, after the
	// regression's families.
	for _, p := range pieces {
		ts = append(ts, familyTest{"scored " + Scale, p.Piece, p.ScoredZ})
		for _, s := range p.Scaled {
			ts = append(ts, familyTest{"scored " + s.Scale, p.Piece, s.ScoredZ})
		}
	}
	return families(ts)
}

// familyTest is one z of a family of tests (nil: not tested).
type familyTest struct {
	family, piece string
	z             *float64
}

// families sums up tests by family, in the order the families first
// appear, leaving out those without any z.
func families(tests []familyTest) []Disagreements {
	var order []string
	fam := map[string][]familyTest{}
	for _, t := range tests {
		if _, ok := fam[t.family]; !ok {
			order = append(order, t.family)
			fam[t.family] = nil
		}
		if t.z != nil && !math.IsNaN(*t.z) {
			fam[t.family] = append(fam[t.family], t)
		}
	}
	var out []Disagreements
	for _, name := range order {
		ts := fam[name]
		if len(ts) == 0 {
			continue
		}
		d := Disagreements{Comparison: name, Compared: len(ts), Expected: 0.05 * float64(len(ts)), Holm: []string{}}
		p := make([]float64, len(ts))
		for i, t := range ts {
			p[i] = stats.TwoSidedP(*t.z)
			if math.Abs(*t.z) > stats.Z95 {
				d.Disagree++
			}
		}
		for i, rejected := range stats.Holm(p, 0.05) {
			if rejected {
				d.Holm = append(d.Holm, ts[i].piece)
			}
		}
		out = append(out, d)
	}
	return out
}

// disagreementsMarkdown says, per family, how many pieces disagree, how
// many would by chance, and which survive Holm's correction.
func disagreementsMarkdown(b *strings.Builder, ds []Disagreements) {
	if len(ds) == 0 {
		return
	}
	b.WriteString("\nDisagreements at 95%, per comparison (the number expected by chance if every piece agrees; the pieces that still disagree at a family-wise 5%, Holm's correction):")
	for _, d := range ds {
		fmt.Fprintf(b, "\n- %s", d)
	}
	b.WriteString("\n")
}

// String says "P=1: 2 of 12 (0.60 expected); Holm: giraffe": the
// comparison, the pieces that disagree at 95% of those compared, the
// number expected by chance, and the pieces that survive Holm's
// correction ("none").
func (d Disagreements) String() string {
	holm := "none"
	if len(d.Holm) > 0 {
		holm = strings.Join(d.Holm, ", ")
	}
	return fmt.Sprintf("%s: %d of %d (%.2f expected); Holm: %s", d.Comparison, d.Disagree, d.Compared, d.Expected, holm)
}
