package texel

import "testing"

// BenchmarkLossAndGrad measures loss+gradient throughput on 10⁶ samples
// with 40 nonzeros each out of 200 features. It reports positions per
// second overall and per worker goroutine (one worker per GOMAXPROCS, so
// "pos/s/core" is per core when the benchmark runs alone).
func BenchmarkLossAndGrad(b *testing.B) {
	const n, nnz, dim = 1_000_000, 40, 200
	w := randomWeights(dim, 50, 3)
	d := synth(b, synthSpec{n: n, nnz: nnz, dim: dim, gameLen: 100, vmax: 2, seed: 5}, w)
	e, err := NewEvaluator(d, dim, Config{})
	if err != nil {
		b.Fatal(err)
	}
	grad := make([]float64, dim)
	e.LossAndGrad(w, grad)
	b.ResetTimer()
	for b.Loop() {
		e.LossAndGrad(w, grad)
	}
	pos := float64(n) * float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(pos, "pos/s")
	b.ReportMetric(pos/float64(e.workers), "pos/s/core")
}
