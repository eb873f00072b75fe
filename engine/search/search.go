package search

import (
	"context"
	"fmt"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/eval"
)

// Score bounds. A score s with |s| >= MateBound is a forced win or loss by
// rule (checkmate, a winning stalemate, a bare King, the capture of the
// last royal) in MateScore-|s| plies.
const (
	MaxPly    = 128
	MateScore = 32000
	MateBound = MateScore - 2*MaxPly
	infinity  = MateScore + 1
	// evalLimit bounds static evaluations well inside the mate scores.
	evalLimit = MateBound - 1000
)

// Limits bound a search. Every non-zero limit applies and the first one
// reached stops the search; with none, the search runs to the maximum
// depth or until its context is done. A search with only Depth and/or
// Nodes never looks at the clock, so its result depends only on the
// position, the limits and the searcher's state (deterministic on any
// hardware).
type Limits struct {
	Depth int   // iterations of iterative deepening (plies)
	Nodes int64 // nodes: moves made in the tree, as Stockfish counts them
	// MoveTime is the wall time at which the search stops, in the middle
	// of an iteration if need be. Alone it is a fixed time per move
	// ("go movetime"): iterations start until it is spent.
	MoveTime time.Duration
	// Optimum, when positive, manages the time of a move played on a
	// clock: the time the move should take when the search sees nothing
	// special, with MoveTime the maximum. After each iteration it is
	// scaled up when the score falls or the best move changes and down
	// while the best move stands, and no new iteration starts past a
	// fraction of the scaled target (see timing.go).
	Optimum time.Duration
	// Info, when set, is called after every completed iteration with the
	// result so far (protocols print it as an info line). It runs on the
	// searching goroutine and must not keep PV past the call.
	Info func(Result)
}

// Result is a search's answer.
type Result struct {
	Best     engine.Move   // NullMove only if the side to move has no legal move
	Score    int           // centipawns, side to move; ±(MateScore-plies) for a forced result
	Mate     int           // moves to a forced win (>0) or loss (<0); 0 if none found
	Depth    int           // last completed iteration (0 if none completed)
	SelDepth int           // deepest ply reached, quiescence included
	Nodes    int64         // nodes searched
	NPS      int64         // nodes per second
	PV       []engine.Move // principal variation from pos, starting with Best
	Elapsed  time.Duration // wall time
}

// Searcher is a single-threaded alpha-beta searcher with its own
// transposition table, killer moves and history. Reuse it for the moves of
// one game from one goroutine; it is not safe for concurrent use.
type Searcher struct {
	ev  *eval.Evaluator
	reg *eval.Registry
	tt  *table

	// variant facts, set per search
	v        *engine.Variant
	value    []int32 // by piece type: material value for move ordering
	seeVal   []int32 // by piece type: value for static exchange (royals high)
	zones    *engine.CheckZones
	nullMin  int  // non-pawn pieces the side to move needs for null move
	exchange bool // the variant has swaps or successions
	// verifyNull: null-move cutoffs are verified at every depth (where
	// stalemate loses, zugzwang is real)
	verifyNull bool

	pos       *engine.Position
	ctx       context.Context
	nodes     int64
	lineOnly  bool // QuiescenceLine: no table cutoffs
	nodeLimit int64
	deadline  time.Time
	timed     bool
	stop      bool
	rootDepth int
	selDepth  int

	moves  [MaxPly + 1]engine.MoveList
	scores [MaxPly + 1][engine.MaxMoves]int32
	// keys are the scores packed with their moves (orderKey), for pick
	keys [MaxPly + 1][engine.MaxMoves]uint64
	// pending marks a capture scored as a good one whose static exchange
	// is not yet known (see pick)
	pending [MaxPly + 1][engine.MaxMoves]bool
	// npending counts the pending moves of each ply's list
	npending [MaxPly + 1]int
	// sorted marks a list whose unpicked moves are in order (see pick)
	sorted  [MaxPly + 1]bool
	killers [MaxPly + 2][2]engine.Move
	nullAt  [MaxPly + 1]bool
	// verifying marks a node re-searched to verify a null-move cutoff
	verifying [MaxPly + 1]bool
	hist      histories
	plies     [MaxPly + 1]plyInfo
	counter   [64][engine.NumSquares]engine.Move // by the last move's piece and destination
	// staticAt is the static evaluation at each ply (-infinity in check)
	staticAt    [MaxPly + 1]int
	quietsTried [MaxPly + 1][]engine.Move
	// capturesTried are the captures tried at each ply (capture history)
	capturesTried [MaxPly + 1][]engine.Move
	lmr           [64][64]int8
	pv            [MaxPly + 1][MaxPly + 1]engine.Move
	pvLen         [MaxPly + 1]int

	evalCache []evalEntry

	root      []rootMove
	rootBest  engine.Move
	rootScore int
	bestPV    [MaxPly + 1]engine.Move
	bestLen   int

	// last is the previous search, whose score time management compares
	// with when the next search is two plies later in the same game.
	last lastSearch
}

