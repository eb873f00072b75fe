package engine

// Attacked reports whether side by attacks square s. A citadel is never
// attacked (docs/rules.md 3.1).
func (p *Position) Attacked(s Square, by Color) bool {
	c := &p.v.c
	if c.citBit[s] != 0 {
		return false
	}
	i := int(c.index[s])
	return p.leapAttackers(i, by, Bitboard{}, true).Any() ||
		p.lineAttackers(i, by, p.occupied(), Bitboard{}, true).Any() ||
		p.citAttacker(s, by) != NoSquare
}

// InCheck reports whether the side to move is in check: it has exactly one
// royal piece and that piece is attacked (docs/rules.md 3.5).
func (p *Position) InCheck() bool {
	st := p.cur()
	if st.check == 0 {
		us := p.side
		st.check = 2
		if p.nroyal[us] == 1 && p.Attacked(p.royals[us][0], us.Other()) {
			st.check = 1
		}
	}
	return st.check == 1
}

// addTo adds the move(s) of a piece of gen g from from to to, expanding
// promotions; with promoOnly, only if they are promotions.
func (p *Position) addTo(ml *MoveList, g *pieceGen, us Color, from, to Square, promoOnly bool) {
	c := &p.v.c
	switch g.promo {
	case PromoteOnLastRank:
		if c.lastRank[us][to] {
			for _, t := range g.promoTo {
				ml.add(NewMove(from, to, KindPromotion, t))
			}
			return
		}
	case PromoteOnFarCorners:
		if c.farCorner[us][to] {
			ml.add(NewMove(from, to, KindPromotion, g.promoTo[0]))
			return
		}
	case PromotePawnOfPawns:
		if c.lastRank[us][to] {
			switch pp := p.cur().pp[us]; {
			case pp >= 2:
				ml.add(NewMove(from, to, KindPromotion, g.promoTo[0]))
			case promoOnly:
			case pp == 0:
				ml.add(NewMove(from, to, KindArrive, 0))
			default:
				ml.add(NewMove(from, to, KindRelocate, 0))
			}
			return
		}
	case PromoteInZone:
		if k := c.fromLast[us][to]; k < g.zone {
			p.addZonePromotions(ml, g, us, from, to)
			if k == 0 || promoOnly {
				return
			}
		}
	}
	if !promoOnly {
		ml.add(NewMove(from, to, KindNormal, 0))
	}
}

// addZonePromotions adds the promotions of a PromoteInZone piece of gen g
// from from to to: one per type of g.promoTo still within its limit.
func (p *Position) addZonePromotions(ml *MoveList, g *pieceGen, us Color, from, to Square) {
	for i, t := range g.promoTo {
		if g.promoLimit == nil || p.countType(us, t) < int(g.promoLimit[i]) {
			ml.add(NewMove(from, to, KindPromotion, t))
		}
	}
}

// countType returns the number of pieces of type t that side us owns.
func (p *Position) countType(us Color, t PieceType) int {
	n := 0
	code := MakePiece(t, us)
	for _, s := range p.list[us][:p.count[us]] {
		if p.board[s]&0x7f == code {
			n++
		}
	}
	return n
}

// genPiece adds the pseudo-legal moves of the piece on from (of color us),
// without castling, en passant, exchanges or lifts.
func (p *Position) genPiece(ml *MoveList, from Square, us Color) {
	p.genPieceMoves(ml, from, us, false)
}

// genPieces adds the moves of genPiece of every piece of the side to move
// but a waiting pawn of pawns, then its en passant captures; with capsOnly
// only those that capture or promote, in the same order.
func (p *Position) genPieces(ml *MoveList, capsOnly bool) {
	us := p.side
	waiting := p.cur().waiting[us]
	gen := &p.v.c.gen
	for i := 0; i < p.count[us]; i++ {
		from := p.list[us][i]
		switch {
		case from == waiting:
		case capsOnly && gen[p.board[from]&0x7f].promo == NoPromotion:
			p.genPieceCaptures(ml, from, us)
		default:
			p.genPieceMoves(ml, from, us, capsOnly)
		}
	}
	p.genEnPassant(ml)
}

