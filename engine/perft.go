package engine

// Perft counts the sequences of legal moves of the given depth, counting
// the last ply in bulk (docs/rules.md 6).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	if depth == 1 {
		return uint64(ml.N)
	}
	var n uint64
	for _, m := range ml.Moves[:ml.N] {
		p.Make(m)
		n += p.Perft(depth - 1)
		p.Unmake()
	}
	return n
}

// DivideEntry is one root move's subtree count.
type DivideEntry struct {
	Move  string
	Nodes uint64
}

// Divide returns the perft count below each legal root move.
func (p *Position) Divide(depth int) []DivideEntry {
	var ml MoveList
	p.GenerateLegal(&ml)
	out := make([]DivideEntry, 0, ml.N)
	for _, m := range ml.Moves[:ml.N] {
		s := p.Coord(m)
		p.Make(m)
		out = append(out, DivideEntry{Move: s, Nodes: p.Perft(depth - 1)})
		p.Unmake()
	}
	return out
}
