package stats

import "gonum.org/v1/gonum/mat"

// ClusterScores accumulates the meat B = Σ_c u_c·u_cᵀ of a clustered
// sandwich covariance, u_c being the sum of the score contributions of
// the observations of cluster c (the positions of one game, which share
// its result and so are not independent). Contributions are added with
// Add, cluster by cluster, and Close ends a cluster. A cluster touching
// few of the p coordinates costs the square of those it touches, not p².
type ClusterScores struct {
	p       int
	b       []float64 // upper triangle of B, row-major p×p
	u       []float64 // the open cluster's score sum
	touched []int     // coordinates of u added to since the last Close
	mark    []bool
	n       int
}

// NewClusterScores returns an empty accumulator of p coordinates.
func NewClusterScores(p int) *ClusterScores {
	return &ClusterScores{p: p, b: make([]float64, p*p), u: make([]float64, p),
		touched: make([]int, 0, p), mark: make([]bool, p)}
}

// Add adds v to coordinate q of the open cluster's score sum.
func (s *ClusterScores) Add(q int, v float64) {
	if !s.mark[q] {
		s.mark[q] = true
		s.touched = append(s.touched, q)
	}
	s.u[q] += v
}

// Close ends the open cluster: its score sum's outer product is added to
// B and the next Add starts a new cluster.
func (s *ClusterScores) Close() {
	for _, q1 := range s.touched {
		v := s.u[q1]
		row := s.b[q1*s.p:]
		for _, q2 := range s.touched {
			if q1 <= q2 {
				row[q2] += v * s.u[q2]
			}
		}
	}
	for _, q := range s.touched {
		s.u[q], s.mark[q] = 0, false
	}
	s.touched = s.touched[:0]
	s.n++
}

// Clusters returns the number of clusters closed, those merged included.
func (s *ClusterScores) Clusters() int { return s.n }

// Merge adds the clusters of o (of the same size) to s. Sums merged in a
// fixed order are the same bits whatever the number of workers that
// accumulated them.
func (s *ClusterScores) Merge(o *ClusterScores) {
	for k, v := range o.b {
		s.b[k] += v
	}
	s.n += o.n
}

// Meat returns B. It shares s's storage.
func (s *ClusterScores) Meat() *mat.SymDense { return mat.NewSymDense(s.p, s.b) }

// Sandwich returns the sandwich covariance A⁻¹·B·A⁻¹ from the bread A⁻¹
// (the inverse of the information, or of the half-Hessian of a loss) and
// the meat B (the variance of the score, for clustered data a
// ClusterScores' Meat), symmetrised as (C + Cᵀ)/2 against rounding. With
// clusters > 1 it is multiplied by the small-sample factor G/(G−1) for G
// clusters; clusters = 0 leaves the factor out.
func Sandwich(bread, meat *mat.SymDense, clusters int) *mat.SymDense {
	n := bread.SymmetricDim()
	var t, c mat.Dense
	t.Mul(bread, meat)
	c.Mul(&t, bread)
	g := float64(clusters)
	cov := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			v := (c.At(i, j) + c.At(j, i)) / 2
			if clusters > 1 {
				v = v * g / (g - 1)
			}
			cov.SetSym(i, j, v)
		}
	}
	return cov
}
