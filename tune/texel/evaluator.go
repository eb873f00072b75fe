package texel

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"

	"tamerlane/internal/stats"
)

// logScale converts centipawns to natural-log odds at K = 1:
// 10^(−e/400) = exp(−logScale·e).
const logScale = math.Ln10 / 400

// Sigmoid returns the Texel expected score σ_K(e) = 1/(1 + 10^(−K·e/400))
// of an evaluation e in centipawns.
func Sigmoid(k, e float64) float64 {
	return stats.Logistic(k * logScale * e)
}

// Config holds the loss settings of an Evaluator.
type Config struct {
	// K is the sigmoid scale; zero means 1.
	K float64
	// Lambda mixes the search score into the target:
	// t = (1−Lambda)·result + Lambda·σ_K(score). Must lie in [0, 1].
	Lambda float64
	// Prior is the strength P ≥ 0 of the ridge penalty
	// (P/C)·Σ_j (w_j − Center_j)², C being the total sample weight.
	Prior float64
	// Center is the prior mean μ; nil means all zeros. It is copied.
	Center []float64
	// PriorScale holds per-weight factors s_j ≥ 0 of the penalty, which
	// becomes (P/C)·Σ_j s_j²·(w_j − μ_j)²; nil means all 1. It is copied.
	PriorScale []float64
	// Workers is the number of goroutines used per evaluation; zero means
	// runtime.GOMAXPROCS(0).
	Workers int
}

// Evaluator computes the loss and its gradient over a Dataset in parallel.
// It owns reusable per-worker gradient buffers and a pool of persistent
// worker goroutines (started on first use), so Loss and LossAndGrad
// allocate nothing at all after the first call. An Evaluator is not safe
// for concurrent use; the Dataset must not be modified while the Evaluator
// is in use.
type Evaluator struct {
	data    *Dataset
	dim     int
	k       float64
	lambda  float64
	prior   float64
	pscale2 []float64   // s_j² of Config.PriorScale, len dim
	center  []float64   // len dim
	workers int         // goroutines per evaluation, at most one per chunk
	chunks  []int       // row boundaries of the chunks (chunkCount(rows)+1)
	grads   [][]float64 // per-chunk gradient accumulators, len dim each
	partial []float64   // per-chunk partial sums
	target  []float32   // per-sample target when lambda > 0, else nil
	weight  []float32   // per-sample weight, nil means 1
	sumW    float64     // Σ weights
	evals   []float64   // per-sample evaluations, allocated by FitK
	rms     []float64   // per-feature root mean square, built by featureRMS

	pool     *pool          // persistent workers, started on first use
	wg       sync.WaitGroup // completion of the pool's tasks
	curW     []float64      // argument of the preallocated tasks below
	lossGrad func(c, lo, hi int)
	lossOnly func(c, lo, hi int)
}