// genPieceCaptures adds the captures of genPieceMoves for the piece on from,
// which does not promote, in the same order. Their targets come from square
// sets: a leap's from the squares the piece's leaps capture on, met with
// the enemy pieces; a slide's or a hop's from the first (or second)
// occupied square of its ray.
func (p *Position) genPieceCaptures(ml *MoveList, from Square, us Color) {
	b := &p.board
	c := &p.v.c
	g := &c.gen[b[from]&0x7f]
	i := int(c.index[from])
	noCap := p.cur().waiting[us.Other()]
	enemy := p.byColor[us.Other()]
	if g.leapTab > 0 {
		if caps := c.leapTo[g.leapTab-1].capture[i].And(enemy); caps.Any() {
			them := Piece(us.Other())
			for _, l := range g.leaps {
				to := from + Square(l.d)
				if t := b[to]; t != Empty && t&0x81 == them && l.mode != MoveOnly && to != noCap {
					p.addTo(ml, g, us, from, to, false)
				}
			}
		}
	}
	if len(g.rides) == 0 && len(g.hops) == 0 {
		return
	}
	occ := p.occupied()
	for k := range g.rides {
		r := &g.rides[k]
		if r.mode == MoveOnly {
			continue
		}
		o := i
		if r.first != 0 {
			f := from + Square(r.first)
			if b[f] != Empty {
				continue // a bent slide's first step is blocked
			}
			o = int(c.index[f])
		}
		blk := c.rays[r.ray][o].And(occ)
		if blk.Empty() {
			continue
		}
		t := nearest(blk, r.up)
		if !enemy.Has(t) || (r.window != nil && !r.window[o].Has(t)) {
			continue
		}
		if to := c.square[t]; to != noCap {
			p.addTo(ml, g, us, from, to, false)
		}
	}
	for k := range g.hops {
		h := &g.hops[k]
		if h.mode == MoveOnly {
			continue
		}
		blk := c.rays[h.ray][i].And(occ)
		if blk.Empty() {
			continue
		}
		blk = blk.AndNot(BitAt(nearest(blk, h.up)))
		if blk.Empty() {
			continue
		}
		t := nearest(blk, h.up)
		if !enemy.Has(t) {
			continue
		}
		if to := c.square[t]; to != noCap {
			p.addTo(ml, g, us, from, to, false)
		}
	}
}

// genPieceMoves adds the moves of genPiece for the piece on from, or with
// capsOnly those that capture or promote. A move to an empty square is then
// only looked at when the piece promotes; the royals' citadel entries and
// the KindDouble steps never capture or promote.
func (p *Position) genPieceMoves(ml *MoveList, from Square, us Color, capsOnly bool) {
	b := &p.board
	c := &p.v.c
	pc := b[from] & 0x7f
	g := &c.gen[pc]
	st := p.cur()
	noCap := st.waiting[us.Other()]
	them := Piece(us.Other())
	// quiets: moves to empty squares are looked at
	quiets := !capsOnly || g.promo != NoPromotion
	leaps := g.leaps
	if capsOnly && g.leapTab > 0 {
		// only captures and moves onto a promotion square can be added
		t := &c.leapTo[g.leapTab-1]
		i := c.index[from]
		free := c.all.AndNot(p.occupied())
		if t.capture[i].And(p.byColor[us.Other()]).Empty() && t.move[i].And(free).And(g.promoSq).Empty() {
			leaps = nil
		}
	}
	for _, l := range leaps {
		to := from + Square(l.d)
		t := b[to]
		if t == Empty {
			if quiets && l.mode != CaptureOnly {
				p.addTo(ml, g, us, from, to, capsOnly)
			}
		} else if t&0x81 == them && l.mode != MoveOnly && to != noCap {
			p.addTo(ml, g, us, from, to, false)
		}
	}
	for _, r := range g.rides {
		to := from + Square(r.first)
		if r.first != 0 && b[to] != Empty {
			continue // a bent slide's first step is blocked
		}
		for k := 1; k <= r.max; k++ {
			to += Square(r.d)
			t := b[to]
			if t == Empty {
				if quiets && k >= r.min && r.mode != CaptureOnly {
					p.addTo(ml, g, us, from, to, capsOnly)
				}
				continue
			}
			if t&0x81 == them && k >= r.min && r.mode != MoveOnly && to != noCap {
				p.addTo(ml, g, us, from, to, false)
			}
			break
		}
	}
	for _, h := range g.hops {
		to := from + Square(h.d)
		for b[to] == Empty {
			to += Square(h.d)
		}
		if b[to]&0x80 != 0 {
			continue
		}
		for to += Square(h.d); b[to] == Empty; to += Square(h.d) {
			if quiets && h.mode != CaptureOnly {
				p.addTo(ml, g, us, from, to, capsOnly)
			}
		}
		if b[to]&0x81 == them && h.mode != MoveOnly && to != noCap {
			p.addTo(ml, g, us, from, to, false)
		}
	}
	if !quiets {
		return
	}
	for _, d := range g.doubles {
		if d.needsRight {
			if st.rights&c.clearMask[from] == 0 {
				continue
			}
		} else if from.Rank() != d.fromRank {
			continue
		}
		mid := from + Square(d.d)
		to := mid + Square(d.d)
		if b[mid] != Empty || b[to] != Empty {
			continue
		}
		if !d.ep {
			p.addTo(ml, g, us, from, to, capsOnly)
		} else if !capsOnly {
			ml.add(NewMove(from, to, KindDouble, 0))
		}
	}
	if g.royal && !capsOnly {
		if cs := c.nearCit[from]; cs != NoSquare && b[cs] == Offboard {
			owner := c.citOwner[cs]
			if (owner == us && g.ownCit) || (owner != us && p.isRanking(g, us)) {
				ml.add(NewMove(from, cs, KindNormal, 0))
			}
		}
	}
}

