package choice

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"tamerlane/internal/stats"
	"tamerlane/tune/texel"
)

// synthetic returns a set of n positions of 2-7 moves over dim features,
// the move played drawn from softmax(w·φ/t) and the result from
// σ(w·φ_played/400 · 3).
func synthetic(t *testing.T, seed uint64, n, dim int, w []float64, temp float64) *Set {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	s := &Set{}
	for i := range n {
		moves := 2 + r.IntN(6)
		leaves := make([][]texel.Feature, moves)
		p := make([]float64, moves)
		var z float64
		for m := range leaves {
			var x float64
			for j := range dim {
				if r.IntN(3) == 0 {
					continue // sparse
				}
				v := float32(r.NormFloat64())
				leaves[m] = append(leaves[m], texel.Feature{Index: int32(j), Value: v})
				x += w[j] * float64(v)
			}
			p[m] = math.Exp(x / temp)
			z += p[m]
		}
		u, chosen := r.Float64()*z, 0
		for u > p[chosen] && chosen < moves-1 {
			u -= p[chosen]
			chosen++
		}
		var x float64
		for _, f := range leaves[chosen] {
			x += w[f.Index] * float64(f.Value)
		}
		result := float32(0)
		if r.Float64() < stats.Logistic(3*x/400) {
			result = 1
		}
		if err := s.Add(leaves, chosen, result, int64(i/40)); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestGradient compares the objective's gradient with central
// differences, with and without the result term and the ridge.
func TestGradient(t *testing.T) {
	w0 := []float64{100, -50, 30, 0, 10}
	s := synthetic(t, 1, 300, len(w0), []float64{120, -80, 0, 40, 5}, 60)
	for _, opt := range []Options{{}, {ResultWeight: 1, Ridge: 1e-4}} {
		start := Evaluate(s, w0, 60, 2)
		o := &objective{train: s, w0: w0, free: []int{0, 1, 2, 4}, t: 60, k: 2, ce0: start.CE, mse0: start.MSE, opt: opt}
		x := []float64{90, -40, 20, 15}
		g := make([]float64, len(x))
		o.value(x, g)
		for a := range x {
			h := 1e-3
			xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
			xp[a] += h
			xm[a] -= h
			num := (o.value(xp, nil) - o.value(xm, nil)) / (2 * h)
			if math.Abs(num-g[a]) > 1e-6*math.Max(1, math.Abs(num)) {
				t.Errorf("%+v: d/dx%d analytic %.9g, numeric %.9g", opt, a, g[a], num)
			}
		}
	}
}

// TestEvaluateByHand checks the cross-entropy, top-1 and squared error of
// a two-position set against a hand computation.
func TestEvaluateByHand(t *testing.T) {
	s := &Set{}
	f := func(x float32) []texel.Feature { return []texel.Feature{{Index: 0, Value: x}} }
	// Position 1: scores 100, 0, −100 (w = 100); the 0 was played, lost.
	if err := s.Add([][]texel.Feature{f(1), f(0), f(-1)}, 1, 0, 1); err != nil {
		t.Fatal(err)
	}
	// Position 2: scores 50, 200; the 200 was played, won.
	if err := s.Add([][]texel.Feature{f(0.5), f(2)}, 1, 1, 2); err != nil {
		t.Fatal(err)
	}
	got := Evaluate(s, []float64{100}, 100, 4)
	ce1 := math.Log(math.E+1+1/math.E) - 0
	ce2 := math.Log(math.Exp(0.5)+math.Exp(2)) - 2
	e1, e2 := stats.Logistic(0), stats.Logistic(4*200.0/400)-1
	want := Scores{CE: (ce1 + ce2) / 2, Top1: 0.5, MSE: (e1*e1 + e2*e2) / 2}
	if math.Abs(got.CE-want.CE) > 1e-12 || got.Top1 != want.Top1 || math.Abs(got.MSE-want.MSE) > 1e-12 {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if s.Len() != 2 || s.Leaves() != 5 || s.NumGames() != 2 || s.Dim() != 1 {
		t.Errorf("Len %d Leaves %d NumGames %d Dim %d", s.Len(), s.Leaves(), s.NumGames(), s.Dim())
	}
}

// TestFitRecoversDirection: moves drawn from a softmax of known weights
// give back those weights up to the common scale the temperature fixes
// (T is fitted with the starting weights), and the fit lowers the
// held-out cross-entropy and raises the top-1 agreement.
func TestFitRecoversDirection(t *testing.T) {
	truth := []float64{150, -60, 0, 90}
	train := synthetic(t, 2, 6000, len(truth), truth, 50)
	valid := synthetic(t, 3, 2000, len(truth), truth, 50)
	w0 := []float64{100, 0, 40, 20}
	res, err := Fit(train, valid, w0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	scale := res.Weights[0] / truth[0]
	for j, x := range truth {
		if got := res.Weights[j] / scale; math.Abs(got-x) > 12 {
			t.Errorf("weight %d: %.1f (scaled by %.3f), want %.0f", j, got, scale, x)
		}
	}
	if !(res.EndValid.CE < res.StartValid.CE) || !(res.EndValid.Top1 > res.StartValid.Top1) {
		t.Errorf("validation: cross-entropy %.4f -> %.4f, top-1 %.3f -> %.3f", res.StartValid.CE, res.EndValid.CE,
			res.StartValid.Top1, res.EndValid.Top1)
	}
}

// TestFitFrozenRidgeAndWorkers: frozen weights keep their values, a
// strong ridge keeps every weight near the start, and the fit does not
// depend on the number of workers.
func TestFitFrozenRidgeAndWorkers(t *testing.T) {
	truth := []float64{150, -60, 0, 90}
	train := synthetic(t, 4, 1500, len(truth), truth, 50)
	w0 := []float64{100, 0, 40, 20}
	frozen := []bool{false, true, false, false}
	a, err := Fit(train, nil, w0, Options{Frozen: frozen, ResultWeight: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(train, nil, w0, Options{Frozen: frozen, ResultWeight: 1, Workers: 7})
	if err != nil {
		t.Fatal(err)
	}
	for j := range w0 {
		if a.Weights[j] != b.Weights[j] {
			t.Errorf("weight %d: %v with 1 worker, %v with 7", j, a.Weights[j], b.Weights[j])
		}
	}
	if a.Weights[1] != w0[1] {
		t.Errorf("frozen weight moved: %v", a.Weights[1])
	}
	if a.Weights[3] == w0[3] {
		t.Errorf("free weight did not move")
	}
	r, err := Fit(train, nil, w0, Options{Ridge: 1e3})
	if err != nil {
		t.Fatal(err)
	}
	for j := range w0 {
		if math.Abs(r.Weights[j]-w0[j]) > 0.5 {
			t.Errorf("ridge 1e3: weight %d moved from %v to %v", j, w0[j], r.Weights[j])
		}
	}
}

// TestBadInput: malformed positions and options are errors, not panics.
func TestBadInput(t *testing.T) {
	s := &Set{}
	one := [][]texel.Feature{{{Index: 0, Value: 1}}}
	two := [][]texel.Feature{{{Index: 0, Value: 1}}, {{Index: 0, Value: 2}}}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{s.Add(one, 0, 1, 0), "at least two moves"},
		{s.Add(two, 2, 1, 0), "out of range"},
		{s.Add(two, 0, 2, 0), "not in [0, 1]"},
		{s.Add([][]texel.Feature{{{Index: -1, Value: 1}}, {}}, 0, 1, 0), "negative feature index"},
		{s.Add([][]texel.Feature{{{Index: 0, Value: float32(math.NaN())}}, {}}, 0, 1, 0), "has value NaN"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("got %v, want %q", tc.err, tc.want)
		}
	}
	if s.Len() != 0 {
		t.Fatalf("rejected positions were added: %d", s.Len())
	}
	if _, err := Fit(s, nil, []float64{1}, Options{}); err == nil {
		t.Error("empty set: no error")
	}
	if err := s.Add(two, 1, 1, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Fit(s, nil, []float64{}, Options{}); err == nil || !strings.Contains(err.Error(), "for 0 weights") {
		t.Errorf("too few weights: %v", err)
	}
	if _, err := Fit(s, nil, []float64{1}, Options{Ridge: -1}); err == nil {
		t.Error("negative ridge: no error")
	}
}