// NewEvaluator returns an Evaluator for data set d and weight vectors of
// length dim (zero means d.NumFeatures()).
func NewEvaluator(d *Dataset, dim int, cfg Config) (*Evaluator, error) {
	if d == nil || d.Len() == 0 {
		return nil, errors.New("texel: empty data set")
	}
	if dim == 0 {
		dim = d.NumFeatures()
	}
	if dim < d.NumFeatures() {
		return nil, fmt.Errorf("texel: dim %d < data set's %d features", dim, d.NumFeatures())
	}
	if cfg.K == 0 {
		cfg.K = 1
	}
	if !(cfg.K > 0) || math.IsInf(cfg.K, 0) {
		return nil, fmt.Errorf("texel: K = %v, want finite > 0", cfg.K)
	}
	if !(cfg.Lambda >= 0 && cfg.Lambda <= 1) {
		return nil, fmt.Errorf("texel: Lambda = %v outside [0, 1]", cfg.Lambda)
	}
	if !(cfg.Prior >= 0) || math.IsInf(cfg.Prior, 0) {
		return nil, fmt.Errorf("texel: Prior = %v, want finite ≥ 0", cfg.Prior)
	}
	if cfg.Center != nil && len(cfg.Center) != dim {
		return nil, fmt.Errorf("texel: len(Center) = %d, want %d", len(cfg.Center), dim)
	}
	if cfg.PriorScale != nil && len(cfg.PriorScale) != dim {
		return nil, fmt.Errorf("texel: len(PriorScale) = %d, want %d", len(cfg.PriorScale), dim)
	}
	pscale2 := make([]float64, dim)
	for j := range pscale2 {
		pscale2[j] = 1
		if cfg.PriorScale != nil {
			x := cfg.PriorScale[j]
			if !(x >= 0) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("texel: PriorScale[%d] = %v, want finite ≥ 0", j, x)
			}
			pscale2[j] = x * x
		}
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunks := chunkCount(d.Len())
	workers = min(workers, chunks)
	e := &Evaluator{
		data:    d,
		dim:     dim,
		lambda:  cfg.Lambda,
		prior:   cfg.Prior,
		pscale2: pscale2,
		center:  make([]float64, dim),
		workers: workers,
		partial: make([]float64, chunks),
		grads:   make([][]float64, chunks),
		sumW:    float64(d.Len()),
	}
	copy(e.center, cfg.Center)
	for t := range e.grads {
		e.grads[t] = make([]float64, dim)
	}
	e.chunks = balance(d.off, chunks)
	e.lossGrad = func(c, lo, hi int) {
		e.partial[c] = e.chunkLossGrad(e.curW, e.grads[c], lo, hi)
	}
	e.lossOnly = func(c, lo, hi int) {
		e.partial[c] = e.chunkLoss(e.curW, lo, hi)
	}
	e.SetK(cfg.K)
	return e, nil
}

// balance splits the rows described by CSR offsets off into n contiguous
// chunks of about equal work (one unit per row plus one per nonzero).
//
// The sums of an evaluation are taken per chunk and added in chunk order;
// the chunks depend on the data alone (chunkCount), so that a fit gives
// the same bits whatever the number of workers or CPUs.
func balance(off []int64, n int) []int {
	rows := len(off) - 1
	total := int64(rows) + off[rows]
	b := make([]int, n+1)
	for t := 1; t < n; t++ {
		goal := total * int64(t) / int64(n)
		b[t] = sort.Search(rows, func(i int) bool { return int64(i)+off[i] >= goal })
		b[t] = max(b[t], b[t-1])
	}
	b[n] = rows
	return b
}

// maxChunks bounds the number of chunks of an evaluation; chunkRows is
// about the fewest rows a chunk gets, so that small data sets do not pay
// for clearing and adding many gradient buffers.
const (
	maxChunks = 64
	chunkRows = 256
)

// chunkCount is the number of chunks of a data set of rows rows: a
// function of the data only, never of the machine.
func chunkCount(rows int) int {
	return min(maxChunks, max(1, rows/chunkRows))
}

// Dim returns the length of the weight vectors this Evaluator expects.
func (e *Evaluator) Dim() int { return e.dim }

// Data returns the Evaluator's data set.
func (e *Evaluator) Data() *Dataset { return e.data }

// K returns the current sigmoid scale.
func (e *Evaluator) K() float64 { return e.k }

// Prior returns the strength P of the ridge penalty.
func (e *Evaluator) Prior() float64 { return e.prior }

// SetPrior changes the strength P ≥ 0 of the ridge penalty around the
// Config's Center (the data and K are kept), so that a path of fits over
// several strengths reuses one Evaluator.
func (e *Evaluator) SetPrior(p float64) error {
	if !(p >= 0) || math.IsInf(p, 0) {
		return fmt.Errorf("texel: Prior = %v, want finite ≥ 0", p)
	}
	e.prior = p
	return nil
}

// SetK sets the sigmoid scale (k > 0) and, when Lambda > 0, recomputes the
// per-sample targets, which depend on K.
func (e *Evaluator) SetK(k float64) {
	if !(k > 0) || math.IsInf(k, 0) {
		panic(fmt.Sprintf("texel: SetK(%v): want finite > 0", k))
	}
	e.k = k
	if e.lambda == 0 {
		e.target = nil
		return
	}
	if e.target == nil {
		e.target = make([]float32, e.data.Len())
	}
	for i := range e.target {
		e.target[i] = float32((1-e.lambda)*float64(e.data.result[i]) +
			e.lambda*Sigmoid(k, float64(e.data.score[i])))
	}
}

