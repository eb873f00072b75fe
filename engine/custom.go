package engine

import "fmt"

// maxRights bounds a variant's FEN rights: a position keeps them in a
// 32-bit mask.
const maxRights = 32

// maxLeap bounds every component step in files and ranks: a step lands
// at most Pad cells beyond the board's edge, inside the mailbox padding.
const maxLeap = Pad

// NewCustomVariant compiles a variant its caller built field by field (a
// variant read from a file) so that positions can be played on it, as
// NewVariant does for the variants of the table. It refuses, with an
// error and never a panic, what the engine cannot represent: a board
// larger than MaxFiles x MaxRanks, more than 31 piece types, a step
// longer than Pad squares, a square outside the board, a right or
// castling rule the position's masks cannot hold, a promotion to an
// unknown token, and a start FEN that ParseFEN refuses (for example two
// royals where the rules allow one, docs/rules.md 2.2, 5). A variant is
// compiled once.
func NewCustomVariant(v *Variant) error {
	if v.c.tokens != nil {
		return fmt.Errorf("variant %s is already compiled", v.Name)
	}
	if err := v.checkShape(); err != nil {
		return fmt.Errorf("variant %s: %w", v.Name, err)
	}
	if err := v.compile(); err != nil {
		v.c = compiled{}
		return fmt.Errorf("variant %s: %w", v.Name, err)
	}
	if _, err := ParseFEN(v, v.StartFEN); err != nil {
		v.c = compiled{}
		return fmt.Errorf("variant %s: start position: %w", v.Name, err)
	}
	return nil
}

// checkShape checks what compile indexes without checking: the board,
// the squares the rules name and the steps of every component.
func (v *Variant) checkShape() error {
	if v.Files < 1 || v.Ranks < 2 || v.Files > MaxFiles || v.Ranks > MaxRanks {
		return fmt.Errorf("board %dx%d: want 1 to %d files and 2 to %d ranks", v.Files, v.Ranks, MaxFiles, MaxRanks)
	}
	if len(v.Pieces) < 2 {
		return fmt.Errorf("no piece types")
	}
	if len(v.Pieces[0].Moves) != 0 || v.Pieces[0].Token != "" {
		return fmt.Errorf("piece type 0 must be empty")
	}
	onBoard := func(s Square) bool {
		f, r := s.File(), s.Rank()
		return f >= 0 && f < v.Files && r >= 0 && r < v.Ranks
	}
	for _, c := range v.Citadels {
		f, r := c.Square.File(), c.Square.Rank()
		if (f != -1 && f != v.Files) || r < 0 || r >= v.Ranks || c.Owner > Black {
			return fmt.Errorf("citadel %s: want a square just left or right of the board", c.Square)
		}
	}
	citadel := func(s Square) bool {
		for _, c := range v.Citadels {
			if c.Square == s {
				return true
			}
		}
		return false
	}
	if len(v.Rights) > maxRights {
		return fmt.Errorf("%d rights, at most %d", len(v.Rights), maxRights)
	}
	for _, r := range v.Rights {
		for _, s := range r.Clear {
			if !onBoard(s) && !citadel(s) {
				return fmt.Errorf("right %q: square %s is not on the board", r.Char, s)
			}
		}
	}
	for _, cr := range v.Castling {
		for _, s := range []Square{cr.KingFrom, cr.KingTo, cr.RookFrom, cr.RookTo} {
			if !onBoard(s) {
				return fmt.Errorf("castling: square %s is not on the board", s)
			}
		}
		if cr.KingFrom.Rank() != cr.KingTo.Rank() || cr.RookFrom.Rank() != cr.KingFrom.Rank() || cr.RookTo.Rank() != cr.KingFrom.Rank() {
			return fmt.Errorf("castling %s-%s: King and Rook must stay on one rank", cr.KingFrom, cr.KingTo)
		}
		if cr.Right < 0 || cr.Right >= len(v.Rights) || v.Rights[cr.Right].Color != cr.Color {
			return fmt.Errorf("castling %s-%s: no right of its side", cr.KingFrom, cr.KingTo)
		}
	}
	if v.PawnOfPawns {
		for _, s := range v.PawnOfKingsStart {
			if !onBoard(s) {
				return fmt.Errorf("pawn of kings start %s is not on the board", s)
			}
		}
	}
	for t := 1; t < len(v.Pieces); t++ {
		d := &v.Pieces[t]
		if !validToken(d.Token) {
			return fmt.Errorf("%s: token %q: want one or two capital letters", d.Name, d.Token)
		}
		for _, m := range d.Moves {
			if err := m.checkSteps(); err != nil {
				return fmt.Errorf("%s: %w", d.Name, err)
			}
		}
		if d.Rank < 0 || d.Rank > 2 {
			return fmt.Errorf("%s: royal rank %d, want 0 to 2", d.Name, d.Rank)
		}
	}
	return nil
}

// checkSteps refuses a component whose steps leave the mailbox padding
// or that never moves.
func (m Component) checkSteps() error {
	big := func(x int8) bool { return x > maxLeap || x < -maxLeap }
	if big(m.DF) || big(m.DR) || big(m.TF) || big(m.TR) {
		return fmt.Errorf("step (%d,%d) then (%d,%d): at most %d squares in each direction", m.DF, m.DR, m.TF, m.TR, maxLeap)
	}
	if m.DF == 0 && m.DR == 0 || m.Kind == Bent && m.TF == 0 && m.TR == 0 {
		return fmt.Errorf("a step of (0,0)")
	}
	if m.Min < 0 || m.Max < 0 || (m.Max > 0 && m.Min > m.Max) {
		return fmt.Errorf("distance %d to %d", m.Min, m.Max)
	}
	if m.Kind > DoubleStep || m.Mode > CaptureOnly {
		return fmt.Errorf("unknown kind %d or mode %d", m.Kind, m.Mode)
	}
	return nil
}

// validToken reports whether tok is one or two capital letters, the FEN
// tokens parsePlacement reads.
func validToken(tok string) bool {
	if len(tok) < 1 || len(tok) > 2 {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] < 'A' || tok[i] > 'Z' {
			return false
		}
	}
	return true
}

// SymmetricSteps returns the distinct steps (df, dr) reaches by
// mirroring files, ranks and the diagonal: the eight directions of a
// Knight's leap, the four of a Wazir's, in the order the variant table's
// symmetric pieces list them.
func SymmetricSteps(df, dr int8) [][2]int8 { return sym8(df, dr) }
