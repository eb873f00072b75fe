package texel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Feature is one nonzero entry of a sparse feature vector.
type Feature struct {
	Index int32   // feature (weight) index, ≥ 0
	Value float32 // feature value, already tapered by game phase
}

// Dataset stores N training samples in compressed sparse row (CSR) form:
// the features of sample i are idx[off[i]:off[i+1]] and
// val[off[i]:off[i+1]]. The zero value is an empty data set ready for Add.
//
// A Dataset is not safe for concurrent mutation; once built it may be read
// from any number of goroutines.
type Dataset struct {
	off    []int64 // len N+1 once non-empty; off[0] == 0
	idx    []int32
	val    []float32
	result []float32
	score  []float32
	game   []int64
	dim    int // 1 + largest feature index seen

	// gameIdx maps each sample to a dense game number 0..numGames-1, built
	// lazily by games() and invalidated by Add.
	gameIdx  []int32
	numGames int
}

// NewDataset returns an empty data set with room for about n samples of
// nnz nonzero features each. Both are hints; Add grows the storage as
// needed.
func NewDataset(n, nnz int) *Dataset {
	if n < 0 {
		n = 0
	}
	if nnz < 0 {
		nnz = 0
	}
	d := &Dataset{
		off:    make([]int64, 1, n+1),
		idx:    make([]int32, 0, n*nnz),
		val:    make([]float32, 0, n*nnz),
		result: make([]float32, 0, n),
		score:  make([]float32, 0, n),
		game:   make([]int64, 0, n),
	}
	return d
}

// Add appends one sample: its sparse features (duplicate indices are
// allowed and add up), the game result from White's view (0, 0.5 or 1; any
// value in [0, 1] is accepted), the search score in centipawns from White's
// view, and the id of the game the position comes from. The features slice
// is copied. Add rejects negative feature indices and non-finite values.
func (d *Dataset) Add(features []Feature, result, score float32, game int64) error {
	if !(result >= 0 && result <= 1) {
		return fmt.Errorf("texel: result %v outside [0, 1]", result)
	}
	if math.IsNaN(float64(score)) || math.IsInf(float64(score), 0) {
		return fmt.Errorf("texel: score %v is not finite", score)
	}
	maxIdx := int32(-1)
	for _, f := range features {
		if f.Index < 0 {
			return fmt.Errorf("texel: negative feature index %d", f.Index)
		}
		if v := float64(f.Value); math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("texel: feature %d has non-finite value %v", f.Index, f.Value)
		}
		maxIdx = max(maxIdx, f.Index)
	}
	if len(d.off) == 0 {
		d.off = append(d.off, 0)
	}
	for _, f := range features {
		d.idx = append(d.idx, f.Index)
		d.val = append(d.val, f.Value)
	}
	d.off = append(d.off, int64(len(d.idx)))
	d.result = append(d.result, result)
	d.score = append(d.score, score)
	d.game = append(d.game, game)
	d.dim = max(d.dim, int(maxIdx)+1)
	d.gameIdx = nil
	return nil
}

// Len returns the number of samples.
func (d *Dataset) Len() int { return len(d.result) }

// NumFeatures returns one more than the largest feature index seen, i.e. the
// minimum length of a weight vector for this data set.
func (d *Dataset) NumFeatures() int { return d.dim }

// NNZ returns the total number of stored feature entries.
func (d *Dataset) NNZ() int { return len(d.idx) }

// Row returns the feature indices and values of sample i as sub-slices of
// the internal storage (no allocation). The caller must not modify them.
func (d *Dataset) Row(i int) (idx []int32, val []float32) {
	lo, hi := d.off[i], d.off[i+1]
	return d.idx[lo:hi:hi], d.val[lo:hi:hi]
}

// Result returns the game result of sample i from White's view.
func (d *Dataset) Result(i int) float32 { return d.result[i] }

// Score returns the search score of sample i in centipawns, White's view.
func (d *Dataset) Score(i int) float32 { return d.score[i] }

// Game returns the game id of sample i.
func (d *Dataset) Game(i int) int64 { return d.game[i] }

// games returns the dense game number of every sample and the number of
// distinct games. Game numbers follow the order of first appearance.
func (d *Dataset) games() ([]int32, int) {
	if d.gameIdx != nil || d.Len() == 0 {
		return d.gameIdx, d.numGames
	}
	ids := make(map[int64]int32)
	gi := make([]int32, d.Len())
	for i, g := range d.game {
		k, ok := ids[g]
		if !ok {
			k = int32(len(ids))
			ids[g] = k
		}
		gi[i] = k
	}
	d.gameIdx, d.numGames = gi, len(ids)
	return gi, len(ids)
}

// NumGames returns the number of distinct game ids.
func (d *Dataset) NumGames() int {
	_, n := d.games()
	return n
}

// Subset returns a new data set holding copies of the given samples, in the
// given order (an index may repeat). The subset keeps the parent's
// NumFeatures so that weight vectors fit both.
func (d *Dataset) Subset(rows []int) *Dataset {
	nnz := 0
	for _, r := range rows {
		nnz += int(d.off[r+1] - d.off[r])
	}
	s := &Dataset{
		off:    make([]int64, 1, len(rows)+1),
		idx:    make([]int32, 0, nnz),
		val:    make([]float32, 0, nnz),
		result: make([]float32, 0, len(rows)),
		score:  make([]float32, 0, len(rows)),
		game:   make([]int64, 0, len(rows)),
	}
	for _, r := range rows {
		idx, val := d.Row(r)
		s.idx = append(s.idx, idx...)
		s.val = append(s.val, val...)
		s.off = append(s.off, int64(len(s.idx)))
		s.result = append(s.result, d.result[r])
		s.score = append(s.score, d.score[r])
		s.game = append(s.game, d.game[r])
	}
	s.dim = d.dim
	return s
}

// Split divides the data set by game into a training and a validation set.
// The distinct game ids are sorted, shuffled with a PCG generator seeded by
// seed, and the first round(fraction·games) of them go to the validation
// set; every position of a game lands in the same half. Sample order within
// each half follows the original order. fraction must lie in [0, 1].
func (d *Dataset) Split(fraction float64, seed uint64) (train, valid *Dataset, err error) {
	if !(fraction >= 0 && fraction <= 1) {
		return nil, nil, errors.New("texel: split fraction outside [0, 1]")
	}
	ids := make([]int64, 0)
	seen := make(map[int64]bool)
	for _, g := range d.game {
		if !seen[g] {
			seen[g] = true
			ids = append(ids, g)
		}
	}
	slices.Sort(ids)
	rng := rand.New(rand.NewPCG(seed, 0x7465786c))
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	nValid := int(math.Round(fraction * float64(len(ids))))
	inValid := make(map[int64]bool, nValid)
	for _, g := range ids[:nValid] {
		inValid[g] = true
	}
	var tr, va []int
	for i, g := range d.game {
		if inValid[g] {
			va = append(va, i)
		} else {
			tr = append(tr, i)
		}
	}
	return d.Subset(tr), d.Subset(va), nil
}
