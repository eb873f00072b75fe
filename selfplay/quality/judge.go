package quality

import (
	"context"
	"io"
	"math"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/selfplay"
)

// judge owns one worker's players and oracle.
type judge struct {
	v       *engine.Variant
	players []selfplay.Player
	oracle  selfplay.Player
}

func newJudge(v *engine.Variant, opt Options, factory selfplay.PlayerFactory) (*judge, error) {
	j := &judge{v: v}
	for _, p := range opt.Players {
		spec := p.Spec
		spec.Variant = v
		pl, err := factory(spec)
		if err != nil {
			j.close()
			return nil, err
		}
		j.players = append(j.players, pl)
	}
	spec := opt.Oracle.Spec
	spec.Variant = v
	o, err := factory(spec)
	if err != nil {
		j.close()
		return nil, err
	}
	j.oracle = o
	return j, nil
}

// judge has every player move in fen and the oracle value the moves (a
// move chosen by several players is searched once).
func (j *judge) judge(ctx context.Context, fen string, ev *eval.Evaluator) (Row, error) {
	pos, err := engine.ParseFEN(j.v, fen)
	if err != nil {
		return Row{}, err
	}
	row := Row{FEN: fen, Phase: float64(ev.PhaseOf(pos)) / eval.Phase}
	valued := map[engine.Move]int{} // move -> index of the first row entry with it
	for _, pl := range j.players {
		pl.NewGame()
		m, _, err := pl.Move(ctx, pos)
		if err != nil {
			return Row{}, err
		}
		if k, ok := valued[m]; ok {
			row.Moves = append(row.Moves, row.Moves[k])
			row.Scores = append(row.Scores, row.Scores[k])
			row.Values = append(row.Values, row.Values[k])
			continue
		}
		mover := pos.SideToMove()
		pos.Make(m)
		var info selfplay.MoveInfo
		if res, _ := pos.Outcome(); res != engine.Ongoing {
			// The move ends the game: its result is its value.
			info = selfplay.MoveInfo{Score: int(math.Round((0.5 - res.Score()) * 2 * MateCP))}
			if mover == engine.Black {
				info.Score = -info.Score
			}
		} else {
			j.oracle.NewGame()
			_, info, err = j.oracle.Move(ctx, pos)
		}
		pos.Unmake()
		if err != nil {
			return Row{}, err
		}
		valued[m] = len(row.Moves)
		row.Moves = append(row.Moves, pos.Coord(m))
		row.Scores = append(row.Scores, moverCP(info.Score, info.Mate))
		row.Values = append(row.Values, Value(info.Score, info.Mate))
	}
	return row, nil
}

// close stops the players that run processes.
func (j *judge) close() {
	for _, p := range append(j.players, j.oracle) {
		if c, ok := p.(io.Closer); ok {
			c.Close()
		}
	}
}
