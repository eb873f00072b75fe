package engine

// Color is a side: White moves first in every variant.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposing side.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// PieceType indexes a variant's piece table; 0 means no piece.
type PieceType uint8

// Piece is a board cell: 0 is empty, otherwise type<<1 | color. Bit 7 marks
// cells outside the playing area (padding and citadels); a piece standing in
// a citadel is stored with bit 7 set so that no slide, leap or capture ever
// reaches it.
type Piece uint8

// Cell codes.
const (
	Empty    Piece = 0
	Offboard Piece = 0x80
)

// MakePiece returns the piece of type t and color c.
func MakePiece(t PieceType, c Color) Piece { return Piece(t)<<1 | Piece(c) }

// Type returns the piece type (the citadel bit is ignored).
func (p Piece) Type() PieceType { return PieceType(p&0x7f) >> 1 }

// Color returns the piece's side.
func (p Piece) Color() Color { return Color(p & 1) }

// Mode restricts a movement component to moving, capturing or both.
type Mode uint8

// Movement modes.
const (
	MoveOrCapture Mode = iota // moves to an empty square or captures
	MoveOnly                  // moves only to empty squares
	CaptureOnly               // only captures
)

// ComponentKind names how a movement component travels.
type ComponentKind uint8

// Component kinds.
const (
	// Leap jumps by (DF, DR) regardless of what stands between.
	Leap ComponentKind = iota
	// Slide moves along (DF, DR) through empty squares, stopping after at
	// least Min and at most Max steps (Max 0: unlimited).
	Slide
	// Hop slides along (DF, DR) over exactly one piece (the screen) and
	// lands on the first occupied square beyond it (the cannon's capture).
	Hop
	// Bent steps once by (DF, DR) to an empty square, then slides along
	// (TF, TR) at least Min and at most Max further squares.
	Bent
	// DoubleStep moves two squares by (DF, DR) through an empty square, to
	// an empty square, from the piece's start rank (FromRank, relative to
	// its side) or, with NeedsRight, while the piece keeps its first-move
	// right. With EnPassant the passed square becomes an en passant target.
	DoubleStep
)

// Component is one part of a piece's movement, in White's orientation
// (Black mirrors ranks). Symmetric expansions are made by the helper
// constructors, so a component is always a single direction.
type Component struct {
	Kind       ComponentKind
	DF, DR     int8
	TF, TR     int8
	Min, Max   int8
	Mode       Mode
	FromRank   int8
	NeedsRight bool
	EnPassant  bool
}

// PromotionKind names how a piece promotes.
type PromotionKind uint8

// Promotion kinds.
const (
	NoPromotion PromotionKind = iota
	// PromoteOnLastRank: reaching the last rank promotes to one of To.
	PromoteOnLastRank
	// PromoteOnFarCorners: ending a move on one of the far corners promotes to To[0].
	PromoteOnFarCorners
	// PromotePawnOfPawns: Tamerlane's pawn of pawns (docs/rules.md 3.4): the first
	// arrival waits, the second relocates it, the third promotes to To[0].
	PromotePawnOfPawns
	// PromoteInZone: a move ending in the last Zone ranks may promote to
	// one of To, or stay as it is; on the last rank it must promote. With
	// OnlyCaptured it may promote only to a type of which its side has
	// fewer on the board than in the start array; a move to the last rank
	// with no such type left does not exist.
	PromoteInZone
)