// lastSearch is what a search leaves for the next one's time management.
type lastSearch struct {
	v     *engine.Variant
	ply   int // the game ply of the position searched
	score int
}

type rootMove struct {
	m     engine.Move
	order int32
	noisy bool // a capture or promotion
}

// New returns a searcher that evaluates with ev and owns a transposition
// table of about ttMiB mebibytes (a power-of-two number of 64-byte
// buckets; at least 1 MiB).
func New(ev *eval.Evaluator, ttMiB int) *Searcher {
	s := &Searcher{ev: ev, reg: ev.Registry(), tt: newTable(ttMiB), evalCache: make([]evalEntry, evalCacheSize)}
	for i := range s.quietsTried {
		s.quietsTried[i] = make([]engine.Move, 0, engine.MaxMoves)
		s.capturesTried[i] = make([]engine.Move, 0, engine.MaxMoves)
	}
	s.initLMR()
	return s
}

// Clear resets the searcher: transposition table, killers, history and
// the previous search that time management compares with.
func (s *Searcher) Clear() {
	s.tt.clear()
	clear(s.evalCache)
	s.killers = [MaxPly + 2][2]engine.Move{}
	s.hist.clear()
	s.counter = [64][engine.NumSquares]engine.Move{}
	s.last = lastSearch{}
}

// setup reads the variant's facts the search needs.
func (s *Searcher) setup(v *engine.Variant) {
	if v.Name != s.reg.Variant() {
		panic(fmt.Sprintf("search: evaluator for %s given a %s position", s.reg.Variant(), v.Name))
	}
	if s.v == v {
		return
	}
	s.v = v
	s.hist.reset(v)
	s.zones = engine.NewCheckZones(v)
	n := v.NumTypes()
	s.value = make([]int32, n+1)
	s.seeVal = make([]int32, n+1)
	w := s.ev.Weights()
	extra := int32(0)
	if i := s.reg.ExtraRoyalIndex(); i >= 0 {
		extra = int32(w.Values[i])
	}
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		val := int32(w.Values[s.reg.MaterialIndex(engine.PieceType(t))])
		if d.Royal && val < extra {
			val = extra // capturing one of several royals takes a life
		}
		if val < 1 {
			val = 1
		}
		s.value[t] = val
		s.seeVal[t] = val
		if d.Royal {
			s.seeVal[t] = max(val, seeRoyal)
		}
	}
	// Null-move pruning assumes that passing is never better than the best
	// move (no zugzwang). Where stalemate loses (docs/rules.md 3.6, 5.2) running
	// out of moves is itself a loss, so demand more material.
	s.nullMin = 1
	if v.Stalemate == engine.StalemateLoses {
		s.nullMin = 3
	}
	s.exchange = v.Exchange != nil
	s.verifyNull = v.Stalemate == engine.StalemateLoses
}

// seeRoyal is a royal's least value in static exchanges: a royal does not
// recapture onto a defended square.
const seeRoyal = 20000

