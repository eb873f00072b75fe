package engine

import "fmt"

// setupError is a position that docs/rules.md makes impossible: the FEN field
// at fault and the reason.
type setupError struct {
	field, msg string
}

// validateSetup rejects what no game can reach (docs/rules.md 2.2, 2.3, 2.6,
// 3.4, 3.5, 3.7, 5): a side without a royal, more royals than the variant
// allows, a piece standing where it must already have promoted, a piece
// on its own first rank that nothing can bring there (neverOnFirstRank),
// a right whose pieces have left their squares, a pawn-of-pawns count
// that disagrees with the board, and the side not to move with its only
// royal attacked (the last move would have left it in check). Called by ParseFEN after the placement
// and the rights are read.
func (p *Position) validateSetup() *setupError {
	v, c, st := p.v, &p.v.c, p.cur()
	bad := func(field, format string, a ...any) *setupError {
		return &setupError{field, fmt.Sprintf(format, a...)}
	}
	for col := White; col <= Black; col++ {
		if c.royalMask != 0 && p.nroyal[col] == 0 {
			return bad("placement", "%s has no royal piece (a King): every side keeps at least one (docs/rules.md 3.5)", col)
		}
		if p.nroyal[col] > c.maxRoyals {
			return bad("placement", "%s has %d royal pieces; %s allows one, the King (docs/rules.md 2.2, 5)", col, p.nroyal[col], v.Name)
		}
		waiting := 0
		for _, s := range p.Pieces(col) {
			pc := p.board[s] & 0x7f
			g := &c.gen[pc]
			switch {
			case (g.promo == PromoteOnLastRank || g.promo == PromoteInZone) && c.lastRank[col][s] && !v.placedByExchange(pc.Type()):
				return bad("placement", "%s %s on %s, its own last rank: it must have promoted (docs/rules.md 2.3, 3.4, 5)", col, v.Pieces[pc.Type()].Name, s)
			case g.promo == PromoteOnFarCorners && c.farCorner[col][s] && !v.placedByExchange(pc.Type()):
				return bad("placement", "%s %s on %s, a far corner: it must have promoted (docs/rules.md 2.3)", col, v.Pieces[pc.Type()].Name, s)
			case g.promo == PromotePawnOfPawns && c.lastRank[col][s]:
				waiting++
			case c.lastRank[col.Other()][s] && v.neverOnFirstRank(pc.Type()):
				return bad("placement", "%s %s on %s, its own first rank: it moves only forward and no rule of %s puts it there (docs/rules.md 2.2, 3.3, 5)", col, v.Pieces[pc.Type()].Name, s, v.Name)
			}
		}
		if waiting > 0 && st.pp[col] != 1 {
			return bad("pawnofpawns", "%s's pawn of pawns waits on its last rank, but the field counts %d arrivals: a waiting pawn has arrived exactly once (docs/rules.md 3.4, 3.7)", col, st.pp[col])
		}
		if waiting > 1 {
			return bad("placement", "%s has %d pawns of pawns on its last rank: only one can wait (docs/rules.md 3.4)", col, waiting)
		}
	}
	if them := p.side.Other(); p.nroyal[them] == 1 {
		if k := p.royals[them][0]; p.Attacked(k, p.side) {
			return bad("side", "%s's only royal, its %s on %s, stands attacked with %s to move: no move may leave its own royal attacked (docs/rules.md 3.5, 5)",
				them, v.Pieces[p.board[k].Type()].Name, k, p.side)
		}
	}
	for i, r := range v.Rights {
		if st.rights&(1<<i) == 0 {
			continue
		}
		for k, s := range r.Clear {
			want := c.rightPieces[i][k]
			if want != Empty && p.board[s]&0x7f != want {
				return bad(rightsName(v), "%q needs the %s %s on %s (docs/rules.md 2.6, 5.1)", r.Char, want.Color(), v.Pieces[want.Type()].Name, s)
			}
		}
	}
	return nil
}

// placedByExchange reports whether a piece of type t can stand anywhere
// its King stood, put there by an exchange with the King that does not
// promote it: Tamerlane II's succession puts a Prince on the King's square,
// its last rank included (docs/rules.md 2.3, 2.4); a Pawn is never swapped
// onto its last rank (docs/rules.md 3.5).
func (v *Variant) placedByExchange(t PieceType) bool {
	d := &v.Pieces[t]
	e := v.Exchange
	return e != nil && !d.Royal && !d.Pawn && (!e.HeirOnly || d.Heir)
}

// neverOnFirstRank reports whether a piece of type t can never stand on
// its side's first rank, read from the variant's data: every move of the
// piece gains rank (a pawn's), and no rule can set it down there. Two
// rules can: an exchange of squares with the King open to any non-royal
// piece (Tamerlane's swap, docs/rules.md 3.5, when the King stands on the
// first rank; Tamerlane II's succession takes only Princes, 2.4), and
// the lift of a pawn of pawns to any square of the board (3.4). The start
// array cannot (ParseFEN checks the start position too).
func (v *Variant) neverOnFirstRank(t PieceType) bool {
	d := &v.Pieces[t]
	if len(d.Moves) == 0 || d.Royal || d.Promo == PromotePawnOfPawns {
		return false
	}
	if e := v.Exchange; e != nil && (!e.HeirOnly || d.Heir) {
		return false
	}
	for _, m := range d.Moves {
		if m.DR < 1 || m.Kind == Bent && m.TR < 0 {
			return false
		}
	}
	return true
}
