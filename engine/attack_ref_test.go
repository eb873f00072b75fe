package engine

// The square-by-square attack walkers that the set queries of rays.go
// replace, kept as the reference the cross-check tests compare with.

// refAttacked is the square-by-square walker Attacked replaces: it
// reports whether side by attacks square s. A citadel is never
// attacked (docs/rules.md 3.1).
func (p *Position) refAttacked(s Square, by Color) bool {
	c := &p.v.c
	if c.citBit[s] != 0 {
		return false
	}
	b := &p.board
	at := &c.att[by]
	for i := range at.leaps {
		l := &at.leaps[i]
		if l.mask>>b[int(s)-l.d]&1 != 0 {
			return true
		}
	}
	for i := range at.slides {
		sa := &at.slides[i]
		t, k := refRayEnd(b, int(s), sa.d)
		pc := b[t]
		if pc&0x80 != 0 {
			continue
		}
		if sa.refHits(pc, k) {
			return true
		}
		if sa.hopMask != 0 {
			if t, _ = refRayEnd(b, t, sa.d); sa.hopMask>>b[t]&1 != 0 {
				return true
			}
		}
	}
	for i := range at.bents {
		bt := &at.bents[i]
		t := int(s)
		for n := 1; n <= bt.max; n++ {
			t -= bt.then
			if b[t] != Empty {
				break
			}
			if n >= bt.min && bt.mask>>b[t-bt.first]&1 != 0 {
				return true
			}
		}
	}
	if cs := c.nearCit[s]; cs != NoSquare {
		if occ := b[cs]; occ != Offboard && occ.Color() == by && c.leapMask[by][int(s)-int(cs)]>>(occ&0x7f)&1 != 0 {
			return true
		}
	}
	return false
}

// refRayEnd returns the first cell that is not empty (a piece, or Offboard
// at the edge) stepping from t by -d, and the number of steps.
func refRayEnd(b *[NumSquares]Piece, t, d int) (int, int) {
	k := 0
	for {
		t -= d
		k++
		if b[t] != Empty {
			return t, k
		}
	}
}

// refHits reports whether the piece code pc (not Offboard), found k steps
// away against the slide's direction, attacks along it.
func (sa *slideAttack) refHits(pc Piece, k int) bool {
	if sa.mask>>pc&1 != 0 {
		return true
	}
	for _, e := range sa.extra {
		if e.mask>>pc&1 != 0 && k >= e.min && k <= e.max {
			return true
		}
	}
	return false
}

// refLeastAttacker is the square-by-square walker LeastAttacker
// replaces: it returns the square of the piece of side by that attacks s
// (as Attacked counts attacks: captures by leaps, slides, hops, bent
// slides, and steps out of a citadel) with the smallest value[type], and
// false if there is none. The choice among equally valued attackers
// depends only on the position (the lowest square, except that once a
// leaper of the cheapest type present is found the line scans are
// skipped), not on the order of the piece lists.
func (p *Position) refLeastAttacker(s Square, by Color, value []int32) (Square, bool) {
	c := &p.v.c
	if c.citBit[s] != 0 {
		return NoSquare, false
	}
	b := &p.board
	at := &c.att[by]
	best, bestVal := NoSquare, int32(0)
	consider := func(t int) {
		v := value[b[t].Type()]
		if best == NoSquare || v < bestVal || v == bestVal && Square(t) < best {
			best, bestVal = Square(t), v
		}
	}
	for i := range at.leaps {
		l := &at.leaps[i]
		if t := int(s) - l.d; l.mask>>b[t]&1 != 0 {
			consider(t)
		}
	}
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
	for i := range at.slides {
		sa := &at.slides[i]
		t, k := refRayEnd(b, int(s), sa.d)
		pc := b[t]
		if pc&0x80 != 0 {
			continue
		}
		if sa.refHits(pc, k) {
			consider(t)
		}
		if sa.hopMask != 0 {
			if t, _ = refRayEnd(b, t, sa.d); sa.hopMask>>b[t]&1 != 0 {
				consider(t)
			}
		}
	}
	for i := range at.bents {
		bt := &at.bents[i]
		t := int(s)
		for n := 1; n <= bt.max; n++ {
			t -= bt.then
			if b[t] != Empty {
				break
			}
			if n >= bt.min && bt.mask>>b[t-bt.first]&1 != 0 {
				consider(t - bt.first)
			}
		}
	}
	if cs := c.nearCit[s]; cs != NoSquare {
		if occ := b[cs]; occ != Offboard && occ.Color() == by && c.leapMask[by][int(s)-int(cs)]>>(occ&0x7f)&1 != 0 {
			consider(int(cs))
		}
	}
	return best, best != NoSquare
}

// refSEE is SEE on refLeastAttacker: it returns the static exchange evaluation of move m for the side to
// move, in the units of value (indexed by piece type): what m captures
// (plus what a promotion gains), minus what the best sequence of
// recaptures on m's destination then wins back, each side capturing with
// its least valuable attacker and free to stop. A move that captures
// nothing starts from zero (moving to an attacked square scores the
// mover's loss). Legality of the recaptures (pins, checks) and
// promotions during the exchange are ignored. Castling and exchanges
// score 0. The position is unchanged on return; SEE does not allocate.
func (p *Position) refSEE(m Move, value []int32) int32 {
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
	side := us.Other()
	d := 0
	for d+1 < maxSwaps {
		sq, ok := p.refLeastAttacker(to, side, value)
		if !ok {
			break
		}
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

// refMobility is the square-by-square walker Mobility replaces,
// ReachAvoiding, with its arrays read as sets: the squares the piece on s
// attacks, its mobility n and how many of those n are in avoid.
func (p *Position) refMobility(s Square, avoid Bitboard) (att Bitboard, n, avoided int) {
	var cover, avoidBytes [NumSquares]uint8
	for q := Square(0); q < NumSquares; q++ {
		if i := p.v.Index(q); i >= 0 && avoid.Has(i) {
			avoidBytes[q] = 1
		}
	}
	n, avoided = p.ReachAvoiding(s, &cover, &avoidBytes)
	for q := Square(0); q < NumSquares; q++ {
		if cover[q] != 0 {
			att = att.Or(BitAt(p.v.Index(q)))
		}
	}
	return att, n, avoided
}
