package selfplay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"tamerlane/engine"
)

// Terminations that are not rules of the game (the others are the
// engine's engine.Reason strings).
const (
	// TermAdjudicatedDraw: draw adjudication (AdjudicationConfig.Draw).
	TermAdjudicatedDraw = "adjudication: draw"
	// TermAdjudicatedLoss: resign adjudication (AdjudicationConfig.Resign).
	TermAdjudicatedLoss = "adjudication: resign"
	// TermMaxPlies: the game reached Config.MaxPlies and is drawn.
	TermMaxPlies = "max plies"
)

// jMove is one searched move of a journal game.
type jMove struct {
	M  string `json:"m"`            // coordinate notation
	S  int    `json:"s"`            // score, cp, mover's view
	Mt int    `json:"mt,omitempty"` // mate distance, mover's view
	D  int    `json:"d"`            // depth
	N  int64  `json:"n"`            // nodes
}

// jGame is one game of a journal line.
type jGame struct {
	FEN         string   `json:"fen"`         // the game's root position
	Book        []string `json:"book"`        // opening moves, coordinate notation
	Moves       []jMove  `json:"moves"`       // searched moves
	Result      string   `json:"result"`      // "1-0", "0-1", "1/2-1/2"
	Termination string   `json:"termination"` // why the game ended
	Samples     []int    `json:"samples"`     // indices into Moves of the sampled positions
	Ms          int64    `json:"ms"`          // wall time in milliseconds (timing only)
}

// gameSetup is everything one game depends on.
type gameSetup struct {
	v       *engine.Variant
	root    string
	book    []string
	players [2]PlayerSpec // by colour
	cfg     *Config
	seed    uint64 // sampling seed
	factory PlayerFactory
}

// playGame plays one game to its end.
func playGame(ctx context.Context, g *gameSetup) (*jGame, error) {
	pos, err := engine.ParseFEN(g.v, g.root)
	if err != nil {
		return nil, err
	}
	for _, mv := range g.book {
		m, err := pos.ParseCoord(mv)
		if err != nil {
			return nil, fmt.Errorf("opening move %s: %v", mv, err)
		}
		pos.Make(m)
	}
	var players [2]Player
	for c := range players {
		if players[c], err = g.factory(g.players[c]); err != nil {
			return nil, err
		}
		if cl, ok := players[c].(io.Closer); ok {
			defer cl.Close() // outside engines: end the process
		}
		players[c].NewGame()
	}
	out := &jGame{FEN: g.root, Book: slices.Clone(g.book), Moves: []jMove{}}
	if out.Book == nil {
		out.Book = []string{}
	}
	adj := g.cfg.Adjudication
	drawCount := 0
	var resignCount [2]int
	var lastScore [2]int
	var haveScore [2]bool
	var inCheck []bool
	plies := len(g.book)
	var ml engine.MoveList
	result, term := engine.Ongoing, ""
	for {
		if res, reason := pos.Outcome(); res != engine.Ongoing {
			result, term = res, string(reason)
			break
		}
		if plies >= g.cfg.MaxPlies {
			result, term = engine.Draw, TermMaxPlies
			break
		}
		us := pos.SideToMove()
		m, info, err := players[us].Move(ctx, pos)
		var forfeit *ForfeitError
		if err != nil && ctx.Err() == nil && errors.As(err, &forfeit) {
			// An outside engine's failure loses the game, not the run.
			result, term = engine.WhiteWins, forfeit.Termination
			if us == engine.White {
				result = engine.BlackWins
			}
			break
		}
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pos.GenerateLegal(&ml)
		if !slices.Contains(ml.Slice(), m) {
			return nil, fmt.Errorf("player returned the illegal move %v in %s", m, pos.FEN())
		}
		inCheck = append(inCheck, pos.InCheck())
		out.Moves = append(out.Moves, jMove{M: pos.Coord(m), S: info.Score, Mt: info.Mate, D: info.Depth, N: info.Nodes})
		pos.Make(m)
		plies++
		score := effectiveScore(info)
		lastScore[us], haveScore[us] = score, true
		if res, reason := pos.Outcome(); res != engine.Ongoing {
			result, term = res, string(reason)
			break
		}
		// Draw adjudication: both sides within ±S for C moves each.
		if adj.Draw.MoveCount > 0 {
			if pos.HalfmoveClock() == 0 || abs(score) > adj.Draw.Score {
				drawCount = 0
			} else {
				drawCount++
			}
			if plies/2 >= adj.Draw.MoveNumber && drawCount >= 2*adj.Draw.MoveCount {
				result, term = engine.Draw, TermAdjudicatedDraw
				break
			}
		}
		// Resign adjudication: the mover at most -S for C of its moves
		// (and, two-sided, the opponent at least +S).
		if adj.Resign.MoveCount > 0 {
			them := us.Other()
			agree := !adj.Resign.TwoSided || haveScore[them] && lastScore[them] >= adj.Resign.Score
			if score <= -adj.Resign.Score && agree {
				resignCount[us]++
			} else {
				resignCount[us] = 0
			}
			if resignCount[us] >= adj.Resign.MoveCount {
				result, term = engine.WhiteWins, TermAdjudicatedLoss
				if us == engine.White {
					result = engine.BlackWins
				}
				break
			}
		}
	}
	out.Result, out.Termination = result.String(), term
	out.Samples = sample(g, len(g.book), inCheck)
	return out, nil
}

// sample draws the game's data-set positions: indices of searched moves
// whose position qualifies (see DatasetConfig), sorted.
func sample(g *gameSetup, book int, inCheck []bool) []int {
	d := g.cfg.Dataset
	out := []int{}
	if d.PositionsPerGame == 0 {
		return out
	}
	var cand []int
	for i, chk := range inCheck {
		if book+i < d.SkipPlies || d.SkipInCheck && chk {
			continue
		}
		cand = append(cand, i)
	}
	r := newRNG(g.seed)
	k := min(d.PositionsPerGame, len(cand))
	for i := 0; i < k; i++ {
		j := i + r.intn(len(cand)-i)
		cand[i], cand[j] = cand[j], cand[i]
	}
	out = append(out, cand[:k]...)
	slices.Sort(out)
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
