package engine

// GenerateCaptures adds the captures and promotions among the pseudo-legal
// moves of the side to move: exactly the moves m of GeneratePseudo with
// IsCapture(m) or m.Kind() == KindPromotion, in the same order. It spares
// the quiescence search generating the quiet moves only to drop them.
func (p *Position) GenerateCaptures(ml *MoveList) {
	st := p.cur()
	p.genPieces(ml, true)
	// Castling captures nothing; a lift may land on an enemy piece
	// (docs/rules.md 3.4.2).
	if st.waiting[p.side] != NoSquare {
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
