package quality

import (
	"fmt"

	"tamerlane/engine"
	"tamerlane/selfplay"
)

// SampleRun returns positions of the finished games of the self-play or
// match run in dir (one still playing included): every every-th position,
// in the order of the run's journals, in which its stream's first player
// is to move after the opening book (in a match, player A's moves), with
// the variant they belong to. Every stream must play the same variant
// under the same rules.
func SampleRun(dir string, every int) (*engine.Variant, []string, error) {
	if every < 1 {
		return nil, nil, fmt.Errorf("quality: sampling every %d positions: want at least 1", every)
	}
	var v *engine.Variant
	var fens []string
	seen := 0
	for g, err := range selfplay.Games(dir) {
		if err != nil {
			return nil, nil, err
		}
		if v == nil {
			v = g.Variant
		} else if g.Variant.Name != v.Name || g.Variant.Options.String() != v.Options.String() {
			return nil, nil, fmt.Errorf("quality: %s mixes variants (%s and %s of stream %s): judge one at a time", dir, v.Name, g.Variant.Name, g.Stream)
		}
		err = g.Walk(func(ply int, pos *engine.Position, _ engine.Move) error {
			if ply >= g.BookPlies && g.FirstToMove(pos) {
				if seen%every == 0 {
					fens = append(fens, pos.FEN())
				}
				seen++
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	if len(fens) == 0 {
		return nil, nil, fmt.Errorf("quality: no finished game in %s", dir)
	}
	return v, fens, nil
}
