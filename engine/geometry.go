package engine

import (
	"fmt"
	"strconv"
)

// Board geometry constants of the padded mailbox.
const (
	// Pad is the number of padding files and ranks on each side of the board.
	Pad = 3
	// Stride is the distance between two ranks in the mailbox.
	Stride = 11 + 2*Pad
	// NumSquares is the number of cells in the mailbox.
	NumSquares = Stride * Stride
	// MaxFiles and MaxRanks bound the playing area of every variant.
	MaxFiles = 11
	// MaxRanks bounds the number of ranks of every variant.
	MaxRanks = 11
	// NoSquare marks the absence of a square.
	NoSquare Square = 0
)

// Square is an index into the padded mailbox. Index 0 lies in the padding
// and is used as NoSquare.
type Square int16

// SquareAt returns the square at the given zero-based file and rank; file -1
// and file 11 address the padding where the citadels lie.
func SquareAt(file, rank int) Square {
	return Square((rank+Pad)*Stride + file + Pad)
}

// File returns the zero-based file of s (-1 for Black's citadel z9).
func (s Square) File() int { return int(s)%Stride - Pad }

// Rank returns the zero-based rank of s.
func (s Square) Rank() int { return int(s)/Stride - Pad }

// String returns the coordinate name of s: files a..k, the left citadel file
// z, the right citadel file l, ranks from 1 (e.g. "e2", "a10", "l2", "z9").
func (s Square) String() string {
	if s == NoSquare {
		return "-"
	}
	f := s.File()
	var fc byte
	switch {
	case f == -1:
		fc = 'z'
	case f >= 0 && f < 26:
		fc = byte('a' + f)
	default:
		return fmt.Sprintf("?%d", int(s))
	}
	return string(fc) + strconv.Itoa(s.Rank()+1)
}

// delta returns the mailbox offset of a (file, rank) step.
func delta(df, dr int) int { return df + dr*Stride }
