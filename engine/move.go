package engine

import (
	"fmt"
	"strings"
)

// Move packs a move into 32 bits: from (9 bits), to (9 bits), kind (4 bits)
// and promotion type (6 bits).
type Move uint32

// MoveKind distinguishes moves that make handles differently.
type MoveKind uint8

// Move kinds.
const (
	KindNormal    MoveKind = iota
	KindDouble             // a pawn double step that creates an en passant target
	KindEnPassant          // an en passant capture
	KindCastle             // castling, written as the King's move
	KindPromotion          // promotion to Move.Promotion()
	KindExchange           // King swap or succession (docs/rules.md 2.4, 3.5)
	KindLift               // pawn of pawns lift (docs/rules.md 3.4.2)
	KindArrive             // pawn of pawns' first arrival (docs/rules.md 3.4.1)
	KindRelocate           // pawn of pawns' second arrival (docs/rules.md 3.4.3)
)

// NullMove is the zero move; it is never legal.
const NullMove Move = 0

// NewMove builds a move.
func NewMove(from, to Square, kind MoveKind, promo PieceType) Move {
	return Move(uint32(from) | uint32(to)<<9 | uint32(kind)<<18 | uint32(promo)<<22)
}

// From returns the origin square.
func (m Move) From() Square { return Square(m & 0x1ff) }

// To returns the destination square.
func (m Move) To() Square { return Square(m >> 9 & 0x1ff) }

// Kind returns the move kind.
func (m Move) Kind() MoveKind { return MoveKind(m >> 18 & 0xf) }

// Promotion returns the promotion type (0: none).
func (m Move) Promotion() PieceType { return PieceType(m >> 22 & 0x3f) }

// MaxMoves bounds the number of legal moves of any position.
const MaxMoves = 1024

// MoveList is a fixed-capacity list of moves that lives on the stack.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
}

// Slice returns the moves as a slice of the list's storage.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// Len returns the number of moves.
func (l *MoveList) Len() int { return l.N }

func (l *MoveList) add(m Move) {
	l.Moves[l.N] = m
	l.N++
}

// Coord returns the coordinate notation of m (docs/rules.md: from, to, and a
// lowercase promotion letter where the mover has a choice).
func (p *Position) Coord(m Move) string {
	if m == NullMove {
		return "0000"
	}
	s := m.From().String() + m.To().String()
	if g := &p.v.c.gen[p.board[m.From()]&0x7f]; m.Kind() == KindPromotion && (len(g.promoTo) > 1 || g.promo == PromoteInZone) {
		s += strings.ToLower(p.v.Pieces[m.Promotion()].Token)
	}
	return s
}

// ParseCoord finds the legal move written in coordinate notation.
func (p *Position) ParseCoord(s string) (Move, error) {
	var ml MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if p.Coord(m) == s {
			return m, nil
		}
	}
	// Tell a malformed move from an illegal one.
	if len(s) < 4 {
		return NullMove, fmt.Errorf("move %q: too short for a coordinate move", s)
	}
	if _, _, err := p.splitCoord(s); err != nil {
		return NullMove, fmt.Errorf("move %q: %w", s, err)
	}
	return NullMove, fmt.Errorf("move %q is not legal in %s", s, p.FEN())
}

// splitCoord parses the two squares of a coordinate move.
func (p *Position) splitCoord(s string) (Square, Square, error) {
	// The first square ends where the second file letter starts.
	for i := 2; i <= 3 && i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' {
			from, err := p.v.ParseSquare(s[:i])
			if err != nil {
				return 0, 0, err
			}
			rest := s[i:]
			j := len(rest)
			if j > 2 && rest[j-1] >= 'a' && rest[j-1] <= 'z' && !(rest[j-2] >= 'a' && rest[j-2] <= 'z') {
				j--
			}
			to, err := p.v.ParseSquare(rest[:j])
			if err != nil {
				return 0, 0, err
			}
			return from, to, nil
		}
	}
	return 0, 0, fmt.Errorf("cannot find two squares")
}
