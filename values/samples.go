package values

import (
	"slices"

	"tamerlane/engine"
)

// Classes maps a variant's piece types to the classes the regression
// measures: every non-royal, non-pawn piece type by its FEN token, and all
// pawn types as the one class "P" (the reference, first). With pairs, a
// class "pair.T" follows for every colour-bound type T
// (engine.PieceDef.ColourBound): owning pieces of T on both colours of
// squares, the bishop pair of Kaufman's model.
type Classes struct {
	// Names are the class names; Names[0] is "P".
	Names []string
	// ofType maps a piece type to its class (-1: royal, not measured).
	ofType []int
	// pairOf maps a piece type to its pair class (-1: none).
	pairOf []int
	// pairTypes lists the types with a pair class.
	pairTypes []engine.PieceType
	// breaks marks the types whose start-position pair one removed piece
	// breaks, for both sides (exactly two of the type, on both colours).
	breaks []bool
	// startPieces counts the non-pawn, non-royal pieces of the start
	// position (both sides), the denominator of the phase.
	startPieces int
}

// NewClasses builds the classes of v from its piece table, with a pair
// class for every colour-bound type if pairs is set.
func NewClasses(v *engine.Variant, pairs bool) *Classes {
	nt := v.NumTypes()
	c := &Classes{Names: []string{"P"}, ofType: make([]int, nt+1), pairOf: make([]int, nt+1), breaks: make([]bool, nt+1)}
	c.ofType[0], c.pairOf[0] = -1, -1
	for t := 1; t <= v.NumTypes(); t++ {
		d := v.Def(engine.PieceType(t))
		switch {
		case d.Royal:
			c.ofType[t] = -1
		case d.Pawn:
			c.ofType[t] = 0
		default:
			c.ofType[t] = len(c.Names)
			c.Names = append(c.Names, d.Token)
		}
	}
	for t := 1; t <= nt; t++ {
		c.pairOf[t] = -1
		if d := v.Def(engine.PieceType(t)); pairs && c.ofType[t] > 0 && d.ColourBound() {
			c.pairOf[t] = len(c.Names)
			c.Names = append(c.Names, "pair."+d.Token)
			c.pairTypes = append(c.pairTypes, engine.PieceType(t))
		}
	}
	start := engine.NewPosition(v)
	sig := signature(start, nt)
	c.startPieces = c.pieces(sig)
	if len(c.pairTypes) > 0 {
		m := c.pairsHeld(start)
		for i, t := range c.pairTypes {
			c.breaks[t] = held(m[0], i) && held(m[1], i) && sig[2*(t-1)] == 2 && sig[2*(t-1)+1] == 2
		}
	}
	return c
}

// PairOf returns the pair class of piece class k ("pair.T" for class
// "T"), or -1 if it has none.
func (c *Classes) PairOf(k int) int {
	for t, x := range c.ofType {
		if x == k && k > 0 {
			return c.pairOf[t]
		}
	}
	return -1
}

// BreaksPair reports whether removing one piece of class k from either
// side of the start position breaks that side's pair: what an imbalance
// match that removes it measures is then the piece and the pair
// together.
func (c *Classes) BreaksPair(k int) bool {
	for t, x := range c.ofType {
		if x == k && k > 0 {
			return c.breaks[t]
		}
	}
	return false
}

// pairsHeld returns, per side, a mask with bit 2i+parity set when the
// side owns a piece of pairTypes[i] on a square of that parity; the side
// holds pair i when both of its bits are set (held).
func (c *Classes) pairsHeld(pos *engine.Position) [2]uint64 {
	var out [2]uint64
	for side := range out {
		for _, s := range pos.Pieces(engine.Color(side)) {
			if t := pos.At(s).Type(); c.pairOf[t] >= 0 {
				i := slices.Index(c.pairTypes, t)
				out[side] |= 1 << (2*uint(i) + uint((s.File()+s.Rank())&1))
			}
		}
	}
	return out
}

// held reports whether mask (pairsHeld) holds pair i.
func held(mask uint64, i int) bool { return mask>>(2*uint(i))&3 == 3 }

