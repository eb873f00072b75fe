package engine

// Result is a game's result from White's point of view.
type Result uint8

// Results.
const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
)

// String returns the PGN result token ("*", "1-0", "0-1", "1/2-1/2").
func (r Result) String() string {
	return [...]string{"*", "1-0", "0-1", "1/2-1/2"}[r]
}

// Score returns the result as White's score (1, 0.5, 0); Ongoing gives 0.5.
func (r Result) Score() float64 {
	switch r {
	case WhiteWins:
		return 1
	case BlackWins:
		return 0
	}
	return 0.5
}

// Reason says why a game ended.
type Reason string

// Reasons a game ends by rule.
const (
	ReasonNone           Reason = ""
	ReasonCheckmate      Reason = "checkmate"
	ReasonStalemate      Reason = "stalemate"
	ReasonCitadel        Reason = "citadel"
	ReasonRepetition     Reason = "threefold repetition"
	ReasonMoveRule       Reason = "move-count rule"
	ReasonBareKing       Reason = "bare king"
	ReasonInsufficient   Reason = "insufficient material"
	ReasonRoyalsCaptured Reason = "royals captured"
)

func winFor(c Color) Result {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

// Outcome returns the result of the position if the game is over by rule,
// with the reason (docs/rules.md 2.5, 3.6, 5). Repetitions count the positions
// played through Make since the root.
func (p *Position) Outcome() (Result, Reason) {
	us, them := p.side, p.side.Other()
	if p.cur().citadel {
		return Draw, ReasonCitadel
	}
	if p.v.c.royalMask != 0 && p.nroyal[us] == 0 {
		return winFor(them), ReasonRoyalsCaptured
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	if ml.N == 0 {
		if p.InCheck() {
			return winFor(them), ReasonCheckmate
		}
		if p.v.Stalemate == StalemateLoses {
			return winFor(them), ReasonStalemate
		}
		return Draw, ReasonStalemate
	}
	if p.v.BareKingLoses {
		if r, ok := p.bareKing(&ml); ok {
			return r, ReasonBareKing
		}
	}
	if p.InsufficientMaterial() {
		return Draw, ReasonInsufficient
	}
	if p.v.MoveRule > 0 && int(p.cur().rule50) >= p.v.MoveRule {
		return Draw, ReasonMoveRule
	}
	if p.Repetitions() >= 3 {
		return Draw, ReasonRepetition
	}
	return Ongoing, ReasonNone
}

// bareKing applies shatranj's rule (docs/rules.md 5.2): a bare King loses unless
// it can bare the enemy King on the next move; two bare Kings draw.
func (p *Position) bareKing(ml *MoveList) (Result, bool) {
	us, them := p.side, p.side.Other()
	switch {
	case p.Bare(us) && p.Bare(them):
		return Draw, true
	case p.Bare(them):
		return winFor(us), true
	case p.Bare(us):
		if p.count[them]-p.nroyal[them] == 1 {
			for _, m := range ml.Slice() {
				if t := p.board[m.To()]; t != Empty && t&0x80 == 0 && t.Color() == them {
					return Ongoing, false
				}
			}
		}
		return winFor(them), true
	}
	return Ongoing, false
}

// InsufficientMaterial reports a dead position under the variant's
// insufficient-material rule (docs/rules.md 5.1; false in variants without
// it): King against King, a King and one minor piece (neither pawn nor a
// slider along ranks and files) against a bare King, or Kings with
// bishops (diagonal sliders) all on squares of one colour. It is the one
// definition the game and the search share, and it does not allocate.
func (p *Position) InsufficientMaterial() bool {
	if !p.v.InsufficientMaterial {
		return false
	}
	minors, bishopsOnly, colour := 0, true, -1
	for c := White; c <= Black; c++ {
		for _, s := range p.Pieces(c) {
			g := &p.v.c.gen[p.board[s]&0x7f]
			if g.royal {
				continue
			}
			diag := p.diagonalOnly(g)
			if g.pawn || len(g.slides) > 0 && !diag {
				return false
			}
			minors++
			if len(g.slides) == 0 || !diag {
				bishopsOnly = false
				continue
			}
			if sc := (s.File() + s.Rank()) & 1; colour < 0 {
				colour = sc
			} else if sc != colour {
				bishopsOnly = false
			}
		}
	}
	return minors <= 1 || bishopsOnly
}

func (p *Position) diagonalOnly(g *pieceGen) bool {
	if len(g.leaps) > 0 || len(g.hops) > 0 || len(g.bents) > 0 {
		return false
	}
	for _, s := range g.slides {
		d := s.d
		if d != delta(1, 1) && d != delta(-1, 1) && d != delta(1, -1) && d != delta(-1, -1) {
			return false
		}
	}
	return true
}

// Repetitions returns how often the current position has occurred in the
// game history since the last irreversible move, counting itself.
func (p *Position) Repetitions() int {
	st := p.cur()
	n := 1
	limit := int(st.rule50)
	if int(st.nullPly) < limit {
		limit = int(st.nullPly)
	}
	for i := 4; i <= limit && len(p.st)-1-i >= 0; i += 2 {
		if p.st[len(p.st)-1-i].hash == st.hash {
			n++
		}
	}
	return n
}

// MakeNull passes the move to the opponent (for null-move pruning).
func (p *Position) MakeNull() {
	prev := p.cur()
	p.st = append(p.st, state{
		rights: prev.rights, pp: prev.pp, waiting: prev.waiting,
		rule50: prev.rule50 + 1, hash: prev.hash ^ zobrist.side,
	})
	if prev.ep != NoSquare {
		p.cur().hash ^= zobrist.ep[prev.ep]
	}
	p.side = p.side.Other()
	p.ply++
}

// UnmakeNull takes back MakeNull.
func (p *Position) UnmakeNull() {
	p.st = p.st[:len(p.st)-1]
	p.side = p.side.Other()
	p.ply--
}