// isRanking reports whether a royal of gen g is its side's ranking royal
// (docs/rules.md 3.5: King, then Prince, then Adventitious King).
func (p *Position) isRanking(g *pieceGen, us Color) bool {
	for _, s := range p.royals[us][:p.nroyal[us]] {
		if p.v.c.gen[p.board[s]&0x7f].rank < g.rank {
			return false
		}
	}
	return true
}

// GeneratePseudo adds every pseudo-legal move of the side to move (moves
// that may leave its only royal attacked), except exchanges, which depend
// on legality.
func (p *Position) GeneratePseudo(ml *MoveList) {
	us := p.side
	st := p.cur()
	p.genPieces(ml, false)
	for i := range p.v.Castling {
		p.genCastle(ml, &p.v.Castling[i])
	}
	if st.waiting[us] != NoSquare {
		p.genLifts(ml)
	}
}

// genCastle adds a castling move under the orthodox conditions: the right
// is held, every square between King and Rook and on their paths is empty,
// and the King does not start, pass or land on an attacked square.
func (p *Position) genCastle(ml *MoveList, cr *CastlingRule) {
	us := p.side
	if cr.Color != us || p.cur().rights&(1<<cr.Right) == 0 {
		return
	}
	k, r := p.board[cr.KingFrom], p.board[cr.RookFrom]
	if k == Empty || r == Empty || !p.v.c.gen[k].king || k.Color() != us || r.Color() != us {
		return
	}
	lo, hi := minSq(cr.KingFrom, cr.KingTo, cr.RookFrom, cr.RookTo), maxSq(cr.KingFrom, cr.KingTo, cr.RookFrom, cr.RookTo)
	for s := lo; s <= hi; s++ {
		if s != cr.KingFrom && s != cr.RookFrom && p.board[s] != Empty {
			return
		}
	}
	step := Square(1)
	if cr.KingTo < cr.KingFrom {
		step = -1
	}
	them := us.Other()
	for s := cr.KingFrom; ; s += step {
		if p.Attacked(s, them) {
			return
		}
		if s == cr.KingTo {
			break
		}
	}
	ml.add(NewMove(cr.KingFrom, cr.KingTo, KindCastle, 0))
}

func minSq(s ...Square) Square {
	m := s[0]
	for _, x := range s[1:] {
		if x < m {
			m = x
		}
	}
	return m
}

func maxSq(s ...Square) Square {
	m := s[0]
	for _, x := range s[1:] {
		if x > m {
			m = x
		}
	}
	return m
}

