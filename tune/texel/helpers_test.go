package texel

import (
	"math/rand/v2"
	"testing"
)

// synthSpec describes a synthetic data set drawn from the model.
type synthSpec struct {
	n, nnz, dim int
	gameLen     int     // consecutive samples per game id
	k           float64 // true sigmoid scale (0 means 1)
	vmax        float64 // feature values uniform in [-vmax, vmax]
	seed        uint64
}

// synth draws a data set whose results follow the model exactly:
// E[result | x] = σ_K(w·x), with draws (result ½) with probability
// 2p(1−p). Each sample has nnz distinct features.
func synth(tb testing.TB, s synthSpec, w []float64) *Dataset {
	tb.Helper()
	if s.k == 0 {
		s.k = 1
	}
	if s.vmax == 0 {
		s.vmax = 1
	}
	rng := rand.New(rand.NewPCG(s.seed, 1))
	d := NewDataset(s.n, s.nnz)
	feats := make([]Feature, s.nnz)
	perm := make([]int32, s.dim)
	for i := range perm {
		perm[i] = int32(i)
	}
	for i := range s.n {
		for k := range s.nnz {
			j := k + rng.IntN(s.dim-k)
			perm[k], perm[j] = perm[j], perm[k]
			feats[k] = Feature{Index: perm[k], Value: float32((rng.Float64()*2 - 1) * s.vmax)}
		}
		ev := 0.0
		for _, f := range feats {
			ev += w[f.Index] * float64(f.Value)
		}
		p := Sigmoid(s.k, ev)
		var r float32
		switch u := rng.Float64(); {
		case u < p*p:
			r = 1
		case u < 1-(1-p)*(1-p):
			r = 0.5
		default:
			r = 0
		}
		if err := d.Add(feats, r, float32(ev+rng.NormFloat64()*30), int64(i/s.gameLen)); err != nil {
			tb.Fatal(err)
		}
	}
	return d
}

// randomWeights returns dim weights drawn from N(0, sd²).
func randomWeights(dim int, sd float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 2))
	w := make([]float64, dim)
	for j := range w {
		w[j] = rng.NormFloat64() * sd
	}
	return w
}
