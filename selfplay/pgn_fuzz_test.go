package selfplay

import (
	"bytes"
	"testing"
)

// FuzzScanPGN: any bytes either fail with an error or give games, and
// every game either replays (its variant, start position and moves) or
// fails with an error, never a panic.
func FuzzScanPGN(f *testing.F) {
	f.Add([]byte("[Event \"x\"]\n[Variant \"chess\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[Result \"1-0\"]\n\n1. e4 e5 {+0.20/5} 2. Nf3 1-0\n\n"))
	f.Add([]byte("[Result \"*\"]\n\n*\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = ScanPGN(bytes.NewReader(b), "fuzz.pgn", func(g *PGNGame) error {
			if g == nil {
				t.Fatal("nil game")
			}
			pos, moves, err := g.Replay()
			if err == nil && (pos == nil || len(moves) != len(g.Moves)) {
				t.Fatalf("replayed %d of %d moves without an error", len(moves), len(g.Moves))
			}
			return nil
		})
	})
}
