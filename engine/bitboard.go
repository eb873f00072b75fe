package engine

import "math/bits"

// Bitboard is a set of squares of one variant's board: bit i stands for
// the square with index i (Variant.Index), the playing area rank by rank
// from a1, then the citadels. 128 bits cover every board of up to 11x11
// squares with its citadels.
type Bitboard struct {
	Lo, Hi uint64
}

// MaxIndex bounds the square indexes of every variant: a Bitboard's size.
const MaxIndex = 128

// BitAt returns the set of the single index i (0 <= i < MaxIndex).
func BitAt(i int) Bitboard {
	if i < 64 {
		return Bitboard{Lo: 1 << uint(i)}
	}
	return Bitboard{Hi: 1 << uint(i-64)}
}

// Has reports whether index i is in b.
func (b Bitboard) Has(i int) bool {
	if i < 64 {
		return b.Lo>>uint(i)&1 != 0
	}
	return b.Hi>>uint(i-64)&1 != 0
}

// Or returns b ∪ o.
func (b Bitboard) Or(o Bitboard) Bitboard { return Bitboard{b.Lo | o.Lo, b.Hi | o.Hi} }

// And returns b ∩ o.
func (b Bitboard) And(o Bitboard) Bitboard { return Bitboard{b.Lo & o.Lo, b.Hi & o.Hi} }

// AndNot returns b \ o.
func (b Bitboard) AndNot(o Bitboard) Bitboard { return Bitboard{b.Lo &^ o.Lo, b.Hi &^ o.Hi} }

// Xor returns the symmetric difference of b and o.
func (b Bitboard) Xor(o Bitboard) Bitboard { return Bitboard{b.Lo ^ o.Lo, b.Hi ^ o.Hi} }

// Empty reports whether b has no square.
func (b Bitboard) Empty() bool { return b.Lo|b.Hi == 0 }

// Any reports whether b has a square.
func (b Bitboard) Any() bool { return b.Lo|b.Hi != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(b.Lo) + bits.OnesCount64(b.Hi) }

// First returns the lowest index in b (MaxIndex if b is empty).
func (b Bitboard) First() int {
	if b.Lo != 0 {
		return bits.TrailingZeros64(b.Lo)
	}
	return 64 + bits.TrailingZeros64(b.Hi)
}

// Last returns the highest index in b (-1 if b is empty).
func (b Bitboard) Last() int {
	if b.Hi != 0 {
		return 127 - bits.LeadingZeros64(b.Hi)
	}
	return 63 - bits.LeadingZeros64(b.Lo)
}

// PopFirst removes the lowest index from *b and returns it; *b must not be
// empty.
func (b *Bitboard) PopFirst() int {
	if b.Lo != 0 {
		i := bits.TrailingZeros64(b.Lo)
		b.Lo &= b.Lo - 1
		return i
	}
	i := bits.TrailingZeros64(b.Hi)
	b.Hi &= b.Hi - 1
	return 64 + i
}

// toggle flips index i of *b.
func (b *Bitboard) toggle(i int) {
	if i < 64 {
		b.Lo ^= 1 << uint(i)
	} else {
		b.Hi ^= 1 << uint(i-64)
	}
}

// Index returns the bit index of square s in this variant's Bitboards:
// rank*Files + file on the playing area, then the citadels in order; -1
// for a square that is neither.
func (v *Variant) Index(s Square) int {
	if s < 0 || int(s) >= NumSquares {
		return -1
	}
	return int(v.c.index[s])
}

// SquareOf returns the square of bit index i (NoSquare outside the board).
func (v *Variant) SquareOf(i int) Square {
	if i < 0 || i >= MaxIndex {
		return NoSquare
	}
	return v.c.square[i]
}

// compileIndex numbers the playing area's squares and the citadels.
func (v *Variant) compileIndex() bool {
	c := &v.c
	for s := range c.index {
		c.index[s] = -1
	}
	n := 0
	for r := 0; r < v.Ranks; r++ {
		for f := 0; f < v.Files; f++ {
			s := SquareAt(f, r)
			c.index[s] = int8(n)
			c.square[n] = s
			c.all.toggle(n)
			n++
		}
	}
	for _, ct := range v.Citadels {
		if n >= MaxIndex {
			return false
		}
		c.index[ct.Square] = int8(n)
		c.square[n] = ct.Square
		n++
	}
	return n <= MaxIndex
}

// Board returns the set of the playing area's squares (citadels excluded).
func (v *Variant) Board() Bitboard { return v.c.all }

// Occupied returns the squares holding a piece of color c, citadels
// included.
func (p *Position) Occupied(c Color) Bitboard { return p.byColor[c] }

// PiecesOf returns the squares of the pieces of type t and color c.
func (p *Position) PiecesOf(t PieceType, c Color) Bitboard { return p.byCode[MakePiece(t, c)] }
