// Package choice fits evaluation weights to the moves a player chose
// (comparison training: Tesauro 2001 for chess; Hoki's method in shogi
// engines). Texel's method (package tune/texel) fits the evaluation to
// game results; this package fits it so that, among the moves of a
// position, the evaluation ranks highest the move a stronger player made.
//
// # Model
//
// Position i offers moves m = 1..n_i. Each move's child is resolved to a
// quiet leaf (by the caller: the engine's quiescence line under the
// starting table) with feature vector φ_im, signed for the side to move
// at i, so that s_im = w·φ_im is the move's score in centipawns for the
// player choosing. The player is modelled as choosing m with probability
// softmax_m(s_im/T), and the move-choice loss is the mean cross-entropy of
// the moves played (c_i):
//
//	CE(w) = (1/N)·Σ_i [log Σ_m exp(s_im/T) − s_ic_i/T].
//
// A second term keeps the evaluation a predictor of results: the mean
// squared error of the played move's leaf score against the game result
// r_i from the mover's view (0, ½ or 1),
//
//	MSE(w) = (1/N)·Σ_i (σ(K·s_ic_i/400) − r_i)².
//
// The temperature T and the scale K are fitted once with the starting
// weights (each by golden-section search) and then kept, so that the
// fitted table keeps the centipawn scale the search's margins assume.
// The fit minimises
//
//	L(w) = CE(w)/CE(w0) + μ·MSE(w)/MSE(w0) + ρ·Σ_free (w_j − w0_j)²
//
// by L-BFGS (gonum/optimize): both terms are relative to their starting
// values, so that μ = 1 weighs them equally, and ρ (per squared
// centipawn) holds the weights near the starting table.
//
// Sums run over fixed chunks of positions in a fixed order, so a fit is
// deterministic whatever the number of workers.
package choice

import (
	"errors"
	"fmt"
	"math"

	"golang.org/x/sync/errgroup"

	"tamerlane/internal/stats"
	"tamerlane/tune/texel"
)

// Set holds positions with the quiet leaves of all their moves. The zero
// value is an empty set ready for Add. Once built it may be read from any
// number of goroutines.
type Set struct {
	// Leaf l has the features idx[leafOff[l]:leafOff[l+1]] (and val).
	leafOff []int
	idx     []int32
	val     []float32
	// Position i has the leaves posOff[i]..posOff[i+1]-1.
	posOff []int
	chosen []int32
	result []float32
	game   []int64
	dim    int
}

// Add appends a position: the feature vectors of its moves' leaves,
// signed for the side to move (at least two moves), the index of the move
// played, the game's result from the mover's view (0, 0.5 or 1) and a
// game identifier.
func (s *Set) Add(leaves [][]texel.Feature, chosen int, result float32, game int64) error {
	if len(leaves) < 2 {
		return fmt.Errorf("choice: a position needs at least two moves (got %d)", len(leaves))
	}
	if chosen < 0 || chosen >= len(leaves) {
		return fmt.Errorf("choice: chosen move %d out of range [0, %d)", chosen, len(leaves))
	}
	if !(result >= 0 && result <= 1) {
		return fmt.Errorf("choice: result %v not in [0, 1]", result)
	}
	for _, l := range leaves {
		for _, f := range l {
			if f.Index < 0 {
				return fmt.Errorf("choice: negative feature index %d", f.Index)
			}
			if math.IsNaN(float64(f.Value)) || math.IsInf(float64(f.Value), 0) {
				return fmt.Errorf("choice: feature %d has value %v", f.Index, f.Value)
			}
		}
	}
	if len(s.posOff) == 0 {
		s.posOff = []int{0}
		s.leafOff = []int{0}
	}
	for _, l := range leaves {
		for _, f := range l {
			s.idx = append(s.idx, f.Index)
			s.val = append(s.val, f.Value)
			s.dim = max(s.dim, int(f.Index)+1)
		}
		s.leafOff = append(s.leafOff, len(s.idx))
	}
	s.posOff = append(s.posOff, len(s.leafOff)-1)
	s.chosen = append(s.chosen, int32(chosen))
	s.result = append(s.result, result)
	s.game = append(s.game, game)
	return nil
}

// Len returns the number of positions.
func (s *Set) Len() int { return len(s.chosen) }

// Chosen returns the index of position i's chosen move among its leaves
// (in the order Add received them).
func (s *Set) Chosen(i int) int { return int(s.chosen[i]) }

// Leaves returns the number of leaves (moves) over all positions.
func (s *Set) Leaves() int {
	if len(s.leafOff) == 0 {
		return 0
	}
	return len(s.leafOff) - 1
}

// NumGames returns the number of distinct games.
func (s *Set) NumGames() int {
	seen := map[int64]bool{}
	for _, g := range s.game {
		seen[g] = true
	}
	return len(seen)
}

// Dim returns one more than the largest feature index seen.
func (s *Set) Dim() int { return s.dim }

