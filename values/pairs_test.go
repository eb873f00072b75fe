package values

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tamerlane/engine"
	"tamerlane/internal/stats"

	"gonum.org/v1/gonum/mat"
)

// TestPairClasses: with pairs, chess gets one pair class, the bishop's
// (the only colour-bound type), whose start-position pair one removed
// bishop breaks; shatranj gets one for each of its two colour-bound types
// (the ferz and the alfil); without pairs there are none.
func TestPairClasses(t *testing.T) {
	chess := engine.MustVariant("chess", nil)
	c := NewClasses(chess, true)
	if want := []string{"P", "N", "B", "R", "Q", "pair.B"}; !slices.Equal(c.Names, want) {
		t.Fatalf("chess classes %v, want %v", c.Names, want)
	}
	b, n := c.Index("B"), c.Index("N")
	if c.PairOf(b) != c.Index("pair.B") || c.PairOf(n) != -1 || c.PairOf(0) != -1 {
		t.Errorf("PairOf: B %d, N %d, P %d; want %d, -1, -1", c.PairOf(b), c.PairOf(n), c.PairOf(0), c.Index("pair.B"))
	}
	if !c.BreaksPair(b) || c.BreaksPair(n) {
		t.Errorf("BreaksPair: B %v, N %v; want true, false", c.BreaksPair(b), c.BreaksPair(n))
	}
	if got := NewClasses(chess, false).Names; slices.Contains(got, "pair.B") {
		t.Errorf("without pairs: classes %v", got)
	}
	shatranj := engine.MustVariant("shatranj", nil)
	var want []string
	for ty := 1; ty <= shatranj.NumTypes(); ty++ {
		if d := shatranj.Def(engine.PieceType(ty)); d.Name == "Ferz" || d.Name == "Alfil" {
			want = append(want, "pair."+d.Token)
		}
	}
	var got []string
	for _, x := range NewClasses(shatranj, true).Names {
		if len(x) > 5 && x[:5] == "pair." {
			got = append(got, x)
		}
	}
	if len(want) != 2 || !slices.Equal(got, want) {
		t.Errorf("shatranj pair classes %v, want the ferz's and the alfil's %v", got, want)
	}
}

