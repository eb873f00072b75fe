package selfplay

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/internal/stats"
	"tamerlane/selfplay/elo"
)

// selectEntries sorts the entries by pair and, for a stream with an SPRT,
// cuts them at the first prefix of consecutive pairs on which the test
// decides. It returns the pairs kept and the SPRT state.
func (st *stream) selectEntries(files map[string]*os.File, entries []jEntry) ([]jEntry, *SPRTSummary, error) {
	entries = slices.Clone(entries)
	slices.SortFunc(entries, func(a, b jEntry) int { return a.pair - b.pair })
	if st.sprt == nil {
		return entries, nil, nil
	}
	s := *st.sprt
	lo, hi := s.Bounds()
	sum := &SPRTSummary{Elo0: stats.Float4(s.Elo0), Elo1: stats.Float4(s.Elo1), Alpha: stats.Float4(s.Alpha), Beta: stats.Float4(s.Beta),
		Model: string(s.Model), Lower: stats.Float4(lo), Upper: stats.Float4(hi), Decision: "continue"}
	var pent elo.Pentanomial
	for i, e := range entries {
		if e.pair != i {
			break // a gap: later pairs cannot be counted yet
		}
		p, err := readEntry(files, e)
		if err != nil {
			return nil, nil, err
		}
		pent.Add(elo.Pair{outcomeFor(p.Games[0].Result, engine.White), outcomeFor(p.Games[1].Result, engine.Black)})
		llr := s.LLRPentanomial(pent)
		sum.LLR = stats.Float4(llr)
		if d := s.Decide(llr); d != elo.Continue {
			sum.Decision = d.String()
			sum.DecidedAt = i + 1
			return entries[:i+1], sum, nil
		}
	}
	return entries, sum, nil
}

// writeOutputs regenerates a stream's games.pgn and positions.jsonl from
// its journal entries, in pair order, and returns its summary.
func (st *stream) writeOutputs(dir string, entries []jEntry) (sum StreamSummary, ms int64, err error) {
	files := map[string]*os.File{}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	entries, sprt, err := st.selectEntries(files, entries)
	if err != nil {
		return sum, ms, err
	}
	sdir := filepath.Join(dir, st.dir)
	if err := os.MkdirAll(sdir, 0o755); err != nil {
		return sum, ms, err
	}
	pgn, err := fsx.Create(filepath.Join(sdir, PGNName))
	if err != nil {
		return sum, ms, err
	}
	defer pgn.Abort() // does nothing after Commit
	ds, err := fsx.Create(filepath.Join(sdir, DatasetName))
	if err != nil {
		return sum, ms, err
	}
	defer ds.Abort()
	sum = StreamSummary{
		Name: st.name, Dir: st.dir, Kind: st.kind, Variant: st.v.Name, Rules: st.v.Options.String(),
		First: st.firstName, Second: st.secondName, FirstRemoves: st.firstRemoves, SecondRemoves: st.secondRemoves,
		PairsPlanned: st.planned, Terminations: map[string]int{}, SPRT: sprt,
	}
	var pent elo.Pentanomial
	var tri elo.Trinomial
	startFEN := engine.NewPosition(st.v).FEN()
	for _, e := range entries {
		p, err := readEntry(files, e)
		if err != nil {
			return sum, ms, err
		}
		if p.Pair != e.pair {
			return sum, ms, fmt.Errorf("%s: pair %d, want %d", e.where(), p.Pair, e.pair)
		}
		var pr elo.Pair
		for g, game := range p.Games {
			firstColor := engine.White
			if g == 1 {
				firstColor = engine.Black
			}
			id := int64(2*p.Pair + g)
			n, err := st.writeGame(pgn.Writer, ds.Writer, p.Pair, g, id, game, startFEN)
			if err != nil {
				return sum, ms, fmt.Errorf("%s: pair %d game %d: %v", e.where(), p.Pair, g, err)
			}
			pr[g] = outcomeFor(game.Result, firstColor)
			sum.FirstPlayer.add(pr[g])
			wo := outcomeFor(game.Result, engine.White)
			sum.White.add(wo)
			tri.Add(wo)
			sum.Games++
			sum.Plies += len(game.Book) + len(game.Moves)
			sum.Positions += n
			sum.Terminations[game.Termination]++
		}
		pent.Add(pr)
		sum.Pairs++
		ms += p.Games[0].Ms + p.Games[1].Ms
	}
	if err := pgn.Commit(); err != nil {
		return sum, ms, err
	}
	if err := ds.Commit(); err != nil {
		return sum, ms, err
	}
	sum.White.finish()
	sum.FirstPlayer.finish()
	sum.Pentanomial = pent
	sum.MeanPlies = stats.Float4(math.NaN())
	if sum.Games > 0 {
		sum.MeanPlies = stats.Float4(float64(sum.Plies) / float64(sum.Games))
	}
	sum.Score = pairScore(pent)
	sum.Elo = estimate(pent.Elo())
	sum.NElo = estimate(pent.NormalizedElo())
	sum.WhiteElo = estimate(tri.Elo())
	return sum, ms, nil
}

// pairScore returns the mean score per game and its 95% interval from
// the variance of the pair scores (normal approximation, clipped to
// [0, 1]).
func pairScore(p elo.Pentanomial) stats.Interval {
	n := float64(p.Pairs())
	if n == 0 {
		return stats.UnknownInterval()
	}
	var mean, sq float64
	for i, c := range p {
		x := float64(i) / 4
		mean += float64(c) * x
		sq += float64(c) * x * x
	}
	mean /= n
	variance := sq/n - mean*mean
	return stats.NewInterval(mean, math.Sqrt(max(variance, 0)/n)).Clip(0, 1)
}
