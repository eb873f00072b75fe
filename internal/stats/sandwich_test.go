package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestClusteredMean checks the clustered sandwich of a mean against its
// closed form: for x̄ of n observations in G clusters the score of
// observation i is x_i − x̄, the bread 1/n, and the variance
// Σ_c (Σ_{i∈c} (x_i − x̄))² / n² · G/(G−1).
func TestClusteredMean(t *testing.T) {
	clusters := [][]float64{{1, 2, 3}, {4}, {0, 0.5}, {7, 1}}
	n, sum := 0.0, 0.0
	for _, c := range clusters {
		for _, x := range c {
			n++
			sum += x
		}
	}
	mean := sum / n
	cs := NewClusterScores(1)
	meat := 0.0
	for _, c := range clusters {
		u := 0.0
		for _, x := range c {
			cs.Add(0, x-mean)
			u += x - mean
		}
		cs.Close()
		meat += u * u
	}
	if cs.Clusters() != 4 {
		t.Fatalf("Clusters() = %d, want 4", cs.Clusters())
	}
	g := 4.0
	want := meat / (n * n) * g / (g - 1)
	got := Sandwich(mat.NewSymDense(1, []float64{1 / n}), cs.Meat(), cs.Clusters()).At(0, 0)
	if math.Abs(got-want) > 1e-15*want {
		t.Errorf("clustered variance of the mean = %v, want %v", got, want)
	}
	if got0 := Sandwich(mat.NewSymDense(1, []float64{1 / n}), cs.Meat(), 0).At(0, 0); math.Abs(got0-meat/(n*n)) > 1e-15*want {
		t.Errorf("without the small-sample factor: %v, want %v", got0, meat/(n*n))
	}
}

// TestSandwichDense checks ClusterScores and Sandwich against the dense
// products: B = Σ_c u_c·u_cᵀ with gonum's rank-one update, and
// A⁻¹·B·A⁻¹ by two multiplications; a sparse cluster (touching few
// coordinates) and a merge of two accumulators give the same B.
func TestSandwichDense(t *testing.T) {
	const p = 5
	rng := rand.New(rand.NewPCG(1, 2))
	whole, first, second := NewClusterScores(p), NewClusterScores(p), NewClusterScores(p)
	dense := mat.NewSymDense(p, nil)
	for c := range 7 {
		u := make([]float64, p)
		part := first
		if c >= 3 {
			part = second
		}
		for range 4 {
			q := rng.IntN(p)
			if c%2 == 0 {
				q = rng.IntN(2) // sparse: only coordinates 0 and 1
			}
			v := rng.NormFloat64()
			u[q] += v
			whole.Add(q, v)
			part.Add(q, v)
		}
		whole.Close()
		part.Close()
		dense.SymRankOne(dense, 1, mat.NewVecDense(p, u))
	}
	first.Merge(second)
	if first.Clusters() != 7 || whole.Clusters() != 7 {
		t.Fatalf("clusters %d and %d, want 7", first.Clusters(), whole.Clusters())
	}
	for _, b := range []*mat.SymDense{whole.Meat(), first.Meat()} {
		if !mat.EqualApprox(b, dense, 1e-12) {
			t.Fatalf("meat\n%v\nwant\n%v", mat.Formatted(b), mat.Formatted(dense))
		}
	}
	x := mat.NewDense(p, p, nil)
	for i := range p {
		for j := range p {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	a := mat.NewSymDense(p, nil)
	a.SymOuterK(1, x) // positive definite
	var want, tmp mat.Dense
	tmp.Mul(a, dense)
	want.Mul(&tmp, a)
	want.Scale(7.0/6, &want)
	got := Sandwich(a, whole.Meat(), 7)
	if !mat.EqualApprox(got, &want, 1e-10) {
		t.Errorf("Sandwich\n%v\nwant\n%v", mat.Formatted(got), mat.Formatted(&want))
	}
}
