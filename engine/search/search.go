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
	Depth    int           // iterations of iterative deepening (plies)
	Nodes    int64         // nodes (calls of the search and quiescence search)
	MoveTime time.Duration // wall time: the search stops when it is spent
	// SoftTime, when positive, is the wall time after which no new
	// iteration starts (time management's target; MoveTime is the hard
	// bound). Without it a timed search starts no iteration after half
	// of MoveTime.
	SoftTime time.Duration
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
	minor    []bool  // by piece type: a minor for insufficient material
	nullMin  int     // non-pawn pieces the side to move needs for null move
	exchange bool    // the variant has swaps or successions

	pos       *engine.Position
	ctx       context.Context
	nodes     int64
	nodeLimit int64
	deadline  time.Time
	timed     bool
	stop      bool
	rootDepth int
	selDepth  int

	moves   [MaxPly + 1]engine.MoveList
	scores  [MaxPly + 1][engine.MaxMoves]int32
	killers [MaxPly + 1][2]engine.Move
	nullAt  [MaxPly + 1]bool
	history [64][engine.NumSquares]int32
	pv      [MaxPly + 1][MaxPly + 1]engine.Move
	pvLen   [MaxPly + 1]int

	evalCache []evalEntry

	root      []rootMove
	rootBest  engine.Move
	rootScore int
	bestPV    [MaxPly + 1]engine.Move
	bestLen   int
}

type rootMove struct {
	m     engine.Move
	order int32
}

// New returns a searcher that evaluates with ev and owns a transposition
// table of about ttMiB mebibytes (a power-of-two number of 64-byte
// buckets; at least 1 MiB).
func New(ev *eval.Evaluator, ttMiB int) *Searcher {
	s := &Searcher{ev: ev, reg: ev.Registry(), tt: newTable(ttMiB), evalCache: make([]evalEntry, evalCacheSize)}
	return s
}

// Clear resets the searcher: transposition table, killers and history.
func (s *Searcher) Clear() {
	s.tt.clear()
	clear(s.evalCache)
	s.killers = [MaxPly + 1][2]engine.Move{}
	s.history = [64][engine.NumSquares]int32{}
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
	n := v.NumTypes()
	s.value = make([]int32, n+1)
	s.minor = make([]bool, n+1)
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
		s.minor[t] = !d.Pawn && !d.Royal && minorMoves(d)
	}
	// Null-move pruning assumes that passing is never better than the best
	// move (no zugzwang). Where stalemate loses (RULES.md 3.6, 5.2) running
	// out of moves is itself a loss, so demand more material.
	s.nullMin = 1
	if v.Stalemate == engine.StalemateLoses {
		s.nullMin = 3
	}
	s.exchange = v.Exchange != nil
}

