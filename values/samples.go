package values

import (
	"fmt"
	"os"

	"tamerlane/engine"
	"tamerlane/selfplay"
)

// Classes maps a variant's piece types to the classes the regression
// measures: every non-royal, non-pawn piece type by its FEN token, and all
// pawn types as the one class "P" (the reference, first).
type Classes struct {
	// Names are the class names; Names[0] is "P".
	Names []string
	// ofType maps a piece type to its class (-1: royal, not measured).
	ofType []int
	// startPieces counts the non-pawn, non-royal pieces of the start
	// position (both sides), the denominator of the phase.
	startPieces int
}

// NewClasses builds the classes of v from its piece table.
func NewClasses(v *engine.Variant) *Classes {
	c := &Classes{Names: []string{"P"}, ofType: make([]int, v.NumTypes()+1)}
	c.ofType[0] = -1
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
	start := engine.NewPosition(v)
	c.startPieces = c.pieces(signature(start, v.NumTypes()))
	return c
}

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
	for i := 0; ; i++ {
		sig := signature(pos, nt)
		sigs = append(sigs, sig)
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
		out = append(out, Sample{Diff: d, Phase: phase[t], Game: game, Result: result})
	}
	for i := range out {
		out[i].Weight = 1 / float64(len(out))
	}
	return out
}

// resultScore maps a PGN result to White's score.
func resultScore(r string) (float64, bool) {
	switch r {
	case "1-0":
		return 1, true
	case "0-1":
		return 0, true
	case "1/2-1/2":
		return 0.5, true
	}
	return 0, false
}

// PGNSamples reads the games of a PGN file of one variant and returns
// their quiet samples; games of other variants are skipped, unfinished
// games ("*") too. firstGame numbers the first game's cluster; the number
// of games used is returned.
func PGNSamples(path, variant string, c *Classes, firstGame int, opt SampleOptions) ([]Sample, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var out []Sample
	n := 0
	err = selfplay.ScanPGN(f, path, func(g *selfplay.PGNGame) error {
		if v := g.Tag("Variant"); v != variant && !(v == "" && variant == "chess") {
			return nil
		}
		r, ok := resultScore(g.Result)
		if !ok {
			return nil
		}
		start, moves, err := g.Replay()
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, g.Line, err)
		}
		out = append(out, GameSamples(c, start, moves, r, firstGame+n, opt)...)
		n++
		return nil
	})
	return out, n, err
}