// setWeights installs per-sample weights (nil restores unit weights).
func (e *Evaluator) setWeights(w []float32) {
	e.weight = w
	if w == nil {
		e.sumW = float64(e.data.Len())
		return
	}
	s := 0.0
	for _, c := range w {
		s += float64(c)
	}
	e.sumW = s
}

// targets returns the per-sample targets.
func (e *Evaluator) targets() []float32 {
	if e.target != nil {
		return e.target
	}
	return e.data.result
}

// pool is a set of persistent worker goroutines that run chunk tasks. It
// holds no reference to the Evaluator, so a cleanup attached to the
// Evaluator can stop it.
type pool struct {
	tasks chan poolTask
	stop  sync.Once
}

type poolTask struct {
	fn            func(c, lo, hi int)
	chunks        []int // row boundaries
	first, stride int   // the chunks first, first+stride, ... are this task's
	done          *sync.WaitGroup
}

func newPool(n int) *pool {
	p := &pool{tasks: make(chan poolTask, n)}
	for range n {
		go func() {
			for tk := range p.tasks {
				runStride(tk.fn, tk.chunks, tk.first, tk.stride)
				tk.done.Done()
			}
		}()
	}
	return p
}

func (p *pool) close() { p.stop.Do(func() { close(p.tasks) }) }

// Close stops the Evaluator's worker goroutines. The Evaluator stays
// usable: they are restarted on the next call that needs them. Calling
// Close is optional (a cleanup stops them once the Evaluator is garbage),
// but it releases them deterministically.
func (e *Evaluator) Close() {
	if e.pool != nil {
		e.pool.close()
		e.pool = nil
	}
}

// parallel runs fn(c, lo, hi) for every chunk c of rows [lo, hi) and
// waits. Worker t runs the chunks t, t+workers, ...: worker 0 on the
// calling goroutine, the others on the persistent pool, so a call
// allocates nothing when fn is a preallocated function value. fn writes
// its results by chunk, for the caller to add in chunk order.
func (e *Evaluator) parallel(fn func(c, lo, hi int)) {
	if e.workers == 1 {
		runStride(fn, e.chunks, 0, 1)
		return
	}
	if e.pool == nil {
		e.pool = newPool(e.workers - 1)
		runtime.AddCleanup(e, (*pool).close, e.pool)
	}
	e.wg.Add(e.workers - 1)
	for t := 1; t < e.workers; t++ {
		e.pool.tasks <- poolTask{fn: fn, chunks: e.chunks, first: t, stride: e.workers, done: &e.wg}
	}
	runStride(fn, e.chunks, 0, e.workers)
	e.wg.Wait()
}

// runStride runs fn on the chunks first, first+stride, ... of the row
// boundaries chunks.
func runStride(fn func(c, lo, hi int), chunks []int, first, stride int) {
	for c := first; c < len(chunks)-1; c += stride {
		fn(c, chunks[c], chunks[c+1])
	}
}

func (e *Evaluator) checkLen(w []float64) {
	if len(w) != e.dim {
		panic(fmt.Sprintf("texel: len(w) = %d, want %d", len(w), e.dim))
	}
}

// penalty returns Σ_j s_j²·(w_j − μ_j)².
func (e *Evaluator) penalty(w []float64) float64 {
	if e.prior == 0 {
		return 0
	}
	s := 0.0
	for j, x := range w {
		d := x - e.center[j]
		s += e.pscale2[j] * d * d
	}
	return s
}