// Search searches pos within the limits and returns the best move found.
// pos is restored on return. If the side to move has a legal move, Best is
// one of them whatever the limits. The context stops the search early.
func (s *Searcher) Search(ctx context.Context, pos *engine.Position, lim Limits) Result {
	start := time.Now()
	s.setup(pos.Variant())
	s.pos, s.ctx = pos, ctx
	s.nodes, s.stop, s.selDepth = 0, false, 0
	s.nodeLimit = lim.Nodes
	s.timed = lim.MoveTime > 0
	if s.timed {
		s.deadline = start.Add(lim.MoveTime)
	}
	s.tt.newSearch()
	for c := range s.hist.butterfly {
		for i := range s.hist.butterfly[c] {
			s.hist.butterfly[c][i] /= 2
		}
	}
	s.killers = [MaxPly + 2][2]engine.Move{}
	// The root's static evaluation, which "improving" compares with two
	// plies down.
	s.staticAt[0] = -infinity
	if !pos.InCheck() {
		s.staticAt[0] = s.evaluate()
	}

	res := Result{}
	ml := &s.moves[0]
	pos.GenerateLegal(ml)
	if ml.N == 0 {
		res.Score = s.noMoves(0, pos.InCheck())
		res.Elapsed = time.Since(start)
		return res
	}
	// Root moves, ordered once by the usual heuristics.
	var ttMove engine.Move
	if e := s.tt.probe(pos.Hash()); e != nil {
		ttMove = e.move
	}
	s.scoreMoves(ml, 0, ttMove)
	s.resolve(ml, 0)
	s.root = s.root[:0]
	for i := 0; i < ml.N; i++ {
		m := ml.Moves[i]
		s.root = append(s.root, rootMove{m: m, order: s.scores[0][i], noisy: pos.IsCapture(m) || m.Kind() == engine.KindPromotion})
	}
	sortRoot(s.root)
	res.Best = s.root[0].m
	s.bestPV[0], s.bestLen = res.Best, 1

	maxDepth := MaxPly - 1
	if lim.Depth > 0 && lim.Depth < maxDepth {
		maxDepth = lim.Depth
	}
	var tm *timeManager
	if lim.Optimum > 0 {
		prev, ok := s.last.score, s.last.v == pos.Variant() && s.last.ply+2 == pos.GamePly()
		tm = newTimeManager(lim.Optimum, lim.MoveTime, len(s.root) == 1, prev, ok)
	}
	for d := 1; d <= maxDepth; d++ {
		s.rootDepth = d
		s.rootBest = engine.NullMove
		score := s.aspire(d, res.Score)
		if s.stop {
			// A partial iteration counts only if a root move beat the
			// previous best line in full.
			if s.rootBest != engine.NullMove && s.rootBest != res.Best {
				res.Best, res.Score = s.rootBest, s.rootScore
				s.bestLen = copy(s.bestPV[:], s.pv[0][:s.pvLen[0]])
			}
			break
		}
		res.Best, res.Score, res.Depth = s.root[0].m, score, d
		s.bestLen = copy(s.bestPV[:], s.pv[0][:s.pvLen[0]])
		if lim.Info != nil {
			info := res
			info.PV = s.bestPV[:s.bestLen]
			info.Mate, info.Nodes, info.SelDepth = mateMoves(score), s.nodes, s.selDepth
			info.Elapsed = time.Since(start)
			if info.Elapsed > 0 {
				info.NPS = int64(float64(info.Nodes) / info.Elapsed.Seconds())
			}
			lim.Info(info)
		}
		if tm != nil {
			if time.Since(start) > tm.completed(d, res.Best, score) {
				break
			}
		} else if s.timed && time.Since(start) >= lim.MoveTime {
			break
		}
		// A forced result found at twice its length will not change: a
		// shorter mate that the pruning hid at a smaller depth would have
		// shown by then (so a mate in three found at depth 6 is searched
		// on, and may turn into a mate in two at depth 7).
		if abs(score) >= MateBound && 2*(MateScore-abs(score)) < d {
			break
		}
	}
	if s.bestLen == 0 || s.bestPV[0] != res.Best {
		s.bestPV[0], s.bestLen = res.Best, 1
	}
	res.PV = append([]engine.Move(nil), s.bestPV[:s.bestLen]...)
	s.last = lastSearch{v: pos.Variant(), ply: pos.GamePly(), score: res.Score}
	res.Mate = mateMoves(res.Score)
	res.Nodes, res.SelDepth = s.nodes, s.selDepth
	res.Elapsed = time.Since(start)
	if res.Elapsed > 0 {
		res.NPS = int64(float64(res.Nodes) / res.Elapsed.Seconds())
	}
	s.pos, s.ctx = nil, nil
	return res
}