// Index returns the class of a name, or -1.
func (c *Classes) Index(name string) int {
	for i, n := range c.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// pieces counts the non-pawn, non-royal pieces of both sides in a
// signature.
func (c *Classes) pieces(sig []int16) int {
	n := 0
	for t := 1; t < len(c.ofType); t++ {
		if c.ofType[t] > 0 {
			n += int(sig[2*(t-1)] + sig[2*(t-1)+1])
		}
	}
	return n
}

// shared counts the pieces (non-pawn, non-royal) both sides have in a
// signature: per type the smaller of the two counts.
func (c *Classes) shared(sig []int16) int {
	n := 0
	for t := 1; t < len(c.ofType); t++ {
		if c.ofType[t] > 0 {
			n += int(min(sig[2*(t-1)], sig[2*(t-1)+1]))
		}
	}
	return n
}

// signature is the material of both sides per piece type.
func signature(pos *engine.Position, nt int) []int16 {
	s := make([]int16, 2*nt)
	for t := 1; t <= nt; t++ {
		s[2*(t-1)] = int16(pos.Count(engine.PieceType(t), engine.White))
		s[2*(t-1)+1] = int16(pos.Count(engine.PieceType(t), engine.Black))
	}
	return s
}

func sameSig(a, b []int16) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Sample is one quiet position of one game.
type Sample struct {
	// Diff is White's count minus Black's count per class.
	Diff []float64
	// Phase is the non-pawn material left, in [0, 1].
	Phase float64
	// Game numbers the game (samples of one game are one cluster).
	Game int
	// Result is White's score in the game: 1, 0.5 or 0.
	Result float64
	// Weight is the sample's weight (1/samples of its game).
	Weight float64
}

// SampleOptions select the quiet positions.
type SampleOptions struct {
	// MinPly drops positions before this ply of the game (default 16).
	MinPly int
	// QuietPlies is how many plies the material must stay unchanged
	// (default 2).
	QuietPlies int
	// SharedPieces keeps only positions with at least this many pieces
	// (non-pawn, non-royal) that both sides have: the sum over piece
	// types of the smaller of White's and Black's counts, that is the
	// pieces on the board besides those that make up the material
	// difference (0: every position). Kaufman's 1999 values describe
	// such positions: his minor piece averaged 3.14 pawns over all, but
	// 3.25 "as long as there are other pieces on the board", endings
	// with no other pieces depressing it (README, "Piece values").
	SharedPieces int
	// Pairs adds a class "pair.T" for every colour-bound piece type T:
	// owning pieces of T on both colours of squares (Classes). Kaufman's
	// values are a bishop of 3.25 and a pair of 0.5 on top; without the
	// class the bishop's value absorbs part of the pair's.
	Pairs bool
}

func (o SampleOptions) withDefaults() SampleOptions {
	if o.MinPly == 0 {
		o.MinPly = 16
	}
	if o.QuietPlies == 0 {
		o.QuietPlies = 2
	}
	return o
}

// GameSamples replays one game (start position and moves) and returns
// its quiet samples, each of weight 1/len; game is the cluster id.
func GameSamples(c *Classes, start *engine.Position, moves []engine.Move, result float64, game int, opt SampleOptions) []Sample {
	opt = opt.withDefaults()
	pos := start.Clone()
	nt := pos.Variant().NumTypes()
	sigs := make([][]int16, 0, len(moves)+1)
	check := make([]bool, 0, len(moves)+1)
	phase := make([]float64, 0, len(moves)+1)
	var pairs [][2]uint64
	for i := 0; ; i++ {
		sig := signature(pos, nt)
		sigs = append(sigs, sig)
		if len(c.pairTypes) > 0 {
			pairs = append(pairs, c.pairsHeld(pos))
		}
		check = append(check, pos.InCheck())
		ph := 1.0
		if c.startPieces > 0 {
			ph = min(1, float64(c.pieces(sig))/float64(c.startPieces))
		}
		phase = append(phase, ph)
		if i == len(moves) {
			break
		}
		pos.Make(moves[i])
	}
	var out []Sample
	for t := opt.MinPly; t+opt.QuietPlies < len(sigs); t++ {
		if check[t] || !sameSig(sigs[t], sigs[t+opt.QuietPlies]) || c.shared(sigs[t]) < opt.SharedPieces {
			continue
		}
		d := make([]float64, len(c.Names))
		for ty := 1; ty <= nt; ty++ {
			if k := c.ofType[ty]; k >= 0 {
				d[k] += float64(sigs[t][2*(ty-1)]) - float64(sigs[t][2*(ty-1)+1])
			}
		}
		for i, ty := range c.pairTypes {
			d[c.pairOf[ty]] = b2f(held(pairs[t][0], i)) - b2f(held(pairs[t][1], i))
		}
		out = append(out, Sample{Diff: d, Phase: phase[t], Game: game, Result: result})
	}
	for i := range out {
		out[i].Weight = 1 / float64(len(out))
	}
	return out
}

// b2f is 1 for true and 0 for false.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