// leafScore returns w·φ of leaf l.
func (s *Set) leafScore(w []float64, l int) float64 {
	var x float64
	for j := s.leafOff[l]; j < s.leafOff[l+1]; j++ {
		x += w[s.idx[j]] * float64(s.val[j])
	}
	return x
}

// addLeaf adds c·φ of leaf l to g.
func (s *Set) addLeaf(g []float64, l int, c float64) {
	for j := s.leafOff[l]; j < s.leafOff[l+1]; j++ {
		g[s.idx[j]] += c * float64(s.val[j])
	}
}

// Scores are the fit's measures on a set.
type Scores struct {
	// CE is the mean cross-entropy of the moves played.
	CE float64 `json:"ce"`
	// Top1 is the fraction of positions where the move played scores
	// highest (ties count for the first move in order).
	Top1 float64 `json:"top1"`
	// MSE is the mean squared error of the played moves' leaves against
	// the results.
	MSE float64 `json:"mse"`
}

// Evaluate returns the scores of weights w on s at temperature t and
// scale k.
func Evaluate(s *Set, w []float64, t, k float64) Scores {
	var sc Scores
	sums, _ := sumChunks(s.Len(), 0, 0, func(lo, hi int, _ []float64) [3]float64 {
		var out [3]float64
		var buf []float64
		for i := lo; i < hi; i++ {
			ce, top := s.choiceLoss(w, t, i, nil, 0, &buf)
			out[0] += ce
			if top {
				out[1]++
			}
			out[2] += s.resultError(w, k, i)
		}
		return out
	})
	n := float64(s.Len())
	sc.CE, sc.Top1, sc.MSE = sums[0]/n, sums[1]/n, sums[2]/n
	return sc
}

// resultMSE is Evaluate's MSE alone, which needs only the played moves'
// leaves.
func resultMSE(s *Set, w []float64, k float64) float64 {
	sums, _ := sumChunks(s.Len(), 0, 0, func(lo, hi int, _ []float64) [3]float64 {
		var out [3]float64
		for i := lo; i < hi; i++ {
			out[0] += s.resultError(w, k, i)
		}
		return out
	})
	return sums[0] / float64(s.Len())
}

// resultError returns (σ(K·s/400) − r)² of position i's played move.
func (s *Set) resultError(w []float64, k float64, i int) float64 {
	e := stats.Logistic(k*s.leafScore(w, s.posOff[i]+int(s.chosen[i]))/400) - float64(s.result[i])
	return e * e
}

// choiceLoss returns position i's cross-entropy and whether the played
// move scores highest, and adds c times the cross-entropy's gradient to
// g (when g is not nil). buf is scratch space.
func (s *Set) choiceLoss(w []float64, t float64, i int, g []float64, c float64, buf *[]float64) (float64, bool) {
	a, b := s.posOff[i], s.posOff[i+1]
	sc := (*buf)[:0]
	mx, best := math.Inf(-1), -1
	for l := a; l < b; l++ {
		x := s.leafScore(w, l) / t
		sc = append(sc, x)
		if x > mx {
			mx, best = x, l-a
		}
	}
	*buf = sc
	var z float64
	for _, x := range sc {
		z += math.Exp(x - mx)
	}
	ch := int(s.chosen[i])
	if g != nil {
		for m, x := range sc {
			p := math.Exp(x-mx) / z
			if m == ch {
				p--
			}
			if p != 0 {
				s.addLeaf(g, a+m, c*p/t)
			}
		}
	}
	return mx + math.Log(z) - sc[ch], best == ch
}

// numChunks is the number of position ranges the sums are split into
// (fixed, so that the sums do not depend on the number of workers).
const numChunks = 64

// sumChunks runs fn over numChunks consecutive ranges of [0, n) on up to
// workers goroutines (0: one per range) and returns the sums of its
// results and of its gradient buffers, in range order so that they do not
// depend on the scheduling. fn gets a zeroed buffer of length dim to add
// its gradient to (nil, and nil returned, when dim is 0).
func sumChunks(n, dim, workers int, fn func(lo, hi int, g []float64) [3]float64) ([3]float64, []float64) {
	sums := make([][3]float64, numChunks)
	grads := make([][]float64, numChunks)
	var eg errgroup.Group
	if workers > 0 {
		eg.SetLimit(workers)
	}
	for c := range numChunks {
		eg.Go(func() error {
			if dim > 0 {
				grads[c] = make([]float64, dim)
			}
			sums[c] = fn(c*n/numChunks, (c+1)*n/numChunks, grads[c])
			return nil
		})
	}
	eg.Wait()
	var sum [3]float64
	var g []float64
	if dim > 0 {
		g = make([]float64, dim)
	}
	for c := range numChunks {
		for k := range sum {
			sum[k] += sums[c][k]
		}
		for j, x := range grads[c] {
			g[j] += x
		}
	}
	return sum, g
}

// errEmpty is returned for a fit without positions.
var errEmpty = errors.New("choice: no positions")
