// Package quality measures the moves of players position by position
// against an oracle, a much stronger searcher: each player chooses a move
// in every position of a set, the oracle searches the position after each
// move chosen, and the move's value is the oracle's expected score for
// the side that played it. Players are compared pair by pair on the same
// positions, so the comparison needs far fewer positions than a match
// needs games, and it says where (at which phase of the game) one player
// chooses worse moves than another.
//
// A move's value is W(-s), s the oracle's score in centipawns of the
// position after the move (its side to move), W(x) = 1/(1+10^(-x/400)),
// a mate counting as ±MateCP. Each player searches every position afresh
// (NewGame before each move), so the moves do not depend on the order of
// the positions.
package quality

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"golang.org/x/sync/errgroup"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/internal/stats"
	"tamerlane/selfplay"
	"tamerlane/selfplay/elo"
)

// MateCP is the score a mate counts as, and the bound of every score.
const MateCP = 2000

// nBands is the number of phase bands of the report, quarters of the
// phase (non-pawn material left, 1 at the start, as the evaluation's
// taper measures it).
const nBands = 4

// band returns the band of a phase in [0, 1].
func band(phase float64) int { return max(0, min(nBands-1, int(phase*nBands))) }

// Player is one player to compare: its name in the report and how to
// build it.
type Player struct {
	Name string
	Spec selfplay.PlayerSpec
}

// Options are the settings of Measure.
type Options struct {
	// Players are compared with the first of them (at least one).
	Players []Player
	// Oracle values the moves; its Spec's limits should make it far
	// stronger than the players.
	Oracle Player
	// Factory builds the players and the oracle (selfplay.DefaultFactory
	// when nil).
	Factory selfplay.PlayerFactory
	// Workers is the number of positions judged at once (1 when 0).
	Workers int
	// Progress, when set, receives a line every 100 positions.
	Progress io.Writer
}

// Interval is an estimate with its 95% interval (normal, positions
// independent).
type Interval = stats.Interval

// Band is one phase band of a player's comparison with the first player.
type Band struct {
	PhaseLo   float64  `json:"phase_lo"`
	PhaseHi   float64  `json:"phase_hi"`
	Positions int      `json:"positions"`
	Mean      float64  `json:"mean"`
	Diff      Interval `json:"diff"`
}

// PlayerResult is one player's moves as the oracle values them.
type PlayerResult struct {
	Name string `json:"name"`
	// Mean is the mean value of its moves (an expected score in [0, 1]).
	Mean float64 `json:"mean"`
	// Diff is the mean of its move's value minus the first player's, with
	// its 95% interval (0 for the first player).
	Diff Interval `json:"diff"`
	// Same counts the positions where it chose the first player's move.
	Same  int    `json:"same"`
	Bands []Band `json:"bands"`
}

// Row is one position: the move of each player and its value.
type Row struct {
	FEN    string    `json:"fen"`
	Phase  float64   `json:"phase"`
	Moves  []string  `json:"moves"`
	Scores []int     `json:"oracle_cp"` // the oracle's score of each move for its mover (moverCP)
	Values []float64 `json:"values"`
}

// Report is the result of Measure.
type Report struct {
	Variant    string         `json:"variant"`
	Positions  int            `json:"positions"`
	Oracle     string         `json:"oracle"`
	Definition string         `json:"definition"`
	Players    []PlayerResult `json:"players"`
	Rows       []Row          `json:"rows,omitempty"`
}

// Definition states what the report's figures are.
const Definition = "value of a move: W(-s), s the oracle's score (cp, mate = ±2000) of the position after it, W(x) = 1/(1+10^(-x/400)); " +
	"diff: mean over the positions of a player's move value minus the first player's, 95% normal interval; " +
	"phase: non-pawn material left (1 at the start)"

// Measure has every player choose a move in every position of fens (FENs
// of v) and the oracle value each distinct move.
func Measure(ctx context.Context, v *engine.Variant, fens []string, opt Options) (*Report, error) {
	if len(opt.Players) == 0 {
		return nil, errors.New("quality: no player")
	}
	if len(fens) == 0 {
		return nil, errors.New("quality: no position")
	}
	factory := opt.Factory
	if factory == nil {
		factory = selfplay.DefaultFactory()
	}
	workers := max(1, min(opt.Workers, len(fens)))
	w, err := eval.Default(v)
	if err != nil {
		return nil, err
	}
	rows := make([]Row, len(fens))
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(next)
		for i := range fens {
			select {
			case next <- i:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	for k := 0; k < workers; k++ {
		g.Go(func() error {
			j, err := newJudge(v, opt, factory)
			if err != nil {
				return err
			}
			defer j.close()
			evk := eval.New(w)
			for i := range next {
				row, err := j.judge(gctx, fens[i], evk)
				if err != nil {
					return fmt.Errorf("quality: position %d (%s): %w", i+1, fens[i], err)
				}
				rows[i] = row
				mu.Lock()
				done++
				if opt.Progress != nil && done%100 == 0 {
					fmt.Fprintf(opt.Progress, "quality: %d/%d positions\n", done, len(fens))
				}
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	rep := &Report{Variant: v.Name, Positions: len(fens), Oracle: opt.Oracle.Name, Definition: Definition, Rows: rows}
	for p, pl := range opt.Players {
		rep.Players = append(rep.Players, summarise(pl.Name, rows, p))
	}
	return rep, nil
}

// summarise compares player p's moves with the first player's.
func summarise(name string, rows []Row, p int) PlayerResult {
	res := PlayerResult{Name: name}
	var all []float64
	var sum float64
	byBand := make([][]float64, nBands)
	bandSum := make([]float64, nBands)
	for _, r := range rows {
		d := r.Values[p] - r.Values[0]
		sum += r.Values[p]
		all = append(all, d)
		if r.Moves[p] == r.Moves[0] {
			res.Same++
		}
		b := band(r.Phase)
		byBand[b] = append(byBand[b], d)
		bandSum[b] += r.Values[p]
	}
	res.Mean = sum / float64(len(rows))
	res.Diff = stats.MeanInterval(all)
	for b := range byBand {
		bd := Band{PhaseLo: float64(b) / nBands, PhaseHi: float64(b+1) / nBands, Positions: len(byBand[b]), Diff: stats.MeanInterval(byBand[b])}
		if len(byBand[b]) > 0 {
			bd.Mean = bandSum[b] / float64(len(byBand[b]))
		}
		res.Bands = append(res.Bands, bd)
	}
	return res
}

// Value is the expected score, by the oracle, of a move after which the
// oracle's score for the side to move is cp (mate: mate distance, see
// selfplay.MoveInfo).
func Value(cp, mate int) float64 {
	return elo.EloToScore(float64(moverCP(cp, mate)))
}

// moverCP is the oracle's score for the side that made the move, from its
// score cp and mate distance for the side to move after it: a mate counts
// as ±MateCP, and every score is bounded by MateCP.
func moverCP(cp, mate int) int {
	switch {
	case mate > 0:
		return -MateCP
	case mate < 0:
		return MateCP
	}
	return max(-MateCP, min(MateCP, -cp))
}
