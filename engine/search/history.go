package search

import "tamerlane/engine"

// History table limits (the gravity bound of each table's entries) and
// the history's part in reductions and pruning (Stockfish 14's values).
const (
	butterflyMax   = 13365
	contMax        = 29952
	captureMax     = 10692
	statOffset     = 4923  // the zero point of quietTables.stat
	statPerPly     = 14721 // quietTables.stat units per ply of reduction
	contPruneDepth = 5     // continuation history pruning below this reduced depth
)

// statBonus is the history change for a move's success or failure at depth.
func statBonus(depth int) int32 {
	if depth > 14 {
		return 73
	}
	return int32(6*depth*depth + 229*depth - 215)
}

// histories are the quiet-move statistics: the butterfly table (by side
// to move, origin and destination) and the continuation history (by the
// piece type and destination of a move and of a move 1, 2, 4 or 6 plies
// earlier). Both are indexed by a compact square index, so their size
// follows the board: the continuation table has ((types+1) x squares)²
// entries, 0.4 MB in chess and shatranj, 4.9 MB in Tamerlane II, 14.5 MB
// in historical Tamerlane and 22.6 MB in full Tamerlane. Stockfish also
// splits it by whether the earlier move captured and was made in check;
// that would make these four times larger.
//
// The capture history orders captures among themselves: by the capturing
// piece's type and destination and the captured piece's type.
type histories struct {
	sq        [engine.NumSquares]int32 // compact index of a board square
	width     int32                    // squares on the board, citadels included
	types     int32                    // piece types + 1
	keys      int32                    // types * width
	butterfly [2][]int16               // [side][from*width+to]
	cont      []int16                  // [prev key * keys + key]
	capture   []int16                  // [key * types + captured type]
	zero      []int16                  // keys zeros: the continuation row without a previous move
}

// reset sizes the tables for v, clearing them.
func (h *histories) reset(v *engine.Variant) {
	n := int32(0)
	for s := engine.Square(0); s < engine.NumSquares; s++ {
		h.sq[s] = 0
		if v.OnBoard(s) || v.IsCitadel(s) {
			h.sq[s] = n
			n++
		}
	}
	types := int32(v.NumTypes() + 1)
	keys := types * n
	if keys != h.keys || n != h.width {
		h.width, h.types, h.keys = n, types, keys
		h.cont = make([]int16, int(keys)*int(keys))
		h.capture = make([]int16, int(keys)*int(types))
		h.zero = make([]int16, int(keys))
		h.butterfly[0] = make([]int16, int(n)*int(n))
		h.butterfly[1] = make([]int16, int(n)*int(n))
		return
	}
	h.clear()
}

func (h *histories) clear() {
	clear(h.cont)
	clear(h.capture)
	clear(h.butterfly[0])
	clear(h.butterfly[1])
}

// noKey marks a ply without a move (before the root, a null move).
const noKey = -1

// key is the continuation index of a move by piece type t to square to.
func (h *histories) key(t engine.PieceType, to engine.Square) int32 {
	return int32(t)*h.width + h.sq[to]
}

// ft is the butterfly index of a move.
func (h *histories) ft(m engine.Move) int32 {
	return h.sq[m.From()]*h.width + h.sq[m.To()]
}

func gravity(e *int16, bonus, limit int32) {
	x := int32(*e)
	x += bonus - x*abs32(bonus)/limit
	*e = int16(x)
}

// ply bookkeeping the histories need: what was played at each ply.
type plyInfo struct {
	key       int32       // continuation key of the move made at this ply (noKey: none or null)
	move      engine.Move // the move made at this ply
	moveCount int         // its number among the legal moves tried
	capture   bool        // it captured or promoted
	inCheck   bool        // the side to move at this ply was in check
	ttHit     bool        // the table had an entry at this ply
}

// played records the move made at this ply (m NullMove, key noKey for a
// null move), its capture flag and its number among the moves tried.
func (p *plyInfo) played(key int32, m engine.Move, capture bool, moveCount int) {
	p.key, p.move, p.capture, p.moveCount = key, m, capture, moveCount
}

// prevKey is the key of the move i plies before ply (noKey if none).
func (s *Searcher) prevKey(ply, i int) int32 {
	if ply-i < 0 {
		return noKey
	}
	return s.plies[ply-i].key
}

// quietTables are the history tables the ordering scores of the quiet
// moves at one ply read: the butterfly table of the side to move and the
// continuation rows after the moves 1, 2, 4 and 6 plies earlier (the
// zero row where there is none), looked up once for all the moves.
type quietTables struct {
	bf             []int16
	c1, c2, c4, c6 []int16
}

// quietTables returns the tables of the quiet moves' scores at ply.
func (s *Searcher) quietTables(ply int) quietTables {
	h := &s.hist
	row := func(i int) []int16 {
		if p := s.prevKey(ply, i); p >= 0 {
			return h.cont[p*h.keys : (p+1)*h.keys]
		}
		return h.zero
	}
	return quietTables{bf: h.butterfly[s.pos.SideToMove()], c1: row(1), c2: row(2), c4: row(4), c6: row(6)}
}

