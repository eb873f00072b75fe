package uci

import (
	"fmt"

	"tamerlane/engine"
	"tamerlane/internal/notation"
)

// perft prints the move-path count of every legal move of pos and their
// total, as Fairy-Stockfish's "go perft" does. It runs like a search:
// once done is closed it gives up, prints the counts it has and says
// that it stopped instead of printing a total. pos is restored on return.
func (s *Server) perft(done <-chan struct{}, pos *engine.Position, depth int) {
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	var total uint64
	for i, m := range ml.Slice() {
		name := notation.FormatMove(pos, m)
		pos.Make(m)
		n, ok := perftWalk(done, pos, depth-1)
		pos.Unmake()
		if !ok {
			s.send(fmt.Sprintf("info string perft stopped after %d of %d moves", i, ml.N))
			return
		}
		total += n
		s.send(fmt.Sprintf("%s: %d", name, n))
	}
	s.send("")
	s.send(fmt.Sprintf("Nodes searched: %d", total))
}

// perftWalk counts the sequences of legal moves of the given depth from
// pos, the last ply in bulk, as engine.Position.Perft does; ok is false
// if done was closed before the count was complete. pos is restored.
func perftWalk(done <-chan struct{}, pos *engine.Position, depth int) (n uint64, ok bool) {
	if depth <= 0 {
		return 1, true
	}
	// A receive from an open channel that is not ready costs a few
	// nanoseconds: checking at every inner node (the leaves are counted in
	// bulk) slows the count by little and stops it at once.
	select {
	case <-done:
		return 0, false
	default:
	}
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	if depth == 1 {
		return uint64(ml.N), true
	}
	for _, m := range ml.Slice() {
		pos.Make(m)
		c, ok := perftWalk(done, pos, depth-1)
		pos.Unmake()
		if !ok {
			return 0, false
		}
		n += c
	}
	return n, true
}