// LossAndGrad returns the loss L(w) (see the package documentation) and
// stores ∂L/∂w in grad, which must have length Dim().
func (e *Evaluator) LossAndGrad(w, grad []float64) float64 {
	e.checkLen(w)
	e.checkLen(grad)
	e.curW = w
	e.parallel(e.lossGrad)
	e.curW = nil
	inv := 1 / e.sumW
	sse := 0.0
	for _, p := range e.partial {
		sse += p
	}
	copy(grad, e.grads[0])
	for c := 1; c < len(e.grads); c++ {
		g := e.grads[c][:len(grad)]
		for j, v := range g {
			grad[j] += v
		}
	}
	pw := 2 * e.prior
	for j := range grad {
		grad[j] = (grad[j] + pw*e.pscale2[j]*(w[j]-e.center[j])) * inv
	}
	return (sse + e.prior*e.penalty(w)) * inv
}

// chunkLossGrad accumulates the weighted squared error of rows [lo, hi)
// and, when g is not nil, writes its (unnormalised) gradient into g.
func (e *Evaluator) chunkLossGrad(w, g []float64, lo, hi int) float64 {
	clear(g)
	d := e.data
	off := d.off[lo : hi+1]
	idx, val := d.idx, d.val
	tgt := e.targets()[lo:hi]
	var cw []float32
	if e.weight != nil {
		cw = e.weight[lo:hi]
	}
	a := e.k * logScale
	sse := 0.0
	for i := range tgt {
		s, t := off[i], off[i+1]
		ri := idx[s:t]
		rv := val[s:t]
		rv = rv[:len(ri)]
		p := stats.Logistic(a * rowDot(w, ri, rv))
		r := float64(tgt[i]) - p
		c := 1.0
		if cw != nil {
			c = float64(cw[i])
		}
		sse += c * r * r
		if g == nil {
			continue
		}
		coef := -2 * c * r * a * p * (1 - p)
		for k, j := range ri {
			g[j] += coef * float64(rv[k])
		}
	}
	return sse
}

// chunkLoss is chunkLossGrad without the gradient.
func (e *Evaluator) chunkLoss(w []float64, lo, hi int) float64 {
	return e.chunkLossGrad(w, nil, lo, hi)
}

// Loss returns L(w), prior included.
func (e *Evaluator) Loss(w []float64) float64 {
	e.checkLen(w)
	return (e.sse(w) + e.prior*e.penalty(w)) / e.sumW
}

// MSE returns the weighted mean squared error at w, without the prior term.
func (e *Evaluator) MSE(w []float64) float64 {
	e.checkLen(w)
	return e.sse(w) / e.sumW
}

func (e *Evaluator) sse(w []float64) float64 {
	e.curW = w
	e.parallel(e.lossOnly)
	e.curW = nil
	s := 0.0
	for _, p := range e.partial {
		s += p
	}
	return s
}

// Evals stores the evaluation Σ_j w_j·x_ij of every sample in dst (grown
// as needed) and returns it.
func (e *Evaluator) Evals(w []float64, dst []float64) []float64 {
	e.checkLen(w)
	if cap(dst) < e.data.Len() {
		dst = make([]float64, e.data.Len())
	}
	dst = dst[:e.data.Len()]
	d := e.data
	e.parallel(func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			ri, rv := d.Row(i)
			dst[i] = rowDot(w, ri, rv)
		}
	})
	return dst
}

// featureRMS returns the root mean square of every feature over the data
// (unweighted), computed once.
func (e *Evaluator) featureRMS() []float64 {
	if e.rms != nil {
		return e.rms
	}
	sum := make([]float64, e.dim)
	for k, j := range e.data.idx {
		v := float64(e.data.val[k])
		sum[j] += v * v
	}
	n := float64(e.data.Len())
	for j := range sum {
		sum[j] = math.Sqrt(sum[j] / n)
	}
	e.rms = sum
	return sum
}

// rowDot returns Σ_k w[idx[k]]·val[k] with two accumulators to shorten the
// floating-point dependency chain. len(val) must be ≥ len(idx).
func rowDot(w []float64, idx []int32, val []float32) float64 {
	val = val[:len(idx)]
	var e0, e1 float64
	k := 0
	for ; k+1 < len(idx); k += 2 {
		e0 += w[idx[k]] * float64(val[k])
		e1 += w[idx[k+1]] * float64(val[k+1])
	}
	if k < len(idx) {
		e0 += w[idx[k]] * float64(val[k])
	}
	return e0 + e1
}