// score is the ordering score of a quiet move m with key in the tables
// q of its ply (h their histories): the butterfly entry, plus twice the
// continuation entry after the previous move and once those after the
// moves 2, 4 and 6 plies earlier.
func (q *quietTables) score(h *histories, m engine.Move, key int32) int32 {
	return int32(q.bf[h.ft(m)]) +
		2*int32(q.c1[key]) + int32(q.c2[key]) + int32(q.c4[key]) + int32(q.c6[key])
}

// stat is the history of a quiet move m with key, used to adjust its
// reduction, in the tables q of its ply (h their histories).
func (q *quietTables) stat(h *histories, m engine.Move, key int32) int32 {
	return int32(q.bf[h.ft(m)]) +
		int32(q.c1[key]) + int32(q.c2[key]) + int32(q.c4[key]) - statOffset
}

// updateCont changes the continuation entries of key played at ply after
// the moves 1, 2, 4 and 6 plies earlier (only 1 and 2 in check).
func (s *Searcher) updateCont(ply int, key int32, bonus int32) {
	if key < 0 {
		return
	}
	h := &s.hist
	for _, i := range [4]int{1, 2, 4, 6} {
		if s.plies[ply].inCheck && i > 2 {
			break
		}
		if p := s.prevKey(ply, i); p >= 0 {
			gravity(&h.cont[p*h.keys+key], bonus, contMax)
		}
	}
}

// moveKey is the continuation key of m in the current position.
func (s *Searcher) moveKey(m engine.Move) int32 {
	return s.hist.key(s.pos.At(m.From()).Type(), m.To())
}

// updateQuietStats rewards a good quiet move m at ply: killers, counter
// move, butterfly and continuation history.
func (s *Searcher) updateQuietStats(ply int, m engine.Move, bonus int32) {
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	pos := s.pos
	gravity(&s.hist.butterfly[pos.SideToMove()][s.hist.ft(m)], bonus, butterflyMax)
	s.updateCont(ply, s.moveKey(m), bonus)
	if last := pos.LastMove(); last != engine.NullMove {
		s.counter[pos.At(last.To())&63][last.To()] = m
	}
}

// penaliseQuiet lowers the statistics of a quiet move m at ply.
func (s *Searcher) penaliseQuiet(ply int, m engine.Move, malus int32) {
	gravity(&s.hist.butterfly[s.pos.SideToMove()][s.hist.ft(m)], -malus, butterflyMax)
	s.updateCont(ply, s.moveKey(m), -malus)
}

// updatePrior changes the continuation entries of the move that led to
// ply (the opponent's move at ply-1), unless it captured.
func (s *Searcher) updatePrior(ply int, bonus int32) {
	if ply < 1 {
		return
	}
	p := &s.plies[ply-1]
	if p.capture || p.key < 0 {
		return
	}
	s.updateCont(ply-1, p.key, bonus)
}

// captureIndex is the capture-history index of capture m in the current
// position (by the capturer's type and destination and the victim's type).
func (s *Searcher) captureIndex(m engine.Move) int32 {
	return s.hist.key(s.pos.At(m.From()).Type(), m.To())*s.hist.types + int32(s.capturedType(m))
}

// captureScore is the capture history of capture m.
func (s *Searcher) captureScore(m engine.Move) int32 {
	return int32(s.hist.capture[s.captureIndex(m)])
}

// updateAllStats updates the statistics once a node has a best move
// (a score above alpha): the best quiet move is rewarded and the quiet
// moves tried before it punished, or the best capture rewarded; every
// other capture tried is punished; an early move of the previous ply that
// it refutes is punished.
func (s *Searcher) updateAllStats(ply int, best engine.Move, bestScore, beta, depth int, quiets, captures []engine.Move) {
	bonus1 := statBonus(depth + 1)
	bonus2 := bonus1
	if bestScore <= beta+100 {
		bonus2 = min(bonus1, statBonus(depth))
	}
	pos := s.pos
	if !pos.IsCapture(best) && best.Kind() != engine.KindPromotion {
		s.updateQuietStats(ply, best, bonus2)
		for _, q := range quiets {
			if q != best {
				s.penaliseQuiet(ply, q, bonus2)
			}
		}
	} else if pos.IsCapture(best) {
		gravity(&s.hist.capture[s.captureIndex(best)], bonus1, captureMax)
	}
	for _, c := range captures {
		if c != best {
			gravity(&s.hist.capture[s.captureIndex(c)], -bonus1, captureMax)
		}
	}
	if ply >= 1 {
		p := &s.plies[ply-1]
		if p.moveCount == 1+b2i(p.ttHit) || p.move == s.killers[ply-1][0] {
			s.updatePrior(ply, -bonus1)
		}
	}
}
