package selfplay

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"tamerlane/engine"
)

// MoveInfo is what a player reports about the move it chose.
type MoveInfo struct {
	// Score is the search score in centipawns from the point of view of
	// the side to move in the searched position.
	Score int
	// Mate is the distance to mate in moves when the search found one:
	// positive when the side to move mates, negative when it is mated,
	// 0 when no mate was found.
	Mate int
	// Depth is the depth the search completed.
	Depth int
	// Nodes is the number of nodes searched.
	Nodes int64
}

// Player chooses moves for one side. A Player is used by one goroutine at
// a time and for one game at a time.
type Player interface {
	// NewGame forgets everything learnt in previous games, so that a game's
	// moves depend only on its own positions.
	NewGame()
	// Move returns the move to play in pos and what the player knows
	// about it. pos must be unchanged on return. Move returns an error
	// only when ctx is cancelled or the player is broken.
	Move(ctx context.Context, pos *engine.Position) (engine.Move, MoveInfo, error)
}

// Limits bound a player's search per move. Only deterministic limits
// exist: the same position and limits always give the same move.
type Limits struct {
	// Nodes per move (0: no node limit).
	Nodes int64
	// Depth per move (0: no depth limit).
	Depth int
}

// PlayerSpec says which player to build.
type PlayerSpec struct {
	// Variant is the variant the player plays.
	Variant *engine.Variant
	// Table is the path of the evaluation table ("": the embedded default).
	Table string
	// Limits bound the player's search per move.
	Limits Limits
	// NodesJitter varies the node limit of each move by up to this
	// fraction, drawn with Seed (see Config.NodesJitter).
	NodesJitter float64
	// TTMiB is the size of the player's hash table in MiB.
	TTMiB int
	// Engine, when set, makes the player an outside UCI engine
	// (ExternalFactory); Table and TTMiB are then ignored.
	Engine *EngineSpec
	// Seed drives a player's random choices (tie-breaks, node jitter);
	// players without randomness ignore it. NewGame restarts them.
	Seed uint64
}

// SameProgram reports whether p and q are the same program with the same
// knowledge, whatever their search limits: our engine with the same
// table, or the same outside engine (command, arguments and options; the
// name in the PGN may differ). A match between such players is self-play
// of that program, with a limit that may differ from side to side.
func (p PlayerSpec) SameProgram(q PlayerSpec) bool {
	if (p.Engine == nil) != (q.Engine == nil) {
		return false
	}
	if p.Engine == nil {
		return p.Table == q.Table
	}
	a, b := p.Engine, q.Engine
	return a.Cmd == b.Cmd && slices.Equal(a.Args, b.Args) && maps.Equal(a.Options, b.Options)
}

// PlayerFactory builds a fresh player. The runner calls it for every game
// (and for every opening score check), so a factory should cache what is
// expensive to load, such as evaluation tables. It must be safe for
// concurrent use.
type PlayerFactory func(spec PlayerSpec) (Player, error)

// GreedyFactory returns a factory of cheap deterministic players that look
// one ply ahead: each picks the legal move that wins at once if one does,
// and otherwise the move that leaves the best material balance (crude
// piece values derived from the piece's movement), breaking ties with a
// generator seeded by PlayerSpec.Seed. It ignores Table and Limits. Tests
// use it because it is fast and needs no evaluation tables.
func GreedyFactory() PlayerFactory {
	return func(spec PlayerSpec) (Player, error) {
		if spec.Variant == nil {
			return nil, fmt.Errorf("selfplay: greedy player without a variant")
		}
		return &greedyPlayer{values: pieceValues(spec.Variant), seed: spec.Seed, rng: newRNG(spec.Seed)}, nil
	}
}

// greedyPlayer is the player GreedyFactory builds.
type greedyPlayer struct {
	values []int // by PieceType
	seed   uint64
	rng    rng
}

func (g *greedyPlayer) NewGame() { g.rng = newRNG(g.seed) }

const greedyWin = 100000

func (g *greedyPlayer) Move(ctx context.Context, pos *engine.Position) (engine.Move, MoveInfo, error) {
	if err := ctx.Err(); err != nil {
		return engine.NullMove, MoveInfo{}, err
	}
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	if ml.N == 0 {
		return engine.NullMove, MoveInfo{}, fmt.Errorf("selfplay: greedy player asked to move in a finished game (%s)", pos.FEN())
	}
	us := pos.SideToMove()
	best, bestScore, ties := engine.NullMove, 0, 0
	for _, m := range ml.Slice() {
		pos.Make(m)
		var s int
		switch res, _ := pos.Outcome(); res {
		case engine.Ongoing:
			s = material(pos, g.values, us)
		case engine.Draw:
			s = 0
		default:
			if res == engine.WhiteWins && us == engine.White || res == engine.BlackWins && us == engine.Black {
				s = greedyWin
			} else {
				s = -greedyWin
			}
		}
		pos.Unmake()
		switch {
		case best == engine.NullMove || s > bestScore:
			best, bestScore, ties = m, s, 1
		case s == bestScore:
			// Reservoir sampling keeps every tied move equally likely.
			ties++
			if g.rng.intn(ties) == 0 {
				best = m
			}
		}
	}
	info := MoveInfo{Score: bestScore, Depth: 1, Nodes: int64(ml.N)}
	if bestScore == greedyWin {
		info.Mate = 1
	}
	return best, info, nil
}

// material returns the material balance of pos from side c's view.
func material(pos *engine.Position, values []int, c engine.Color) int {
	s := 0
	for _, sq := range pos.Pieces(c) {
		s += values[pos.At(sq).Type()]
	}
	for _, sq := range pos.Pieces(c.Other()) {
		s -= values[pos.At(sq).Type()]
	}
	return s
}

// pieceValues gives every piece type of v a crude value in centipawns
// from its movement: pawns 100, royal pieces 1000, other pieces by the
// number and reach of their movement components (at least 150).
func pieceValues(v *engine.Variant) []int {
	vals := make([]int, v.NumTypes()+1)
	for t := 1; t <= v.NumTypes(); t++ {
		d := v.Def(engine.PieceType(t))
		switch {
		case d.Pawn:
			vals[t] = 100
		case d.Royal:
			vals[t] = 1000
		default:
			n := 0
			for _, c := range d.Moves {
				w := 40
				switch c.Kind {
				case engine.Slide:
					if c.Max == 0 {
						w = 70
					} else {
						w = 30 * int(c.Max)
					}
				case engine.Hop:
					w = 45
				case engine.Bent:
					w = 60
				case engine.DoubleStep:
					w = 0
				}
				if c.Mode != engine.MoveOrCapture {
					w /= 2
				}
				n += w
			}
			vals[t] = max(150, n)
		}
	}
	return vals
}
