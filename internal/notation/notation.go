// Package notation writes and reads moves as the engine's protocols and
// the external engines it plays write them: docs/rules.md's coordinate
// form, and for the variants Fairy-Stockfish also plays (chess,
// shatranj, shako) Fairy-Stockfish's dialect of it, in which a promotion
// always names its piece. The UCI server, the self-play driver of
// external engines and the command line share it, so that no package
// needs a protocol server for its move text.
package notation

import (
	"fmt"
	"strings"

	"tamerlane/engine"
)

// fsfVariants maps the variants Fairy-Stockfish also plays to its
// UCI_Variant names. Moves of these variants are written in
// Fairy-Stockfish's dialect (a promotion always names its piece, even a
// forced one: shatranj's "e7e8q"); the others use docs/rules.md's coordinate
// form (a promotion letter only where the mover has a choice).
var fsfVariants = map[string]string{
	"chess":    "chess",
	"shatranj": "shatranj",
	"shako":    "shako",
}

// FSFName returns Fairy-Stockfish's UCI_Variant name of the variant
// named name and whether Fairy-Stockfish plays it.
func FSFName(name string) (string, bool) {
	n, ok := fsfVariants[name]
	return n, ok
}

// FormatMove writes m, a legal move in pos, in the UCI notation of pos's
// variant: the coordinate form of docs/rules.md, and for the variants
// Fairy-Stockfish plays its dialect (the promotion letter always
// written). pos is not changed.
func FormatMove(pos *engine.Position, m engine.Move) string {
	s := pos.Coord(m)
	if _, ok := fsfVariants[pos.Variant().Name]; !ok {
		return s
	}
	if pt := m.Promotion(); pt != 0 {
		letter := strings.ToLower(pos.Variant().Def(pt).Token)
		if !strings.HasSuffix(s, letter) {
			s += letter
		}
	}
	return s
}

// ParseMove finds the legal move of pos written s in either notation
// FormatMove knows (Fairy-Stockfish's or docs/rules.md's coordinate form).
// The error says why s is not a legal move.
func ParseMove(pos *engine.Position, s string) (engine.Move, error) {
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if FormatMove(pos, m) == s || pos.Coord(m) == s {
			return m, nil
		}
	}
	if _, err := pos.ParseCoord(s); err != nil {
		return engine.NullMove, fmt.Errorf("illegal move %q: %v", s, err)
	}
	return engine.NullMove, fmt.Errorf("illegal move %q in %s", s, pos.FEN())
}

// FormatLine writes a sequence of moves from pos (pos is not changed).
func FormatLine(pos *engine.Position, line []engine.Move) string {
	if len(line) == 0 {
		return ""
	}
	q := pos.Clone()
	parts := make([]string, 0, len(line))
	for _, m := range line {
		parts = append(parts, FormatMove(q, m))
		q.Make(m)
	}
	return strings.Join(parts, " ")
}