// minorMoves reports a piece that cannot force mate alone in the orthodox
// sense (RULES.md 5.1): leaps and diagonal slides only.
func minorMoves(d *engine.PieceDef) bool {
	for _, m := range d.Moves {
		switch m.Kind {
		case engine.Leap:
		case engine.Slide:
			if m.DF == 0 || m.DR == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

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
	for i := range s.history {
		for j := range s.history[i] {
			s.history[i][j] /= 8
		}
	}
	s.killers = [MaxPly + 1][2]engine.Move{}

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
	s.root = s.root[:0]
	for i := 0; i < ml.N; i++ {
		s.root = append(s.root, rootMove{m: ml.Moves[i], order: s.scores[0][i]})
	}
	sortRoot(s.root)
	res.Best = s.root[0].m
	s.bestPV[0], s.bestLen = res.Best, 1

	maxDepth := MaxPly - 1
	if lim.Depth > 0 && lim.Depth < maxDepth {
		maxDepth = lim.Depth
	}
	for d := 1; d <= maxDepth; d++ {
		s.rootDepth = d
		s.rootBest = engine.NullMove
		score := s.searchRoot(d)
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
		soft := lim.MoveTime / 2
		if lim.SoftTime > 0 {
			soft = lim.SoftTime
		}
		if (s.timed || lim.SoftTime > 0) && time.Since(start) > soft {
			break
		}
		// A forced result found within the searched depth will not change.
		if abs(score) >= MateBound && MateScore-abs(score) < d {
			break
		}
	}
	if s.bestLen == 0 || s.bestPV[0] != res.Best {
		s.bestPV[0], s.bestLen = res.Best, 1
	}
	res.PV = append([]engine.Move(nil), s.bestPV[:s.bestLen]...)
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

// searchRoot runs one iteration over the root moves with a full window
// and moves the best root move to the front.
func (s *Searcher) searchRoot(depth int) int {
	pos := s.pos
	alpha, beta := -infinity, infinity
	best := -infinity
	bestIdx := 0
	s.pvLen[0] = 0
	for i := range s.root {
		m := s.root[i].m
		pos.Make(m)
		newDepth := depth - 1
		if pos.InCheck() {
			newDepth++
		}
		var score int
		if i == 0 {
			score = -s.search(newDepth, 1, -beta, -alpha, true)
		} else {
			score = -s.search(newDepth, 1, -alpha-1, -alpha, false)
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
			}
		}
	}
	if !s.stop || s.rootBest != engine.NullMove {
		// Move the best to the front, keeping the others' order.
		b := s.root[bestIdx]
		copy(s.root[1:bestIdx+1], s.root[:bestIdx])
		s.root[0] = b
	}
	if !s.stop {
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

// tick counts a node and checks the limits.
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

// noMoves is the score of a side to move with no legal move (RULES.md
// 2.5, 3.6, 5): checkmated, or stalemated where stalemate loses, is a loss
// at this ply; otherwise stalemate draws.
func (s *Searcher) noMoves(ply int, inCheck bool) int {
	if inCheck || s.v.Stalemate == engine.StalemateLoses {
		return -MateScore + ply
	}
	return 0
}

// ruleEnd reports the end of the game by a rule other than the lack of
// moves at a node below the root, with the score for the side to move.
// Repetition: a position seen before (Repetitions() >= 2) is a draw.
func (s *Searcher) ruleEnd(ply int) (int, bool) {
	pos := s.pos
	if pos.CitadelDraw() {
		return 0, true
	}
	us := pos.SideToMove()
	if len(pos.Royals(us)) == 0 {
		return -MateScore + ply, true // all royals captured (RULES.md 3.5)
	}
	if s.v.BareKingLoses && (pos.Bare(us) || pos.Bare(us.Other())) {
		// Rare: let the rules decide (RULES.md 5.2).
		switch r, _ := pos.Outcome(); r {
		case engine.Draw:
			return 0, true
		case engine.WhiteWins, engine.BlackWins:
			if (r == engine.WhiteWins) == (us == engine.White) {
				return MateScore - ply, true
			}
			return -MateScore + ply, true
		}
	}
	if mr := s.v.MoveRule; mr > 0 && pos.HalfmoveClock() >= mr {
		ml := &s.moves[ply]
		pos.GenerateLegal(ml)
		if ml.N == 0 {
			return s.noMoves(ply, pos.InCheck()), true
		}
		return 0, true
	}
	if s.v.InsufficientMaterial && s.insufficient() {
		return 0, true
	}
	if pos.Repetitions() >= 2 {
		return 0, true
	}
	return 0, false
}

// insufficient reports a dead position: at most one minor piece besides
// the royals (RULES.md 5.1; the rarer same-coloured-bishops case is left
// to the search).
func (s *Searcher) insufficient() bool {
	pos := s.pos
	minors := 0
	for c := engine.White; c <= engine.Black; c++ {
		if len(pos.Pieces(c))-len(pos.Royals(c)) > 1 {
			return false
		}
		for _, sq := range pos.Pieces(c) {
			t := pos.At(sq).Type()
			if s.v.Def(t).Royal {
				continue
			}
			if !s.minor[t] {
				return false
			}
			minors++
		}
	}
	return minors <= 1
}

// evalCacheSize is the number of entries of the evaluation cache.
const evalCacheSize = 1 << 16

type evalEntry struct {
	key   uint64
	score int32
}

// evaluate returns the static evaluation (side to move), through a cache
// indexed by the position's hash.
func (s *Searcher) evaluate() int {
	key := s.pos.Hash()
	ce := &s.evalCache[key&(evalCacheSize-1)]
	if ce.key == key && key != 0 {
		return int(ce.score)
	}
	e := s.ev.Evaluate(s.pos)
	if e > evalLimit {
		e = evalLimit
	}
	if e < -evalLimit {
		e = -evalLimit
	}
	ce.key, ce.score = key, int32(e)
	return e
}

// search is the principal variation search at a node below the root.
func (s *Searcher) search(depth, ply int, alpha, beta int, pvNode bool) int {
	s.pvLen[ply] = ply
	s.selDepth = max(s.selDepth, ply)
	if score, over := s.ruleEnd(ply); over {
		return score
	}
	if depth <= 0 {
		return s.quiesce(ply, alpha, beta)
	}
	s.tick()
	if s.stop {
		return 0
	}
	pos := s.pos
	if ply >= MaxPly {
		return s.evaluate()
	}
	// Mate distance pruning.
	if a := -MateScore + ply; alpha < a {
		alpha = a
	}
	if b := MateScore - ply - 1; beta > b {
		beta = b
	}
	if alpha >= beta {
		return alpha
	}

	key := pos.Hash()
	var ttMove engine.Move
	if e := s.tt.probe(key); e != nil {
		ttMove = e.move
		if !pvNode && int(e.depth) >= depth {
			sc := scoreFromTT(int(e.score), ply)
			switch e.flags & 3 {
			case boundExact:
				return sc
			case boundLower:
				if sc >= beta {
					return sc
				}
			case boundUpper:
				if sc <= alpha {
					return sc
				}
			}
		}
	}

	inCheck := pos.InCheck()
	static := -infinity
	if !inCheck {
		static = s.evaluate()
	}
	us := pos.SideToMove()
	if !pvNode && !inCheck {
		// Reverse futility pruning.
		if depth <= 3 && beta < MateBound && beta > -MateBound && static-120*depth >= beta {
			return static
		}
		// Null-move pruning: not in check, not right after a null move,
		// with a single royal (RULES.md 3.5: with several, passing can
		// leave a royal to be taken), enough non-pawn pieces, and not in
		// the endgame of a variant where stalemate loses (nullMin).
		if depth >= 3 && static >= beta && !s.nullAt[ply-1] && len(pos.Royals(us)) == 1 &&
			beta < MateBound && pos.NonPawnCount(us) >= s.nullMin {
			r := 3 + depth/6
			pos.MakeNull()
			s.nullAt[ply] = true
			score := -s.search(depth-1-r, ply+1, -beta, -beta+1, false)
			s.nullAt[ply] = false
			pos.UnmakeNull()
			if s.stop {
				return 0
			}
			if score >= beta {
				if score >= MateBound {
					score = beta
				}
				return score
			}
		}
	}

	ml := &s.moves[ply]
	full := inCheck // GenerateLegal: exact moves, exchanges included
	if full {
		pos.GenerateLegal(ml)
	} else {
		ml.N = 0 // GeneratePseudo appends
		pos.GeneratePseudo(ml)
	}
	s.scoreMoves(ml, ply, ttMove)
	origAlpha := alpha
	best := -infinity
	bestMove := engine.NullMove
	legal := 0
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < ml.N; i++ {
			m := s.pick(ml, ply, i)
			capture := pos.IsCapture(m)
			quiet := !capture && m.Kind() != engine.KindPromotion
			pos.Make(m)
			if !full && pos.LastMoveLeftRoyalAttacked() {
				pos.Unmake()
				continue
			}
			legal++
			givesCheck := pos.InCheck()
			newDepth := depth - 1
			if givesCheck && ply < 2*s.rootDepth {
				newDepth++
			}
			var score int
			if legal == 1 {
				score = -s.search(newDepth, ply+1, -beta, -alpha, pvNode)
			} else {
				r := 0
				if depth >= 3 && legal > 3 && quiet && !inCheck && !givesCheck &&
					m != s.killers[ply][0] && m != s.killers[ply][1] {
					r = 1
					if legal > 10 && depth >= 5 {
						r = 2
					}
				}
				score = -s.search(newDepth-r, ply+1, -alpha-1, -alpha, false)
				if score > alpha && r > 0 && !s.stop {
					score = -s.search(newDepth, ply+1, -alpha-1, -alpha, false)
				}
				if score > alpha && score < beta && pvNode && !s.stop {
					score = -s.search(newDepth, ply+1, -beta, -alpha, true)
				}
			}
			pos.Unmake()
			if s.stop {
				return 0
			}
			if score > best {
				best, bestMove = score, m
				if score > alpha {
					alpha = score
					if pvNode {
						s.updatePV(ply, m)
					}
					if alpha >= beta {
						if quiet {
							s.goodQuiet(ply, m, depth)
						}
						break
					}
				}
			}
		}
		// Without another legal move, a swap may still be legal
		// (RULES.md 3.5): GenerateLegal adds the exchanges.
		if legal > 0 || full || !s.exchange {
			break
		}
		pos.GenerateLegal(ml)
		full = true
		s.scoreMoves(ml, ply, engine.NullMove)
	}
	if legal == 0 {
		return s.noMoves(ply, inCheck)
	}
	bound := boundExact
	switch {
	case best >= beta:
		bound = boundLower
	case best <= origAlpha:
		bound = boundUpper
		bestMove = engine.NullMove
	}
	s.tt.store(key, bestMove, scoreToTT(best, ply), depth, bound)
	return best
}

// goodQuiet rewards a quiet move that caused a beta cutoff.
func (s *Searcher) goodQuiet(ply int, m engine.Move, depth int) {
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	pc := s.pos.At(m.From())
	h := &s.history[pc&63][m.To()]
	*h += int32(depth * depth)
	if *h > 1<<20 {
		for i := range s.history {
			for j := range s.history[i] {
				s.history[i][j] /= 2
			}
		}
	}
}

// quiesce searches captures and promotions until the position is quiet;
// in check it searches every legal move (exchanges included).
func (s *Searcher) quiesce(ply int, alpha, beta int) int {
	s.pvLen[ply] = ply
	s.selDepth = max(s.selDepth, ply)
	s.tick()
	if s.stop {
		return 0
	}
	pos := s.pos
	if pos.CitadelDraw() {
		return 0
	}
	if len(pos.Royals(pos.SideToMove())) == 0 {
		return -MateScore + ply
	}
	if ply >= MaxPly {
		return s.evaluate()
	}
	ml := &s.moves[ply]
	// In check every legal move is searched; otherwise the side may stand
	// pat, and only captures and promotions (pseudo-legal, checked after
	// Make) are searched.
	var best int
	pseudo := !pos.InCheck()
	if !pseudo {
		pos.GenerateLegal(ml)
		if ml.N == 0 {
			return -MateScore + ply
		}
		best = -infinity
	} else {
		stand := s.evaluate()
		if stand >= beta {
			return stand
		}
		if stand > alpha {
			alpha = stand
		}
		best = stand
		ml.N = 0 // GeneratePseudo appends
		pos.GeneratePseudo(ml)
		n := 0
		for i := 0; i < ml.N; i++ {
			m := ml.Moves[i]
			if m.Kind() == engine.KindPromotion || pos.IsCapture(m) {
				ml.Moves[n] = m
				n++
			}
		}
		ml.N = n
	}
	s.scoreMoves(ml, ply, engine.NullMove)
	for i := 0; i < ml.N; i++ {
		m := s.pick(ml, ply, i)
		pos.Make(m)
		if pseudo && pos.LastMoveLeftRoyalAttacked() {
			pos.Unmake()
			continue
		}
		score := -s.quiesce(ply+1, -beta, -alpha)
		pos.Unmake()
		if s.stop {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				s.updatePV(ply, m)
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// Move ordering scores.
const (
	orderHash    = 1 << 30
	orderCapture = 1 << 26
	orderKiller  = 1 << 25
)

// scoreMoves gives every move of ml an ordering score: the hash move
// first, then captures and promotions by MVV-LVA (most valuable victim,
// least valuable attacker, with the eval's material weights), then
// killers, then quiet moves by history.
func (s *Searcher) scoreMoves(ml *engine.MoveList, ply int, ttMove engine.Move) {
	pos := s.pos
	sc := &s.scores[ply]
	for i := 0; i < ml.N; i++ {
		m := ml.Moves[i]
		mover := pos.At(m.From())
		var x int32
		switch {
		case m == ttMove:
			x = orderHash
		case pos.IsCapture(m):
			victim := mover.Type() // en passant: a pawn takes a pawn
			if m.Kind() != engine.KindEnPassant {
				victim = pos.At(m.To()).Type()
			}
			x = orderCapture + s.value[victim]*32 - s.value[mover.Type()]/8
			if m.Kind() == engine.KindPromotion {
				x += s.value[m.Promotion()]
			}
		case m.Kind() == engine.KindPromotion:
			x = orderCapture + s.value[m.Promotion()] - s.value[mover.Type()]
		case m == s.killers[ply][0]:
			x = orderKiller
		case m == s.killers[ply][1]:
			x = orderKiller - 1
		default:
			x = s.history[mover&63][m.To()]
		}
		sc[i] = x
	}
}

// pick moves the best-scored move among i.. to position i and returns it.
// Ties go to the lower move code, so that the search does not depend on
// the order of move generation (which depends on the order of the
// position's piece lists, which Make and Unmake permute).
func (s *Searcher) pick(ml *engine.MoveList, ply, i int) engine.Move {
	sc := &s.scores[ply]
	b := i
	for j := i + 1; j < ml.N; j++ {
		if sc[j] > sc[b] || sc[j] == sc[b] && ml.Moves[j] < ml.Moves[b] {
			b = j
		}
	}
	if b != i {
		ml.Moves[i], ml.Moves[b] = ml.Moves[b], ml.Moves[i]
		sc[i], sc[b] = sc[b], sc[i]
	}
	return ml.Moves[i]
}
