package engine

// This file holds the static exchange evaluation: the material balance of
// the captures on one square when both sides recapture with their least
// valuable attacker and may stop at any time. It works for every movement
// kind of the variant table because it asks the same set queries as
// Attacked after every capture, on an occupancy set that loses each
// capturer: a slider or bent rider behind a capturer joins in (x-ray), and
// a cannon's screen appears or vanishes as the board changes, with no
// special case.

// maxSwaps bounds the captures of one exchange.
const maxSwaps = 64

// LeastAttacker returns the square of the piece of side by that attacks s
// (as Attacked counts attacks: captures by leaps, slides, hops, bent
// slides, and steps out of a citadel) with the smallest value[type], and
// false if there is none. The choice among equally valued attackers
// depends only on the position (the lowest square, except that once a
// leaper of the cheapest type present is found the line scans are
// skipped), not on the order of the piece lists.
func (p *Position) LeastAttacker(s Square, by Color, value []int32) (Square, bool) {
	if p.v.c.citBit[s] != 0 {
		return NoSquare, false
	}
	return p.leastAttacker(s, by, value, p.occupied(), Bitboard{})
}

// leastAttacker is LeastAttacker with the pieces on removed taken off the
// board, occ the squares of the others (the board's cells must agree).
// s is not a citadel.
func (p *Position) leastAttacker(s Square, by Color, value []int32, occ, removed Bitboard) (Square, bool) {
	c := &p.v.c
	b := &p.board
	i := int(c.index[s])
	best, bestVal := NoSquare, int32(0)
	consider := func(set Bitboard) {
		for set.Any() {
			t := c.square[set.PopFirst()]
			v := value[b[t].Type()]
			if best == NoSquare || v < bestVal || v == bestVal && t < best {
				best, bestVal = t, v
			}
		}
	}
	consider(p.leapAttackers(i, by, removed, false))
	if best != NoSquare {
		// Nothing can beat the cheapest piece type: skip the line scans.
		least := true
		for t := 1; t < len(value); t++ {
			if value[t] < bestVal && p.counts[MakePiece(PieceType(t), by)] > 0 {
				least = false
				break
			}
		}
		if least {
			return best, true
		}
	}
	consider(p.lineAttackers(i, by, occ, removed, false))
	if cs := p.citAttacker(s, by); cs != NoSquare {
		v := value[b[cs].Type()]
		if best == NoSquare || v < bestVal || v == bestVal && cs < best {
			best, bestVal = cs, v
		}
	}
	return best, best != NoSquare
}

// SEE returns the static exchange evaluation of move m for the side to
// move, in the units of value (indexed by piece type): what m captures
// (plus what a promotion gains), minus what the best sequence of
// recaptures on m's destination then wins back, each side capturing with
// its least valuable attacker and free to stop. A move that captures
// nothing starts from zero (moving to an attacked square scores the
// mover's loss). Legality of the recaptures (pins, checks) and
// promotions during the exchange are ignored. Castling and exchanges
// score 0. The position is unchanged on return; SEE does not allocate.
func (p *Position) SEE(m Move, value []int32) int32 {
	k := m.Kind()
	if k == KindCastle || k == KindExchange || k == KindRelocate {
		return 0
	}
	c := &p.v.c
	b := &p.board
	from, to := m.From(), m.To()
	us := p.side
	mover := b[from] & 0x7f
	var gain [maxSwaps]int32
	// saved cells, restored at the end
	var savedSq [maxSwaps + 2]Square
	var savedPc [maxSwaps + 2]Piece
	ns := 0
	save := func(s Square) {
		savedSq[ns], savedPc[ns] = s, b[s]
		ns++
	}
	capSq := to
	if k == KindEnPassant {
		capSq = to - forward(us)
	}
	if t := b[capSq]; t != Empty && t&0x80 == 0 && t.Color() != us {
		gain[0] = value[t.Type()]
	}
	onSq := value[mover.Type()] // value of the piece standing on to
	placed := mover
	if k == KindPromotion {
		pv := value[m.Promotion()]
		gain[0] += pv - onSq
		onSq = pv
		placed = MakePiece(m.Promotion(), us)
	}
	save(from)
	save(to)
	if capSq != to {
		save(capSq)
		b[capSq] = c.citBit[capSq]
	}
	b[from] = c.citBit[from]
	b[to] = placed | c.citBit[to]
	removed := BitAt(int(c.index[from]))
	if capSq != to {
		removed = removed.Or(BitAt(int(c.index[capSq])))
	}
	occ := p.occupied().AndNot(removed)
	side := us.Other()
	d := 0
	for d+1 < maxSwaps && c.citBit[to] == 0 {
		sq, ok := p.leastAttacker(to, side, value, occ, removed)
		if !ok {
			break
		}
		r := BitAt(int(c.index[sq]))
		removed, occ = removed.Or(r), occ.AndNot(r)
		d++
		gain[d] = onSq - gain[d-1]
		pc := b[sq] & 0x7f
		onSq = value[pc.Type()]
		save(sq)
		b[sq] = c.citBit[sq]
		b[to] = pc | c.citBit[to]
		side = side.Other()
	}
	for i := ns - 1; i >= 0; i-- {
		b[savedSq[i]] = savedPc[i]
	}
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}
