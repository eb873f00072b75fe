package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Setup is a board being set up by hand: pieces put on and taken off
// squares, the side to move and the rights kept from the position it
// started from. Position turns it into a position through the same checks
// as ParseFEN, so that callers (imbalance arrays, tests, tools) never
// write FEN placement themselves.
type Setup struct {
	v      *Variant
	board  [NumSquares]Piece // as Position.board: Offboard off the board and on empty citadels
	side   Color
	rights uint32
	pp     [2]uint8
}

// NewSetup returns an empty board of the variant, White to move, with no
// rights.
func NewSetup(v *Variant) *Setup {
	return &Setup{v: v, board: v.c.empty}
}

// Setup returns the position as a setup: its pieces, side to move, rights
// and pawn-of-pawns arrivals (the en passant square and the clocks are
// not kept).
func (p *Position) Setup() *Setup {
	st := p.cur()
	return &Setup{v: p.v, board: p.board, side: p.side, rights: st.rights, pp: st.pp}
}

// Variant returns the setup's variant.
func (s *Setup) Variant() *Variant { return s.v }

// At returns the piece on sq (Empty if none or off the board).
func (s *Setup) At(sq Square) Piece {
	if sq <= 0 || int(sq) >= NumSquares || s.board[sq] == Offboard {
		return Empty
	}
	return s.board[sq] &^ s.v.c.citBit[sq]
}

// Put puts pc on sq, replacing what stands there; sq must be a square of
// the board or a citadel.
func (s *Setup) Put(sq Square, pc Piece) error {
	if !s.v.OnBoard(sq) && !s.v.IsCitadel(sq) {
		return fmt.Errorf("%s is not a square of %s", sq, s.v.Name)
	}
	if pc == Empty {
		s.Remove(sq)
		return nil
	}
	s.board[sq] = pc | s.v.c.citBit[sq]
	return nil
}

// Remove empties sq and returns what stood there.
func (s *Setup) Remove(sq Square) Piece {
	pc := s.At(sq)
	if pc != Empty {
		s.board[sq] = s.v.c.empty[sq] // Offboard on a citadel
	}
	return pc
}

// SetSide sets the side to move.
func (s *Setup) SetSide(c Color) { s.side = c }

// Position returns the position set up, validated as ParseFEN validates a
// FEN. Rights whose pieces no longer stand on their start squares (a
// removed Rook's castling, a removed Prince's double step) are dropped.
func (s *Setup) Position() (*Position, error) {
	return ParseFEN(s.v, s.FEN())
}

// FEN returns the setup in the variant's notation, with the rights that
// its pieces still allow, halfmove 0 and fullmove 1.
func (s *Setup) FEN() string {
	var rights uint32
	for i := range s.v.Rights {
		if s.rights&(1<<i) != 0 && s.rightPiecesStand(i) {
			rights |= 1 << i
		}
	}
	return formatFEN(s.v, &s.board, s.side, rights, s.pp, NoSquare, 0, 1)
}

// rightPiecesStand reports whether right i's pieces stand on their start
// squares.
func (s *Setup) rightPiecesStand(i int) bool {
	for k, sq := range s.v.Rights[i].Clear {
		if want := s.v.c.rightPieces[i][k]; want != Empty && s.At(sq) != want {
			return false
		}
	}
	return true
}

// placement formats a board as a FEN placement field (docs/rules.md 2.6, 3.1,
// 3.7, 5): ranks from the last, empty squares counted, citadel occupants
// in brackets.
func placement(v *Variant, board *[NumSquares]Piece) string {
	var b strings.Builder
	for r := v.Ranks - 1; r >= 0; r-- {
		if s := SquareAt(-1, r); v.IsCitadel(s) && board[s] != Offboard {
			b.WriteString("[" + v.tokenOf(board[s]&0x7f) + "]")
		}
		empty := 0
		for f := 0; f < v.Files; f++ {
			pc := board[SquareAt(f, r)]
			if pc == Empty {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteString(v.tokenOf(pc))
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if s := SquareAt(v.Files, r); v.IsCitadel(s) && board[s] != Offboard {
			b.WriteString("[" + v.tokenOf(board[s]&0x7f) + "]")
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}
