package engine

// Read-only accessors for the evaluation and the search (packages
// engine/eval and engine/search). Nothing here changes a position.

// Reach returns the number of squares the piece on s can reach with one
// pseudo-legal move of its movement components: empty squares for the
// components that move, enemy-occupied squares for the components that
// capture. Double steps, en passant, castling, citadel steps, exchanges and
// lifts are not counted, and the waiting pawn of pawns counts as
// capturable, so the count is an approximation of mobility that depends
// only on the position. Mobility answers the same from the square-set
// tables and is what the evaluation calls; Reach and ReachAvoiding walk
// the board square by square and are the reference the tests check it
// against.
//
// If cover is not nil, Reach also sets cover[t] to 1 for every square t the
// piece attacks: every square of the playing area that one of its capturing
// components reaches, whatever stands there (a square holding a friendly
// piece is defended). A cannon attacks every square beyond its screen up to
// and including the first piece. Citadels are never marked (docs/rules.md 3.1).
//
// s must hold a piece; Reach does not allocate.
func (p *Position) Reach(s Square, cover *[NumSquares]uint8) int {
	var none [NumSquares]uint8
	n, _ := p.ReachAvoiding(s, cover, &none)
	return n
}

// ReachAvoiding is Reach that also returns how many of the squares it
// counts have avoid[t] == 1 (avoid holds 0 or 1: for example the squares
// the enemy pawns attack; all 0 counts none). avoid must not be nil: the
// count is added without a test, which keeps the evaluation's hot loop
// as fast as Reach's.
func (p *Position) ReachAvoiding(s Square, cover, avoid *[NumSquares]uint8) (n, avoided int) {
	b := &p.board
	pc := b[s] & 0x7f
	g := &p.v.c.gen[pc]
	them := Piece(pc.Color().Other())
	for _, l := range g.leaps {
		to := int(s) + l.d
		t := b[to]
		if t == Empty {
			if l.mode != CaptureOnly {
				n++
				avoided += int(avoid[to])
			}
			if l.mode != MoveOnly && cover != nil {
				cover[to] = 1
			}
			continue
		}
		if t&0x80 != 0 || l.mode == MoveOnly {
			continue
		}
		if cover != nil {
			cover[to] = 1
		}
		if t&1 == them {
			n++
			avoided += int(avoid[to])
		}
	}
	for _, r := range g.rides {
		to := int(s) + r.first
		if r.first != 0 && b[to] != Empty {
			continue // a bent slide's first step is blocked
		}
		for k := 1; k <= r.max; k++ {
			to += r.d
			t := b[to]
			if t == Empty {
				if k >= r.min {
					if r.mode != CaptureOnly {
						n++
						avoided += int(avoid[to])
					}
					if r.mode != MoveOnly && cover != nil {
						cover[to] = 1
					}
				}
				continue
			}
			if t&0x80 == 0 && k >= r.min && r.mode != MoveOnly {
				if cover != nil {
					cover[to] = 1
				}
				if t&1 == them {
					n++
					avoided += int(avoid[to])
				}
			}
			break
		}
	}
	for _, h := range g.hops {
		to := int(s) + h.d
		for b[to] == Empty {
			to += h.d
		}
		if b[to]&0x80 != 0 {
			continue
		}
		to += h.d
		for b[to] == Empty {
			if h.mode != CaptureOnly {
				n++
				avoided += int(avoid[to])
			}
			if h.mode != MoveOnly && cover != nil {
				cover[to] = 1
			}
			to += h.d
		}
		if t := b[to]; t&0x80 == 0 && h.mode != MoveOnly {
			if cover != nil {
				cover[to] = 1
			}
			if t&1 == them {
				n++
				avoided += int(avoid[to])
			}
		}
	}
	return n, avoided
}

// IsCapture reports whether m, a move of the side to move, takes
// an enemy piece: a normal move or promotion onto an enemy piece, an en
// passant capture, or a pawn of pawns' lift onto an enemy piece. Castling,
// exchanges (whose destination holds an own piece) and a relocation's
// removal of a piece do not count.
func (p *Position) IsCapture(m Move) bool {
	switch m.Kind() {
	case KindEnPassant:
		return true
	case KindCastle, KindExchange:
		return false
	}
	t := p.board[m.To()]
	return t != Empty && t&0x80 == 0 && t.Color() != p.side
}

// Bare reports whether side c owns nothing but royal pieces (docs/rules.md 5.2).
func (p *Position) Bare(c Color) bool { return p.count[c] == p.nroyal[c] }

// NonPawnCount returns the number of pieces of side c that are neither
// pawns nor royal.
func (p *Position) NonPawnCount(c Color) int {
	n := 0
	for _, s := range p.list[c][:p.count[c]] {
		g := &p.v.c.gen[p.board[s]&0x7f]
		if !g.pawn && !g.royal {
			n++
		}
	}
	return n
}

// LegalAfterPseudo reports whether the pseudo-legal move m (from
// GeneratePseudo) is legal: it must not leave the mover's only royal
// attacked. It makes and unmakes m. GenerateLegal applies the same test,
// and adds exchanges, which GeneratePseudo leaves out.
func (p *Position) LegalAfterPseudo(m Move) bool {
	if p.nroyal[p.side] != 1 {
		return true
	}
	return p.legalSingleRoyal(m)
}

// LastMoveLeftRoyalAttacked reports, right after Make of a pseudo-legal
// move, whether that move was illegal because it left the mover's only
// royal attacked (the test of LegalAfterPseudo, for callers that make the
// move anyway). A move never lowers its own side's royals from two to one,
// so testing after the move is the same as GenerateLegal's test.
func (p *Position) LastMoveLeftRoyalAttacked() bool {
	us := p.side.Other()
	return p.nroyal[us] == 1 && p.Attacked(p.royals[us][0], p.side)
}
