package search

import (
	"math"
	"slices"

	"tamerlane/engine"
)

// Move ordering scores. Quiet moves score their history (quietTables.score,
// within ±6·contMax); captures that lose material by static exchange
// come after every quiet move.
const (
	orderHash    = 1 << 30
	orderCapture = 1 << 26
	orderKiller  = 1 << 25
	orderCounter = orderKiller - 2
	orderBadCap  = -(1 << 24)
)

// initLMR fills the late-move reduction table: 0.75 + ln(depth)*ln(moves)/2.25.
func (s *Searcher) initLMR() {
	for d := 1; d < len(s.lmr); d++ {
		for n := 1; n < len(s.lmr[d]); n++ {
			s.lmr[d][n] = int8(0.75 + math.Log(float64(d))*math.Log(float64(n))/2.25)
		}
	}
}

// capturedType is the type of the piece capture m takes: the piece on
// its destination, or for en passant the capturer's own type (a pawn
// takes a pawn).
func (s *Searcher) capturedType(m engine.Move) engine.PieceType {
	if m.Kind() == engine.KindEnPassant {
		return s.pos.At(m.From()).Type()
	}
	return s.pos.At(m.To()).Type()
}

// victimValue is the material value m captures (0 if none).
func (s *Searcher) victimValue(m engine.Move) int32 {
	if s.pos.IsCapture(m) {
		return s.value[s.capturedType(m)]
	}
	return 0
}

// scoreMoves gives every move of ml an ordering score: the hash move
// first, then captures and promotions that do not lose material by
// static exchange, by MVV-LVA (most valuable victim, least valuable
// attacker, with the eval's material weights), then killers and the
// counter move, then quiet moves by history, then losing captures. The
// static exchange of a capture of a cheaper piece is left pending: the
// capture is scored as a good one until pick reaches it (or resolve).
func (s *Searcher) scoreMoves(ml *engine.MoveList, ply int, ttMove engine.Move) {
	pos := s.pos
	sc := &s.scores[ply]
	pending := &s.pending[ply]
	keys := &s.keys[ply]
	counter := s.counterMove()
	quiet := s.quietTables(ply)
	s.sorted[ply] = false
	s.npending[ply] = 0
	for i := 0; i < ml.N; i++ {
		m := ml.Moves[i]
		mover := pos.At(m.From())
		pending[i] = false
		var x int32
		switch {
		case m == ttMove:
			x = orderHash
		case pos.IsCapture(m):
			victim := s.victimValue(m)
			attacker := s.value[mover.Type()]
			mvv := victim*32 - attacker/8
			if m.Kind() == engine.KindPromotion {
				mvv += s.value[m.Promotion()]
			}
			// A capture of something worth at least the capturer cannot
			// lose by exchange; otherwise SEE decides, when pick reaches
			// the move (pending).
			x = orderCapture + mvv + s.captureScore(m)
			if victim < attacker {
				pending[i] = true
				s.npending[ply]++
			}
		case m.Kind() == engine.KindPromotion:
			x = orderCapture + s.value[m.Promotion()] - s.value[mover.Type()]
			if pos.SEE(m, s.seeVal) < 0 {
				x = orderBadCap + s.value[m.Promotion()]
			}
		case m == s.killers[ply][0]:
			x = orderKiller
		case m == s.killers[ply][1]:
			x = orderKiller - 1
		case m == counter:
			x = orderCounter
		default:
			x = quiet.score(&s.hist, m, s.hist.key(mover.Type(), m.To()))
		}
		sc[i] = x
		keys[i] = orderKey(x, m)
	}
}

// orderKey packs a move's ordering score and the move into one number
// that orders as pick does: by score, ties to the lower move code.
func orderKey(x int32, m engine.Move) uint64 {
	return uint64(uint32(x)^1<<31)<<32 | uint64(^uint32(m))
}

// keyScore and keyMove unpack an orderKey.
func keyScore(k uint64) int32 { return int32(uint32(k>>32) ^ 1<<31) }

func keyMove(k uint64) engine.Move { return engine.Move(^uint32(k)) }

// counterMove is the quiet move that last refuted the opponent's last move.
func (s *Searcher) counterMove() engine.Move {
	last := s.pos.LastMove()
	if last == engine.NullMove {
		return engine.NullMove
	}
	return s.counter[s.pos.At(last.To())&63][last.To()]
}

// isKiller reports a killer or the counter move.
func (s *Searcher) isKiller(ply int, m, counter engine.Move) bool {
	return m == s.killers[ply][0] || m == s.killers[ply][1] || m == counter
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// pickScan is the number of moves pick selects one at a time before it
// sorts the rest: a node that a cut-off ends early pays only for the
// selections, one that tries many moves for a single sort.
const pickScan = 3

// pick moves the best-scored move among i.. to position i and returns it.
// Ties go to the lower move code, so that the search does not depend on
// the order of move generation (which depends on the order of the
// position's piece lists, which Make and Unmake permute). A pending
// capture that comes first is resolved by its static exchange: one that
// loses material drops among the losing captures and the choice is made
// again. Pending scores are never below the resolved ones, so the moves
// come in the order that scoring every exchange at once would give, and
// the exchanges of the moves a cut-off leaves untried are never computed.
// From the pickScan-th move on, once no capture is pending, the rest of
// the list is sorted by key at once, which gives the same order (the keys
// are distinct).
func (s *Searcher) pick(ml *engine.MoveList, ply, i int) engine.Move {
	if s.sorted[ply] {
		return ml.Moves[i]
	}
	if i >= pickScan && s.npending[ply] == 0 {
		s.sortRest(ml, ply, i)
		return ml.Moves[i]
	}
	sc := &s.scores[ply]
	pending := &s.pending[ply]
	keys := s.keys[ply][:ml.N]
	for {
		b, kb := i, keys[i]
		for j := i + 1; j < len(keys); j++ {
			if k := keys[j]; k > kb {
				b, kb = j, k
			}
		}
		if b != i {
			ml.Moves[i], ml.Moves[b] = ml.Moves[b], ml.Moves[i]
			sc[i], sc[b] = sc[b], sc[i]
			keys[i], keys[b] = keys[b], keys[i]
			pending[i], pending[b] = pending[b], pending[i]
		}
		if !pending[i] {
			return ml.Moves[i]
		}
		pending[i] = false
		s.npending[ply]--
		if s.pos.SEE(ml.Moves[i], s.seeVal) >= 0 {
			return ml.Moves[i]
		}
		sc[i] += orderBadCap - orderCapture
		keys[i] = orderKey(sc[i], ml.Moves[i])
	}
}

// sortRest sorts the moves i.. of ml, none of them pending, by key from
// the highest, with their scores.
func (s *Searcher) sortRest(ml *engine.MoveList, ply, i int) {
	keys := s.keys[ply][i:ml.N]
	slices.Sort(keys)
	slices.Reverse(keys)
	for j, k := range keys {
		ml.Moves[i+j] = keyMove(k)
		s.scores[ply][i+j] = keyScore(k)
	}
	s.sorted[ply] = true
}

// resolve scores every pending capture of ml by its static exchange, for
// an ordering read whole (the root's).
func (s *Searcher) resolve(ml *engine.MoveList, ply int) {
	sc := &s.scores[ply]
	pending := &s.pending[ply]
	for i := 0; i < ml.N; i++ {
		if pending[i] {
			pending[i] = false
			s.npending[ply]--
			if s.pos.SEE(ml.Moves[i], s.seeVal) < 0 {
				sc[i] += orderBadCap - orderCapture
				s.keys[ply][i] = orderKey(sc[i], ml.Moves[i])
			}
		}
	}
}
