package engine

// GenerateCaptures adds the captures and promotions among the pseudo-legal
// moves of the side to move: exactly the moves m of GeneratePseudo with
// IsCapture(m) or m.Kind() == KindPromotion, in the same order. It spares
// the quiescence search generating the quiet moves only to drop them.
func (p *Position) GenerateCaptures(ml *MoveList) {
	us := p.side
	st := p.cur()
	for i := 0; i < p.count[us]; i++ {
		from := p.list[us][i]
		if from == st.waiting[us] {
			continue
		}
		p.genPieceCaptures(ml, from, us)
	}
	p.genEnPassant(ml)
	// Castling captures nothing; a lift may land on an enemy piece
	// (docs/rules.md 3.4.2).
	if st.waiting[us] != NoSquare {
		n := ml.N
		p.genLifts(ml)
		k := n
		for _, m := range ml.Moves[n:ml.N] {
			if p.IsCapture(m) {
				ml.Moves[k] = m
				k++
			}
		}
		ml.N = k
	}
}

// genEnPassant adds the en passant captures of the side to move.
func (p *Position) genEnPassant(ml *MoveList) {
	ep := p.cur().ep
	if ep == NoSquare {
		return
	}
	for _, e := range p.v.c.epCodes[p.side] {
		from := ep - Square(e.d)
		if p.board[from] == e.code {
			ml.add(NewMove(from, ep, KindEnPassant, 0))
		}
	}
}

// genPieceCaptures adds the moves of genPiece for the piece on from that
// capture or promote. A move to an empty square is only looked at when the
// piece promotes; the royals' citadel entries and the double steps of a
// piece that does not promote never capture.
func (p *Position) genPieceCaptures(ml *MoveList, from Square, us Color) {
	b := &p.board
	g := &p.v.c.gen[b[from]&0x7f]
	noCap := p.cur().waiting[us.Other()]
	them := Piece(us.Other())
	promotes := g.promo != NoPromotion
	for _, l := range g.leaps {
		to := from + Square(l.d)
		t := b[to]
		if t == Empty {
			if promotes && l.mode != CaptureOnly {
				p.addPromotion(ml, g, us, from, to)
			}
		} else if t&0x81 == them && l.mode != MoveOnly && to != noCap {
			p.addTo(ml, g, us, from, to)
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
				if promotes && k >= r.min && r.mode != CaptureOnly {
					p.addPromotion(ml, g, us, from, to)
				}
				continue
			}
			if t&0x81 == them && k >= r.min && r.mode != MoveOnly && to != noCap {
				p.addTo(ml, g, us, from, to)
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
			if promotes && h.mode != CaptureOnly {
				p.addPromotion(ml, g, us, from, to)
			}
		}
		if b[to]&0x81 == them && h.mode != MoveOnly && to != noCap {
			p.addTo(ml, g, us, from, to)
		}
	}
	if !promotes {
		return
	}
	st := p.cur()
	for _, d := range g.doubles {
		if d.ep {
			continue // a KindDouble move
		}
		if d.needsRight {
			if st.rights&p.v.c.clearMask[from] == 0 {
				continue
			}
		} else if from.Rank() != d.fromRank {
			continue
		}
		mid := from + Square(d.d)
		if to := mid + Square(d.d); b[mid] == Empty && b[to] == Empty {
			p.addPromotion(ml, g, us, from, to)
		}
	}
}

// addPromotion adds the move(s) addTo adds for a move to the empty square
// to, if they are promotions. addTo adds either promotions only or a single
// move of another kind, which is taken back.
func (p *Position) addPromotion(ml *MoveList, g *pieceGen, us Color, from, to Square) {
	n := ml.N
	p.addTo(ml, g, us, from, to)
	if ml.N > n && ml.Moves[n].Kind() != KindPromotion {
		ml.N = n
	}
}