// genLifts adds the waiting pawn of pawns' lifts (docs/rules.md 3.4.2): to any
// square of the board, except one holding a royal or the other side's
// waiting pawn of pawns, from which it as a pawn attacks two enemy pieces
// other than pawns, or one that then has no move.
func (p *Position) genLifts(ml *MoveList) {
	us := p.side
	them := us.Other()
	c := &p.v.c
	st := p.cur()
	from := st.waiting[us]
	pp := p.board[from]
	g := &c.gen[pp]
	for _, s := range c.onBoard {
		t := p.board[s]
		if s == from || s == st.waiting[them] || (t != Empty && c.gen[t].royal) {
			continue
		}
		n := 0
		var target Square
		for _, l := range g.leaps {
			if l.mode != CaptureOnly {
				continue
			}
			a := s + Square(l.d)
			if x := p.board[a]; x != Empty && x&0x80 == 0 && x.Color() == them && !c.gen[x].pawn {
				n++
				target = a
			}
		}
		if n >= 2 || (n == 1 && !p.hasMoveAfterLift(from, s, target)) {
			ml.add(NewMove(from, s, KindLift, 0))
		}
	}
}

// hasMoveAfterLift reports whether the piece on target has a move (ignoring
// check) once the pawn of pawns on from is lifted to s.
func (p *Position) hasMoveAfterLift(from, s, target Square) bool {
	m := NewMove(from, s, KindLift, 0)
	p.Make(m)
	var ml MoveList
	p.genPiece(&ml, target, p.side)
	p.Unmake()
	return ml.N > 0
}

// GenerateLegal fills ml with the legal moves of the side to move. A
// position ended by a citadel entry has none (docs/rules.md 6).
func (p *Position) GenerateLegal(ml *MoveList) {
	ml.N = 0
	if p.cur().citadel {
		return
	}
	p.GeneratePseudo(ml)
	us := p.side
	if p.nroyal[us] == 1 {
		pins := p.Pins()
		n := 0
		for _, m := range ml.Moves[:ml.N] {
			if pins.Safe(p, m) || p.legalSingleRoyal(m) {
				ml.Moves[n] = m
				n++
			}
		}
		ml.N = n
	}
	if p.v.Exchange != nil {
		p.genExchanges(ml)
	}
}

// legalSingleRoyal reports whether m leaves the side's only royal unattacked.
func (p *Position) legalSingleRoyal(m Move) bool {
	p.Make(m)
	us := p.side.Other()
	ok := p.nroyal[us] != 1 || !p.Attacked(p.royals[us][0], p.side)
	p.Unmake()
	return ok
}

// genExchanges adds the King's swaps or successions (docs/rules.md 2.4, 3.5)
// after the other legal moves are known.
func (p *Position) genExchanges(ml *MoveList) {
	us := p.side
	ex := p.v.Exchange
	c := &p.v.c
	st := p.cur()
	if p.nroyal[us] != 1 {
		return
	}
	ksq := p.royals[us][0]
	if !c.gen[p.board[ksq]&0x7f].king || c.citBit[ksq] != 0 {
		return
	}
	if ex.Once && st.rights&c.swapRight[us] == 0 {
		return
	}
	check := p.InCheck() // ksq is the only royal
	switch ex.Trigger {
	case InCheckOrNoMove:
		if !check && ml.N > 0 {
			return
		}
	case InCheck:
		if !check {
			return
		}
	case Checkmated:
		if !check || ml.N > 0 {
			return
		}
	}
	// Make and Unmake reorder the piece list: iterate over a copy.
	var own [maxPieces]Square
	n := copy(own[:], p.list[us][:p.count[us]])
	for _, s := range own[:n] {
		g := &c.gen[p.board[s]&0x7f]
		if g.royal || s == st.waiting[us] || (ex.HeirOnly && !g.heir) || (g.pawn && c.lastRank[us][ksq]) {
			continue
		}
		m := NewMove(ksq, s, KindExchange, 0)
		p.Make(m)
		ok := !p.Attacked(s, p.side)
		p.Unmake()
		if ok {
			ml.add(m)
		}
	}
}