func mateMoves(score int) int {
	switch {
	case score >= MateBound:
		return (MateScore - score + 1) / 2
	case score <= -MateBound:
		return -(MateScore + score) / 2
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sortRoot(r []rootMove) {
	// insertion sort, highest order first, ties by move code so that the
	// order does not depend on the order of generation
	for i := 1; i < len(r); i++ {
		x := r[i]
		j := i
		for j > 0 && (r[j-1].order < x.order || r[j-1].order == x.order && r[j-1].m > x.m) {
			r[j] = r[j-1]
			j--
		}
		r[j] = x
	}
}

// aspirationDepth is the first iteration searched with a window around
// the previous iteration's score; aspirationWindow its half width.
const (
	aspirationDepth  = 4
	aspirationWindow = 35
)

// aspire runs one iteration with an aspiration window around prev,
// widened on each failure until the score falls inside.
func (s *Searcher) aspire(depth, prev int) int {
	if depth < aspirationDepth || abs(prev) >= MateBound {
		return s.searchRoot(depth, -infinity, infinity)
	}
	delta := aspirationWindow
	alpha, beta := max(prev-delta, -infinity), min(prev+delta, infinity)
	for {
		score := s.searchRoot(depth, alpha, beta)
		if s.stop {
			return score
		}
		switch {
		case score <= alpha:
			beta = (alpha + beta) / 2
			alpha = max(score-delta, -infinity)
		case score >= beta:
			beta = min(score+delta, infinity)
		default:
			return score
		}
		delta += delta / 2
		if delta > 1000 {
			alpha, beta = -infinity, infinity
		}
	}
}

// searchRoot runs one iteration over the root moves within (alpha, beta)
// and moves the best root move to the front.
func (s *Searcher) searchRoot(depth, alpha, beta int) int {
	pos := s.pos
	origAlpha := alpha
	best := -infinity
	bestIdx := 0
	s.pvLen[0] = 0
	s.plies[0] = plyInfo{inCheck: pos.InCheck(), ttHit: true}
	for i := range s.root {
		m := s.root[i].m
		s.plies[0].played(s.moveKey(m), m, s.root[i].noisy, i+1)
		pos.Make(m)
		s.tick()
		newDepth := depth - 1
		if pos.InCheck() {
			newDepth++
		}
		var score int
		if i == 0 {
			score = -s.search(newDepth, 1, -beta, -alpha, true)
		} else {
			// Late quiet root moves are first searched a little shallower.
			r := 0
			if depth >= 3 && i >= 3 && newDepth == depth-1 && !s.root[i].noisy {
				r = max(0, min(int(s.lmr[min(depth, 63)][min(i+1, 63)]), newDepth-1))
			}
			score = -s.search(newDepth-r, 1, -alpha-1, -alpha, false)
			if score > alpha && r > 0 && !s.stop {
				score = -s.search(newDepth, 1, -alpha-1, -alpha, false)
			}
			if score > alpha && !s.stop {
				score = -s.search(newDepth, 1, -beta, -alpha, true)
			}
		}
		pos.Unmake()
		if s.stop {
			break
		}
		if score > best {
			best, bestIdx = score, i
			if score > alpha {
				alpha = score
				s.updatePV(0, m)
				s.rootBest, s.rootScore = m, score
				if alpha >= beta {
					break
				}
			}
		}
	}
	if best > origAlpha && (!s.stop || s.rootBest != engine.NullMove) {
		// Move the best to the front, keeping the others' order.
		b := s.root[bestIdx]
		copy(s.root[1:bestIdx+1], s.root[:bestIdx])
		s.root[0] = b
	}
	if !s.stop && best > origAlpha && best < beta {
		s.tt.store(pos.Hash(), s.root[0].m, scoreToTT(best, 0), depth, boundExact)
	}
	return best
}

func (s *Searcher) updatePV(ply int, m engine.Move) {
	s.pv[ply][ply] = m
	n := s.pvLen[ply+1]
	if n < ply+1 {
		n = ply + 1
	}
	copy(s.pv[ply][ply+1:n], s.pv[ply+1][ply+1:n])
	s.pvLen[ply] = n
}

// tick counts a node, a move made in the tree (at the root, in the main
// search once it is legal and not pruned, in the quiescence search once
// it is legal), and checks the limits. As in Stockfish, a null move, a
// re-search of a move already made and a quiescence call without a move
// (razoring) count nothing: their work is counted by the moves they make.
func (s *Searcher) tick() {
	s.nodes++
	if s.nodeLimit > 0 && s.nodes >= s.nodeLimit {
		s.stop = true
	}
	if s.nodes&1023 == 0 {
		if s.timed && time.Now().After(s.deadline) {
			s.stop = true
		}
		if s.ctx != nil && s.ctx.Err() != nil {
			s.stop = true
		}
	}
}
