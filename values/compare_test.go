package values

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/internal/stats"

	"gonum.org/v1/gonum/mat"
)

func iv(v, se float64) *stats.Interval {
	x := stats.NewInterval(v, se)
	return &x
}

// TestCompareByHand compares two hand-made documents: each estimate both
// have gives B − A with the SE of independent estimates, z their ratio,
// and the families count and correct the differences; what only one has
// is left out, and what differs besides the games is noted.
func TestCompareByHand(t *testing.T) {
	settings := RegressionConfig{MinPly: 16, QuietPlies: 2, MinGames: 30, SharedPieces: 1, Pairs: true}
	a := &Document{Settings: settings, Variants: []VariantValues{{
		Variant: "chess", Games: 100, ImbalanceGames: 10,
		Pieces: []PieceValues{
			{Piece: "P", Regression: iv(1, 0), Imbalance: iv(1, 0), Scaled: []ScaledValues{{Scale: "N=1", Regression: iv(0.33, 0.01)}}},
			{Piece: "N", Regression: iv(3, 0.1), Imbalance: iv(3.2, 0.2),
				ByPhase: []PhaseValue{{Band: Band{0, 0.5}, Value: iv(2.5, 0.3)}, {Band: Band{0.5, 1}, Value: iv(3.5, 0.4)}}},
			{Piece: "R", Regression: iv(5, 0.3), Scaled: []ScaledValues{{Scale: "N=1", Regression: iv(1.6, 0.05)}}},
		},
	}, {Variant: "shatranj", Games: 5}}}
	b := &Document{Settings: settings, Variants: []VariantValues{{
		Variant: "chess", Games: 200, ImbalanceGames: 20, ImbalanceOpenings: "/x/mid.fen",
		Pieces: []PieceValues{
			{Piece: "Q", Regression: iv(9, 0.5)},
			{Piece: "N", Regression: iv(3.5, 0.2), ByPhase: []PhaseValue{{Band: Band{0.5, 1}, Value: iv(3.2, 0.3)}}},
			{Piece: "R", Regression: iv(4.9, 0.4), Scaled: []ScaledValues{{Scale: "N=1", Regression: iv(1.4, 0.05)}}},
			{Piece: "P", Regression: iv(1, 0), Scaled: []ScaledValues{{Scale: "N=1", Regression: iv(0.30, 0.01)}}},
		},
	}, {Variant: "shako", Games: 5}}}
	c, err := Compare("A", "B", a, b, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Variants) != 1 || c.Variants[0].Variant != "chess" || c.Variants[0].Games != [2]int{100, 200} {
		t.Fatalf("variants %+v", c.Variants)
	}
	type row struct {
		piece, estimate string
		diff, se        float64
	}
	want := []row{
		{"P", "regression N=1", -0.03, math.Sqrt(2) * 0.01},
		{"N", "regression", 0.5, math.Sqrt(0.01 + 0.04)},
		{"N", "regression phase 0.50-1.00", -0.3, 0.5},
		{"R", "regression", -0.1, 0.5},
		{"R", "regression N=1", -0.2, math.Sqrt(2) * 0.05},
	}
	ds := c.Variants[0].Differences
	if len(ds) != len(want) {
		t.Fatalf("%d differences, want %d: %+v", len(ds), len(want), ds)
	}
	for i, w := range want {
		d := ds[i]
		z := w.diff / w.se
		if d.Piece != w.piece || d.Estimate != w.estimate || math.Abs(float64(d.Difference.Value)-w.diff) > 1e-12 ||
			math.Abs(float64(d.Difference.SE)-w.se) > 1e-12 || math.Abs(d.Z-z) > 1e-9 || d.Differ != (math.Abs(z) > 1.96) {
			t.Errorf("row %d: %+v, want %+v (z %.3f)", i, d, w, z)
		}
	}
	// Families: N=1 has P (z -2.12) and R (z -2.83), both beyond 1.96;
	// Holm with m = 2: R's p 0.0047 < 0.025, P's 0.034 < 0.05, so both.
	// P=1 has N (z 2.236, p 0.0253) and R (z -0.2, p 0.84): N differs at
	// 95% but not after Holm (0.0253 > 0.05/2).
	got := map[string]string{}
	for _, f := range c.Variants[0].Differ {
		got[f.Comparison] = f.String()
	}
	for fam, s := range map[string]string{
		"regression N=1":      "regression N=1: 2 of 2 (0.10 expected); Holm: P, R",
		"regression P=1":      "regression P=1: 1 of 2 (0.10 expected); Holm: none",
		"regression by phase": "regression by phase: 0 of 1 (0.05 expected); Holm: none",
	} {
		if got[fam] != s {
			t.Errorf("family %s: %q, want %q", fam, got[fam], s)
		}
	}
	if len(got) != 3 {
		t.Errorf("families %v", got)
	}
	notes := strings.Join(c.Notes, "\n")
	for _, s := range []string{"shatranj: only A", "shako: only B"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes lack %q: %s", s, notes)
		}
	}
	if !strings.Contains(notes, "from the start array in A and from /x/mid.fen in B") {
		t.Errorf("notes do not say the matches start elsewhere: %s", notes)
	}
	// Two copies of one positions file are one source: no note.
	dir := t.TempDir()
	for _, name := range []string{"a.fen", "b.fen"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("8/8/8/8/8/8/8/K1k5 w - - 0 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a.Variants[0].ImbalanceOpenings, b.Variants[0].ImbalanceOpenings = filepath.Join(dir, "a.fen"), filepath.Join(dir, "b.fen")
	if c2, err := Compare("A", "B", a, b, nil, nil); err != nil || strings.Contains(strings.Join(c2.Notes, "\n"), "start from") {
		t.Errorf("copies of one file: %v, notes %q", err, c2.Notes)
	}
	md := c.Markdown()
	for _, s := range []string{"| N | regression | 3.00 [2.80, 3.20] | 3.50 [3.11, 3.89] | +0.50 [+0.06, +0.94] | +2.24 **differ** |", "- regression N=1: 2 of 2 (0.10 expected); Holm: P, R"} {
		if !strings.Contains(md, s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md)
		}
	}

	b.Settings.SharedPieces = 0
	if _, err := Compare("A", "B", a, b, nil, nil); err == nil || !strings.Contains(err.Error(), "shared_pieces: 0") || !strings.Contains(err.Error(), "same settings") {
		t.Errorf("different settings: %v", err)
	}
}

