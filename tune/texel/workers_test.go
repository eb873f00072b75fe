package texel

import (
	"slices"
	"testing"
)

// TestWorkersGiveSameBits checks that the number of workers (on a
// machine, the number of CPUs) changes no bit of an evaluation, a fit of
// K and of the weights, or the standard errors: the sums are taken over
// chunks that depend on the data alone and added in chunk order, so a
// table tuned on two cores is the table tuned on sixteen.
func TestWorkersGiveSameBits(t *testing.T) {
	const dim = 12
	w := randomWeights(dim, 60, 3)
	d := synth(t, synthSpec{n: 3000, nnz: 4, dim: dim, gameLen: 12, seed: 5}, w)
	if chunkCount(d.Len()) < 4 {
		t.Fatalf("%d rows make %d chunks: too few to test", d.Len(), chunkCount(d.Len()))
	}
	type out struct {
		loss, mse, k float64
		grad, fit    []float64
		se           []float64
	}
	run := func(workers int) out {
		e, err := NewEvaluator(d, dim, Config{K: 1, Lambda: 0.2, Prior: 0.5, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		var o out
		o.grad = make([]float64, dim)
		o.loss = e.LossAndGrad(w, o.grad)
		o.mse = e.MSE(w)
		if o.k, err = e.FitK(w); err != nil {
			t.Fatal(err)
		}
		e.SetK(o.k)
		res, err := e.Fit(make([]float64, dim), Options{MaxIterations: 50})
		if err != nil {
			t.Fatal(err)
		}
		o.fit = res.Weights
		unc, err := e.StdErrors(res.Weights, nil, Clustered)
		if err != nil {
			t.Fatal(err)
		}
		o.se = unc.SE
		return o
	}
	want := run(1)
	for _, workers := range []int{2, 3, 7, 64} {
		got := run(workers)
		if got.loss != want.loss || got.mse != want.mse || got.k != want.k || !slices.Equal(got.grad, want.grad) ||
			!slices.Equal(got.fit, want.fit) || !slices.Equal(got.se, want.se) {
			t.Errorf("%d workers: loss %v mse %v K %v fit %v se %v; one worker: loss %v mse %v K %v fit %v se %v",
				workers, got.loss, got.mse, got.k, got.fit, got.se, want.loss, want.mse, want.k, want.fit, want.se)
		}
	}
}
