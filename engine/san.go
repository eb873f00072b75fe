package engine

import (
	"fmt"
	"strings"
)

// SAN returns the standard algebraic notation of the legal move m, with
// each variant's piece letters (the FEN token in upper case). Pawn moves
// carry no letter ("e4", "dxe5", "e10=R"); promotions always name the new
// piece. Variant moves (docs/guide.md "Notation"): castling "O-O"/"O-O-O", a King
// swap or succession "K~g2" (the King's letter, '~', the partner's square),
// a pawn of pawns lift "PP@e5", a citadel step as a King move ("Kl2"). A
// '+' marks check, a '#' checkmate.
func (p *Position) SAN(m Move) string {
	var ml MoveList
	p.GenerateLegal(&ml)
	s := p.sanBody(m, ml.Slice())
	p.Make(m)
	if p.InCheck() {
		var ml MoveList
		p.GenerateLegal(&ml)
		if ml.N == 0 {
			s += "#"
		} else {
			s += "+"
		}
	}
	p.Unmake()
	return s
}

// sanBody returns the SAN of m without check marks; legal holds the
// position's legal moves (for disambiguation).
func (p *Position) sanBody(m Move, legal []Move) string {
	v := p.v
	from, to := m.From(), m.To()
	pc := p.board[from] & 0x7f
	tok := v.Pieces[pc.Type()].Token
	switch m.Kind() {
	case KindCastle:
		if to > from {
			return "O-O"
		}
		return "O-O-O"
	case KindExchange:
		return tok + "~" + to.String()
	case KindLift:
		return tok + "@" + to.String()
	}
	capture := m.Kind() == KindEnPassant
	if t := p.board[to]; t != Empty && t != Offboard {
		capture = true
	}
	var b strings.Builder
	if v.c.gen[pc].pawn {
		if capture {
			b.WriteString(from.String()[:1])
		}
	} else {
		b.WriteString(tok)
		b.WriteString(p.disambiguation(m, pc, legal))
	}
	if capture {
		b.WriteByte('x')
	}
	b.WriteString(to.String())
	if m.Kind() == KindPromotion {
		b.WriteByte('=')
		b.WriteString(v.Pieces[m.Promotion()].Token)
	}
	return b.String()
}

// disambiguation returns the file, rank or square needed to tell m from
// moves of other pieces of the same type to the same square.
func (p *Position) disambiguation(m Move, pc Piece, legal []Move) string {
	from := m.From()
	sameFile, sameRank, others := false, false, false
	for _, o := range legal {
		if o.To() != m.To() || o.From() == from || p.board[o.From()]&0x7f != pc || o.Kind() == KindExchange || o.Kind() == KindLift {
			continue
		}
		others = true
		if o.From().File() == from.File() {
			sameFile = true
		}
		if o.From().Rank() == from.Rank() {
			sameRank = true
		}
	}
	fs := from.String()
	switch {
	case !others:
		return ""
	case !sameFile:
		return fs[:1]
	case !sameRank:
		return fs[1:]
	}
	return fs
}

// ParseMove reads a move in SAN (check marks and annotations optional) or in
// coordinate notation and returns the legal move it names.
func (p *Position) ParseMove(s string) (Move, error) {
	clean := strings.TrimRight(s, "+#!?")
	if clean == "" {
		return NullMove, fmt.Errorf("move %q: empty", s)
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if p.sanBody(m, ml.Slice()) == clean || p.Coord(m) == clean {
			return m, nil
		}
	}
	// Accept castling written with zeros.
	if strings.HasPrefix(clean, "0-0") {
		alt := strings.ReplaceAll(clean, "0", "O")
		for _, m := range ml.Slice() {
			if p.sanBody(m, ml.Slice()) == alt {
				return m, nil
			}
		}
	}
	return NullMove, fmt.Errorf("move %q is not legal in position %s", s, p.FEN())
}