// TestLogisticIntervals: a pawn's logit at the start is γ0 + γ1 with the
// variance C11 + C22 + 2·C12, at phase 0 γ0 with C11, White's edge α with
// C00; a comparison puts the three in one family, "logistic".
func TestLogisticIntervals(t *testing.T) {
	cov := mat.NewSymDense(3, []float64{
		0.0004, 0, 0,
		0, 0.0009, -0.0002,
		0, -0.0002, 0.0004,
	})
	l := logisticOf(&Regression{Alpha: 0.1, Gamma0: 0.8, Gamma1: -0.1, Cov: cov})
	for _, c := range []struct {
		name    string
		iv      *stats.Interval
		v, var_ float64
	}{{"start", l.PawnAtStart, 0.7, 0.0009 + 0.0004 - 0.0004}, {"end", l.PawnAtEnd, 0.8, 0.0009}, {"edge", l.WhiteEdge, 0.1, 0.0004}} {
		if c.iv == nil || math.Abs(float64(c.iv.Value)-c.v) > 1e-12 || math.Abs(float64(c.iv.SE)-math.Sqrt(c.var_)) > 1e-12 {
			t.Errorf("%s: %+v, want %v ± %v", c.name, c.iv, c.v, math.Sqrt(c.var_))
		}
	}
	if l := logisticOf(&Regression{Gamma0: 1}); l.PawnAtStart != nil || l.Gamma0 != 1 {
		t.Errorf("without covariance: %+v", l)
	}
	b := *l
	start := stats.NewInterval(0.85, 0.03)
	b.PawnAtStart = &start
	vc := compareVariant(&VariantValues{Logistic: l}, &VariantValues{Logistic: &b})
	if len(vc.Differences) != 3 || vc.Differences[0].Estimate != "logistic logit at phase 1" ||
		math.Abs(vc.Differences[0].Z-0.15/math.Sqrt(0.0009+0.0009)) > 1e-9 || vc.Differences[1].Z != 0 {
		t.Fatalf("differences %+v", vc.Differences)
	}
	if len(vc.Differ) != 1 || vc.Differ[0].String() != "logistic: 1 of 3 (0.15 expected); Holm: P at phase 1" {
		t.Errorf("families %+v", vc.Differ)
	}
}
