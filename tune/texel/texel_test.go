package texel

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"gonum.org/v1/gonum/optimize"
)

func TestSigmoid(t *testing.T) {
	if got := Sigmoid(1, 0); got != 0.5 {
		t.Errorf("Sigmoid(1, 0) = %v, want 0.5", got)
	}
	// 400 cp at K = 1 means odds 10:1.
	if got, want := Sigmoid(1, 400), 10.0/11; math.Abs(got-want) > 1e-15 {
		t.Errorf("Sigmoid(1, 400) = %v, want %v", got, want)
	}
	if got, want := Sigmoid(2, 200), 10.0/11; math.Abs(got-want) > 1e-15 {
		t.Errorf("Sigmoid(2, 200) = %v, want %v", got, want)
	}
}

// TestGradientMatchesCentralDifference checks the analytic gradient against
// central differences with every loss ingredient switched on: λ > 0, a
// prior with a non-zero centre, sample weights and duplicate indices.
func TestGradientMatchesCentralDifference(t *testing.T) {
	const dim = 15
	rng := rand.New(rand.NewPCG(11, 12))
	d := NewDataset(0, 0)
	for i := range 400 {
		nnz := 1 + rng.IntN(6)
		f := make([]Feature, nnz)
		for k := range f {
			f[k] = Feature{Index: int32(rng.IntN(dim)), Value: float32(rng.NormFloat64())}
		}
		r := float32(rng.IntN(3)) / 2
		if err := d.Add(f, r, float32(rng.NormFloat64()*200), int64(i/7)); err != nil {
			t.Fatal(err)
		}
	}
	center := randomWeights(dim, 30, 13)
	scale := make([]float64, dim)
	for j := range scale {
		scale[j] = 0.5 + 3*rng.Float64()
	}
	e, err := NewEvaluator(d, dim, Config{K: 1.3, Lambda: 0.3, Prior: 2.5, Center: center, PriorScale: scale, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	cw := make([]float32, d.Len())
	for i := range cw {
		cw[i] = float32(rng.IntN(3))
	}
	e.setWeights(cw)
	w := randomWeights(dim, 120, 14)
	grad := make([]float64, dim)
	f := e.LossAndGrad(w, grad)
	if lf := e.Loss(w); math.Abs(lf-f) > 1e-14*math.Abs(f) {
		t.Fatalf("Loss = %v, LossAndGrad = %v", lf, f)
	}
	pen := 0.0
	for j := range w {
		pen += scale[j] * scale[j] * (w[j] - center[j]) * (w[j] - center[j])
	}
	if got, want := f-e.MSE(w), 2.5*pen/e.sumW; math.Abs(got-want) > 1e-9*want {
		t.Errorf("prior term %v, want (P/C)·Σ s²(w−μ)² = %v", got, want)
	}
	wp := append([]float64(nil), w...)
	for j := range dim {
		h := 1e-3 * (1 + math.Abs(w[j]))
		wp[j] = w[j] + h
		fp := e.Loss(wp)
		wp[j] = w[j] - h
		fm := e.Loss(wp)
		wp[j] = w[j]
		num := (fp - fm) / (2 * h)
		if diff := math.Abs(num - grad[j]); diff > 1e-7*math.Abs(grad[j])+1e-12 {
			t.Errorf("grad[%d] = %.12g, central difference %.12g", j, grad[j], num)
		}
	}
}

func TestLossAndGradAllocations(t *testing.T) {
	base := runtime.NumGoroutine()
	w := randomWeights(20, 50, 1)
	d := synth(t, synthSpec{n: 2000, nnz: 5, dim: 20, gameLen: 10, seed: 2}, w)
	e, err := NewEvaluator(d, 20, Config{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	grad := make([]float64, 20)
	if a := testing.AllocsPerRun(20, func() { e.LossAndGrad(w, grad) }); a != 0 {
		t.Errorf("LossAndGrad allocates %v times per call, want 0", a)
	}
	if a := testing.AllocsPerRun(20, func() { e.Loss(w) }); a != 0 {
		t.Errorf("Loss allocates %v times per call, want 0", a)
	}
	// Close, then use again: workers restart and results are unchanged.
	f := e.LossAndGrad(w, grad)
	e.Close()
	if g := e.LossAndGrad(w, grad); g != f {
		t.Errorf("loss after Close = %v, before %v", g, f)
	}
	e.Close()
	for i := 0; runtime.NumGoroutine() > base; i++ {
		if i == 100 {
			t.Fatalf("%d goroutines left after Close, started with %d", runtime.NumGoroutine(), base)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestFitRecoversWeights fits synthetic data drawn from known weights and
// checks the estimates against the truth using the standard errors.
func TestFitRecoversWeights(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 40_000
	}
	const dim = 12
	truth := randomWeights(dim, 150, 21)
	d := synth(t, synthSpec{n: n, nnz: 6, dim: dim, gameLen: 10, seed: 22}, truth)
	train, valid, err := d.Split(0.1, 7)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluator(train, dim, Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Fit(make([]float64, dim), Options{Valid: valid})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged || res.TrainLoss >= res.InitialLoss {
		t.Fatalf("fit did not converge: %+v", res)
	}
	if math.IsNaN(res.ValidLoss) || math.Abs(res.ValidLoss-res.TrainMSE) > 0.1*res.TrainMSE {
		t.Errorf("validation MSE %v far from training MSE %v", res.ValidLoss, res.TrainMSE)
	}
	for _, m := range []SEMethod{Clustered, Classical} {
		u, err := e.StdErrors(res.Weights, nil, m)
		if err != nil {
			t.Fatal(err)
		}
		covered := 0
		for j := range dim {
			se := u.SE[j]
			if !(se > 0) || se > 20 {
				t.Fatalf("%v: SE[%d] = %v implausible", m, j, se)
			}
			z := (res.Weights[j] - truth[j]) / se
			if math.Abs(z) > 4 {
				t.Errorf("%v: weight %d = %.2f, truth %.2f, SE %.3f: %.1f SE off", m, j, res.Weights[j], truth[j], se, z)
			}
			if lo, hi := Interval(res.Weights[j], se, 0.95); lo <= truth[j] && truth[j] <= hi {
				covered++
			}
		}
		if covered < dim*8/10 {
			t.Errorf("%v: 95%% intervals cover %d of %d true weights", m, covered, dim)
		}
	}
}

func TestFitKRecoversK(t *testing.T) {
	const dim, k = 10, 1.6
	truth := randomWeights(dim, 120, 31)
	d := synth(t, synthSpec{n: 60_000, nnz: 5, dim: dim, gameLen: 1, k: k, seed: 32}, truth)
	e, err := NewEvaluator(d, dim, Config{K: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.FitK(truth)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-k) > 0.05 {
		t.Errorf("FitK = %v, want %v ± 0.05", got, k)
	}
	if e.K() != 0.5 {
		t.Errorf("FitK changed the Evaluator's K to %v", e.K())
	}
	// Scaling the weights by 2 must halve K: only K·w is identified.
	w2 := make([]float64, dim)
	for j := range w2 {
		w2[j] = 2 * truth[j]
	}
	got2, err := e.FitK(w2)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got2-got/2) > 1e-4*got {
		t.Errorf("FitK(2w) = %v, want FitK(w)/2 = %v", got2, got/2)
	}
	if _, err := e.FitK(make([]float64, dim)); err == nil {
		t.Error("FitK with all-zero evaluations succeeded")
	}
}

func TestSplitKeepsGamesTogether(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	d := NewDataset(0, 0)
	// Interleaved, non-contiguous game ids with varying lengths.
	for i := range 5000 {
		g := int64(rng.IntN(300)) * 7919
		f := []Feature{{Index: int32(i % 9), Value: float32(i)}}
		if err := d.Add(f, float32(i%3)/2, float32(i), g); err != nil {
			t.Fatal(err)
		}
	}
	train, valid, err := d.Split(0.25, 99)
	if err != nil {
		t.Fatal(err)
	}
	if train.Len()+valid.Len() != d.Len() {
		t.Fatalf("split sizes %d + %d != %d", train.Len(), valid.Len(), d.Len())
	}
	trainGames := map[int64]bool{}
	for i := range train.Len() {
		trainGames[train.Game(i)] = true
	}
	for i := range valid.Len() {
		if trainGames[valid.Game(i)] {
			t.Fatalf("game %d is in both halves", valid.Game(i))
		}
	}
	ng, nv := d.NumGames(), valid.NumGames()
	if want := int(math.Round(0.25 * float64(ng))); nv != want {
		t.Errorf("validation has %d of %d games, want %d", nv, ng, want)
	}
	// Rows are copied intact: the feature value encodes the original
	// position index and must agree with the stored score.
	for _, s := range []*Dataset{train, valid} {
		for i := range s.Len() {
			_, val := s.Row(i)
			if len(val) != 1 || val[0] != s.Score(i) {
				t.Fatalf("row %d corrupted: %v vs score %v", i, val, s.Score(i))
			}
		}
	}
	// Deterministic for a seed, different for another.
	_, v2, _ := d.Split(0.25, 99)
	_, v3, _ := d.Split(0.25, 100)
	same := func(a, b *Dataset) bool {
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if a.Game(i) != b.Game(i) {
				return false
			}
		}
		return true
	}
	if !same(valid, v2) {
		t.Error("same seed gave a different split")
	}
	if same(valid, v3) {
		t.Error("different seeds gave the same split")
	}
	if _, _, err := d.Split(1.5, 1); err == nil {
		t.Error("Split(1.5) succeeded")
	}
}

func TestConvergedMapping(t *testing.T) {
	ls := optimize.ErrLinesearcherFailure
	cases := []struct {
		name   string
		status optimize.Status
		err    error
		f0, f  float64
		want   bool
	}{
		{"success", optimize.Success, nil, 1, 0.5, true},
		{"function convergence", optimize.FunctionConvergence, nil, 1, 0.5, true},
		{"gradient threshold", optimize.GradientThreshold, nil, 1, 1, true},
		{"line search failure, lowered", optimize.Failure, ls, 1, 0.9, true},
		{"no progress, lowered", optimize.Failure, optimize.ErrNoProgress, 1, 0.9, true},
		{"iteration limit, lowered", optimize.IterationLimit, optimize.IterationLimit.Err(), 1, 0.9, true},
		{"evaluation limit, lowered", optimize.FunctionEvaluationLimit, nil, 1, 0.9, true},
		{"line search failure at start point", optimize.Failure, ls, 1, 1, true},
		{"non-descent direction, not lowered", optimize.Failure, optimize.ErrNonDescentDirection, 1, 1, false},
		{"iteration limit, not lowered", optimize.IterationLimit, optimize.IterationLimit.Err(), 1, 1, false},
		{"line search failure, raised", optimize.Failure, ls, 1, 1.1, false},
		{"NaN loss", optimize.Failure, ls, 1, math.NaN(), false},
		{"negative infinity", optimize.FunctionNegativeInfinity, nil, 1, 0.5, false},
		{"not terminated", optimize.NotTerminated, errors.New("boom"), 1, 0.5, false},
	}
	for _, c := range cases {
		got, err := Converged(c.status, c.err, c.f0, c.f)
		if got != c.want || (err == nil) != c.want {
			t.Errorf("%s: Converged = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

// TestFitLimitAfterProgressIsConverged runs a fit that is cut short by the
// iteration limit and checks it is reported as converged, not failed.
func TestFitLimitAfterProgressIsConverged(t *testing.T) {
	const dim = 8
	truth := randomWeights(dim, 100, 51)
	d := synth(t, synthSpec{n: 5000, nnz: 4, dim: dim, gameLen: 5, seed: 52}, truth)
	e, err := NewEvaluator(d, dim, Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Fit(make([]float64, dim), Options{MaxIterations: 2})
	if err != nil {
		t.Fatalf("Fit: %v", err)
	}
	if res.Status != optimize.IterationLimit || !res.Converged || !(res.TrainLoss < res.InitialLoss) {
		t.Errorf("got status %v converged %v loss %v → %v", res.Status, res.Converged, res.InitialLoss, res.TrainLoss)
	}
	// Restarting from the optimum must also count as converged.
	full, err := e.Fit(make([]float64, dim), Options{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.Fit(full.Weights, Options{})
	if err != nil || !again.Converged {
		t.Errorf("refit from optimum: %v, %+v", err, again)
	}
}

func TestFrozenWeights(t *testing.T) {
	const dim = 6
	truth := randomWeights(dim, 100, 61)
	d := synth(t, synthSpec{n: 8000, nnz: 3, dim: dim, gameLen: 4, seed: 62}, truth)
	e, err := NewEvaluator(d, dim, Config{})
	if err != nil {
		t.Fatal(err)
	}
	w0 := make([]float64, dim)
	w0[2] = 1234
	frozen := make([]bool, dim)
	frozen[2] = true
	res, err := e.Fit(w0, Options{Frozen: frozen})
	if err != nil {
		t.Fatal(err)
	}
	if res.Weights[2] != 1234 {
		t.Errorf("frozen weight moved to %v", res.Weights[2])
	}
	if res.Weights[0] == 0 {
		t.Error("free weight did not move")
	}
	u, err := e.StdErrors(res.Weights, frozen, Clustered)
	if err != nil {
		t.Fatal(err)
	}
	if u.SE[2] != 0 || len(u.Free) != dim-1 || !(u.SE[0] > 0) {
		t.Errorf("SE = %v, free = %v", u.SE, u.Free)
	}
}

// TestClusteredSEIgnoresDuplicatedPositions repeats every position five
// times within its game. The information is unchanged, so the clustered
// standard errors must stay put while the classical ones shrink by √5.
func TestClusteredSEIgnoresDuplicatedPositions(t *testing.T) {
	const dim, rep = 6, 5
	truth := randomWeights(dim, 100, 71)
	base := synth(t, synthSpec{n: 6000, nnz: 3, dim: dim, gameLen: 1, seed: 72}, truth)
	rows := make([]int, 0, rep*base.Len())
	for i := range base.Len() {
		for range rep {
			rows = append(rows, i)
		}
	}
	dup := base.Subset(rows)
	eb, err := NewEvaluator(base, dim, Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eb.Fit(make([]float64, dim), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ed, err := NewEvaluator(dup, dim, Config{})
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := eb.StdErrors(res.Weights, nil, Clustered)
	cd, _ := ed.StdErrors(res.Weights, nil, Clustered)
	kb, _ := eb.StdErrors(res.Weights, nil, Classical)
	kd, _ := ed.StdErrors(res.Weights, nil, Classical)
	for j := range dim {
		if r := cd.SE[j] / cb.SE[j]; math.Abs(r-1) > 1e-6 {
			t.Errorf("clustered SE[%d] ratio %v, want 1", j, r)
		}
		if r := kd.SE[j] / kb.SE[j]; math.Abs(r-1/math.Sqrt(rep)) > 1e-3 {
			t.Errorf("classical SE[%d] ratio %v, want %v", j, r, 1/math.Sqrt(rep))
		}
	}
}

func TestUnidentifiableWeightsAreNaN(t *testing.T) {
	// Features 0..3 random; feature 4 always equals feature 3 (only their
	// sum is identified); feature 5 never occurs.
	const dim = 6
	rng := rand.New(rand.NewPCG(81, 82))
	d := NewDataset(0, 0)
	for i := range 3000 {
		f := []Feature{
			{0, float32(rng.NormFloat64())}, {1, float32(rng.NormFloat64())},
			{2, float32(rng.NormFloat64())}, {3, float32(rng.NormFloat64())},
		}
		f = append(f, Feature{4, f[3].Value})
		if err := d.Add(f, float32(rng.IntN(3))/2, 0, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	e, err := NewEvaluator(d, dim, Config{})
	if err != nil {
		t.Fatal(err)
	}
	w := []float64{10, -20, 30, 5, 5, 0}
	for _, m := range []SEMethod{Clustered, Classical} {
		u, err := e.StdErrors(w, nil, m)
		if err != nil {
			t.Fatal(err)
		}
		for j, se := range u.SE {
			if want := j >= 3; math.IsNaN(se) != want {
				t.Errorf("%v: SE[%d] = %v, want NaN: %v", m, j, se, want)
			}
		}
	}
	// A prior makes everything identified.
	ep, _ := NewEvaluator(d, dim, Config{Prior: 1})
	u, _ := ep.StdErrors(w, nil, Clustered)
	for j, se := range u.SE {
		if math.IsNaN(se) {
			t.Errorf("with prior: SE[%d] is NaN", j)
		}
	}
}

func TestBootstrapAgreesWithSandwich(t *testing.T) {
	if testing.Short() {
		t.Skip("bootstrap refits are slow under -short")
	}
	const dim = 5
	truth := randomWeights(dim, 100, 91)
	d := synth(t, synthSpec{n: 15000, nnz: 3, dim: dim, gameLen: 5, seed: 92}, truth)
	e, err := NewEvaluator(d, dim, Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Fit(make([]float64, dim), Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, err := e.StdErrors(res.Weights, nil, Clustered)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := e.Bootstrap(res.Weights, BootstrapOptions{Replicates: 40, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if bs.Failed > 0 || len(bs.Samples) != 40 {
		t.Errorf("%d failed, %d samples", bs.Failed, len(bs.Samples))
	}
	for j := range dim {
		if r := bs.SD[j] / u.SE[j]; r < 0.6 || r > 1.6 {
			t.Errorf("weight %d: bootstrap SD %v vs sandwich SE %v", j, bs.SD[j], u.SE[j])
		}
	}
	if e.weight != nil {
		t.Error("Bootstrap left sample weights installed")
	}
}

func TestDatasetValidation(t *testing.T) {
	d := NewDataset(0, 0)
	if err := d.Add([]Feature{{-1, 1}}, 0.5, 0, 1); err == nil {
		t.Error("negative index accepted")
	}
	if err := d.Add(nil, 1.5, 0, 1); err == nil {
		t.Error("result 1.5 accepted")
	}
	if err := d.Add([]Feature{{0, float32(math.NaN())}}, 0, 0, 1); err == nil {
		t.Error("NaN feature accepted")
	}
	if d.Len() != 0 {
		t.Errorf("rejected samples were stored: Len = %d", d.Len())
	}
	if err := d.Add([]Feature{{3, 1}, {1, 2}}, 1, 10, 5); err != nil {
		t.Fatal(err)
	}
	idx, val := d.Row(0)
	if d.NumFeatures() != 4 || len(idx) != 2 || idx[0] != 3 || val[1] != 2 || d.Result(0) != 1 || d.Score(0) != 10 || d.Game(0) != 5 {
		t.Errorf("stored row wrong: %v %v dim %d", idx, val, d.NumFeatures())
	}
	if _, err := NewEvaluator(d, 2, Config{}); err == nil {
		t.Error("NewEvaluator accepted dim smaller than the data")
	}
}

// TestFitBadlyScaledFeatures rescales the features of a synthetic data set
// by factors from 1/100 to 100 (and the weights inversely, so the model is
// the same): the diagonal preconditioner makes the fit as easy as on the
// unscaled data, to the same optimum.
func TestFitBadlyScaledFeatures(t *testing.T) {
	const dim = 12
	truth := randomWeights(dim, 150, 31)
	d := synth(t, synthSpec{n: 20_000, nnz: 6, dim: dim, gameLen: 10, seed: 32}, truth)
	scale := []float64{0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100, 0.02, 50, 1}
	sd := NewDataset(d.Len(), 6)
	for i := range d.Len() {
		idx, val := d.Row(i)
		f := make([]Feature, len(idx))
		for k, j := range idx {
			f[k] = Feature{Index: j, Value: val[k] * float32(scale[j])}
		}
		if err := sd.Add(f, d.Result(i), d.Score(i), d.Game(i)); err != nil {
			t.Fatal(err)
		}
	}
	fit := func(data *Dataset) *Result {
		e, err := NewEvaluator(data, dim, Config{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Fit(make([]float64, dim), Options{MaxIterations: 200})
		if err != nil || !res.Converged {
			t.Fatalf("fit: %v %+v", err, res)
		}
		return res
	}
	plain, scaled := fit(d), fit(sd)
	t.Logf("iterations: %d unscaled, %d scaled", plain.Iterations, scaled.Iterations)
	if scaled.Iterations > 2*plain.Iterations+10 || scaled.Status.String() == "IterationLimit" {
		t.Errorf("badly scaled features need %d iterations (%v), unscaled %d", scaled.Iterations, scaled.Status, plain.Iterations)
	}
	for j := range dim {
		if got, want := scaled.Weights[j]*scale[j], plain.Weights[j]; math.Abs(got-want) > 1e-3*math.Max(1, math.Abs(want)) {
			t.Errorf("weight %d: %v (scaled back) vs %v", j, got, want)
		}
	}
}