// PieceDef describes one piece type of a variant: its name, its FEN token,
// how it moves, and its special roles.
type PieceDef struct {
	Name   string      // e.g. "Knight", "Pawn of rooks"
	Token  string      // FEN token in White's case, e.g. "N", "PR"
	Moves  []Component // movement components
	Pawn   bool        // a pawn: resets move counters, is not a lift target
	Royal  bool        // a royal piece (docs/rules.md 3.5)
	Rank   int         // royal ranking: 0 King, 1 Prince, 2 Adventitious King
	King   bool        // the King: castles, swaps, succeeds (docs/rules.md 2.4, 3.5)
	Heir   bool        // may succeed the checkmated King (docs/rules.md 2.4)
	OwnCit bool        // may enter its own citadel (docs/rules.md 3.1)
	Promo  PromotionKind
	To     []string // promotion tokens
	// Zone is the number of ranks, counted from the last, where a
	// PromoteInZone piece may promote (0 or 1: the last rank only).
	Zone int
	// OnlyCaptured limits a PromoteInZone piece's promotions to the types
	// its side has lost: fewer on the board than in the start array.
	OnlyCaptured bool
	// EPCapture lets the piece's capture-only leaps take en passant.
	EPCapture bool
}

// ColourBound reports whether every move of d keeps it on squares of one
// colour (the bishop, the ferz, the alfil, the camel): every displacement
// has an even sum of file and rank steps.
func (d *PieceDef) ColourBound() bool {
	if len(d.Moves) == 0 {
		return false
	}
	even := func(df, dr int8) bool { return (int(df)+int(dr))%2 == 0 }
	for _, m := range d.Moves {
		switch m.Kind {
		case Bent:
			if !even(m.DF, m.DR) || !even(m.TF, m.TR) {
				return false
			}
		case DoubleStep:
			// two steps of (DF, DR): always an even displacement
		default:
			if !even(m.DF, m.DR) {
				return false
			}
		}
	}
	return true
}

func sym8(df, dr int8) [][2]int8 {
	seen := map[[2]int8]bool{}
	var out [][2]int8
	for _, v := range [][2]int8{{df, dr}, {dr, df}} {
		for _, sf := range []int8{1, -1} {
			for _, sr := range []int8{1, -1} {
				o := [2]int8{v[0] * sf, v[1] * sr}
				if !seen[o] {
					seen[o] = true
					out = append(out, o)
				}
			}
		}
	}
	return out
}

// leaper returns symmetric leaps by (df, dr) in every direction.
func leaper(df, dr int8, mode Mode) []Component {
	return symmetric(df, dr, Component{Kind: Leap, Mode: mode})
}

// rider returns symmetric slides along (df, dr) with a minimum and maximum
// distance (max 0: unlimited).
func rider(df, dr int8, min, max int8, mode Mode) []Component {
	return symmetric(df, dr, Component{Kind: Slide, Min: min, Max: max, Mode: mode})
}

// hopper returns symmetric cannon hops along (df, dr).
func hopper(df, dr int8, mode Mode) []Component {
	return symmetric(df, dr, Component{Kind: Hop, Mode: mode})
}

// symmetric returns one copy of c per symmetric direction of (df, dr).
func symmetric(df, dr int8, c Component) []Component {
	var cs []Component
	for _, o := range sym8(df, dr) {
		c.DF, c.DR = o[0], o[1]
		cs = append(cs, c)
	}
	return cs
}

// bent returns the bent slides that step diagonally and continue along the
// vertical component (vertical) and/or the horizontal component
// (horizontal) of that step, at least min squares beyond the diagonal step.
func bent(vertical, horizontal bool, min int8) []Component {
	var cs []Component
	for _, d := range [][2]int8{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
		if vertical {
			cs = append(cs, Component{Kind: Bent, DF: d[0], DR: d[1], TF: 0, TR: d[1], Min: min, Mode: MoveOrCapture})
		}
		if horizontal {
			cs = append(cs, Component{Kind: Bent, DF: d[0], DR: d[1], TF: d[0], TR: 0, Min: min, Mode: MoveOrCapture})
		}
	}
	return cs
}

// pawnMoves returns a pawn's forward step and diagonal captures.
func pawnMoves() []Component {
	return []Component{
		{Kind: Leap, DF: 0, DR: 1, Mode: MoveOnly},
		{Kind: Leap, DF: -1, DR: 1, Mode: CaptureOnly},
		{Kind: Leap, DF: 1, DR: 1, Mode: CaptureOnly},
	}
}

func join(parts ...[]Component) []Component {
	var out []Component
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
