package search

import (
	"context"

	"tamerlane/engine"
)

// quietNodeLimit bounds the quiescence search of QuiescenceLine.
const quietNodeLimit = 50000

// QuiescenceLine returns the principal variation of a quiescence search of
// pos (captures and promotions; every legal move when in check): the line
// Texel tuning plays out to reach the quiet position whose evaluation the
// search would really use. It returns nil when the position is already
// quiet or the quiescence search is too large to finish. pos is restored.
func (s *Searcher) QuiescenceLine(pos *engine.Position) []engine.Move {
	s.setup(pos.Variant())
	s.pos, s.ctx = pos, context.Background()
	s.nodes, s.stop = 0, false
	s.nodeLimit = quietNodeLimit
	s.timed = false
	s.lineOnly = true
	s.quiesce(0, -infinity, infinity)
	s.lineOnly = false
	var line []engine.Move
	if !s.stop {
		line = append(line, s.pv[0][:s.pvLen[0]]...)
	}
	s.pos, s.ctx = nil, nil
	return line
}
