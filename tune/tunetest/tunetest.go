// Package tunetest holds helpers that the tests of the packages built on
// the tuner share (tune, pipeline). It is imported only by tests.
package tunetest

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"

	"tamerlane/engine"
	"tamerlane/engine/enginetest"
	"tamerlane/selfplay"
)

// WriteSeparated writes to path a data set (positions.jsonl) of n chess
// positions from random playouts drawn with seed, each with a knight
// more on one side and won by that side: the knight's weight separates
// the results perfectly, so a fit without a prior pushes it out of
// range, as a few dozen real games of a variant with many piece types
// can.
func WriteSeparated(path string, n int, seed uint64) error {
	v := engine.MustVariant("chess", nil)
	knight, _ := v.PieceByToken("N")
	rng := rand.New(rand.NewPCG(seed, 7))
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for g, kept := 0, 0; kept < n; g++ {
		plies := 20 + rng.IntN(60)
		p := enginetest.Playout(v, rng, plies)
		d := p.Count(knight, engine.White) - p.Count(knight, engine.Black)
		if r, _ := p.Outcome(); r != engine.Ongoing || p.InCheck() || d == 0 {
			continue
		}
		result := 0.0
		if d > 0 {
			result = 1
		}
		kept++
		rec := selfplay.Record{FEN: p.FEN(), Result: result, Ply: plies, Game: int64(g), Variant: v.Name, Rules: v.Options.String()}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