// TestPairSamples: White's bishops stand on both colours, Black's on one
// (c8 and a6, both light), so the pair difference is +1 with the bishops
// even; after Black takes the f1 bishop White has one bishop, Black two
// of one colour: bishops -1, pair 0.
func TestPairSamples(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	c := NewClasses(v, true)
	start, moves := playCoords(t, v, "k1b5/8/b7/8/8/8/8/2B1KB2 w - - 0 1",
		"e1d2", "a8b8", "d2e3", "a6f1", "e3d4", "b8a8", "d4c5")
	s := GameSamples(c, start, moves, 0, 0, SampleOptions{MinPly: 1, QuietPlies: 1})
	b, pair := c.Index("B"), c.Index("pair.B")
	type bp struct{ b, pair float64 }
	var got []bp
	for _, x := range s {
		got = append(got, bp{x.Diff[b], x.Diff[pair]})
	}
	want := []bp{{0, 1}, {0, 1}, {-1, 0}, {-1, 0}, {-1, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("(B, pair.B) differences %v, want %v", got, want)
	}
	if s2 := GameSamples(NewClasses(v, false), start, moves, 0, 0, SampleOptions{MinPly: 1, QuietPlies: 1}); len(s2) != len(s) || len(s2[0].Diff) != len(s[0].Diff)-1 {
		t.Errorf("without pairs: %d samples of %d classes", len(s2), len(s2[0].Diff))
	}
}

// TestPairRecovery: games drawn from a model with a bishop of 3.25 and a
// pair of 0.5 (Kaufman's) give back both, and the bishop-with-pair
// combination covers 3.75, its variance that of the sum (covariance
// included).
func TestPairRecovery(t *testing.T) {
	names := []string{"P", "N", "B", "pair.B"}
	vals := []float64{1, 3, 3.25, 0.5}
	rng := rand.New(rand.NewPCG(7, 8))
	s := synthGames(rng, 20000, 3, vals, 0.1, 0.35, 0.3)
	r, err := FitRegression(names, s, RegressionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range vals {
		if e := r.Values[j]; !e.Covers(v) {
			t.Errorf("%s: %.3f [%.3f, %.3f] does not cover the true %.2f", names[j], e.Value, e.Lo, e.Hi, v)
		}
	}
	sum := r.combination(2, 3)
	if !sum.Covers(3.75) {
		t.Errorf("B + pair.B: %.3f [%.3f, %.3f] does not cover 3.75", sum.Value, sum.Lo, sum.Hi)
	}
	wantVar := r.cov(2, 2) + r.cov(3, 3) + 2*r.cov(2, 3)
	if got := float64(sum.SE) * float64(sum.SE); got < 0.999*wantVar || got > 1.001*wantVar {
		t.Errorf("B + pair.B variance %.6f, want %.6f", got, wantVar)
	}
	if got := r.crossCov([]int{2, 3}, []int{1}); got != r.cov(2, 1)+r.cov(3, 1) {
		t.Errorf("crossCov %.6f, want %.6f", got, r.cov(2, 1)+r.cov(3, 1))
	}
}

// TestPairsSetting: the config's pairs reaches the sample options, and
// false leaves the hash of a config that did not set it unchanged.
func TestPairsSetting(t *testing.T) {
	base := "variants:\n  - {variant: chess, pairs: 2}\n"
	hash := func(text string) string {
		t.Helper()
		c, err := ParseConfig([]byte(text), "x.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := c.Regression.SampleOptions().Pairs, c.Regression.Pairs; got != want {
			t.Errorf("%q: SampleOptions().Pairs %v, want %v", text, got, want)
		}
		h, err := c.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h0, hf, ht := hash(base), hash("regression: {pairs: false}\n"+base), hash("regression: {pairs: true}\n"+base)
	if hf != h0 || ht == h0 {
		t.Errorf("hashes: unset %s, false %s, true %s; want false = unset != true", h0, hf, ht)
	}
	c, err := ParseConfig([]byte("regression: {pairs: true}\n"+base), "x.yaml")
	if err != nil || !c.Regression.SampleOptions().Pairs {
		t.Errorf("pairs: true did not reach the sample options (%v)", err)
	}
}

// TestComparedTerms: with the bishop pair identified, an imbalance match
// removing a bishop compares with B + pair.B, whose variance includes
// their covariance; the knight compares with itself; without an
// identified pair class the bishop compares with itself too.
func TestComparedTerms(t *testing.T) {
	c := NewClasses(engine.MustVariant("chess", nil), true)
	n, b, pair := c.Index("N"), c.Index("B"), c.Index("pair.B")
	// θ = (α, γ0, γ1, N, B, R, Q, pair.B); covariances of B and pair.B
	// chosen so that the sum's variance differs from the sum of theirs.
	cov := mat.NewSymDense(8, nil)
	for i := range 8 {
		cov.SetSym(i, i, 0.01)
	}
	cov.SetSym(4, 7, -0.004)
	reg := &Regression{Pieces: c.Names, Cov: cov, Index: []int{-1, 3, 4, 5, 6, 7},
		Values:     []stats.Interval{{Value: 1}, {Value: 3}, {Value: 3.1}, {Value: 4.8}, {Value: 9.5}, {Value: 0.45}},
		Identified: []bool{true, true, true, true, true, true}}
	if got := comparedTerms(reg, c, n); !slices.Equal(got, []int{n}) {
		t.Errorf("knight: %v, want [%d]", got, n)
	}
	got := comparedTerms(reg, c, b)
	if !slices.Equal(got, []int{b, pair}) {
		t.Fatalf("bishop: %v, want [%d %d]", got, b, pair)
	}
	sum := reg.combination(got...)
	if math.Abs(float64(sum.Value)-3.55) > 1e-12 || math.Abs(float64(sum.SE)-math.Sqrt(0.01+0.01-0.008)) > 1e-12 {
		t.Errorf("B + pair.B = %v ± %v, want 3.55 ± %.4f", sum.Value, sum.SE, math.Sqrt(0.012))
	}
	reg.Identified[pair] = false
	if got := comparedTerms(reg, c, b); !slices.Equal(got, []int{b}) {
		t.Errorf("bishop without an identified pair: %v, want [%d]", got, b)
	}
}
