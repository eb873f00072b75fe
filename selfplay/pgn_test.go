package selfplay

import (
	"strings"
	"testing"
)

// TestScanPGNExports reads PGN as other programs and game databases
// write it (PGN standard, 8.2): a comment before the first move, move
// numbers joined to their moves ("1.e4", "2...Nc6"), suffix annotations,
// NAGs, nested variations with comments, castling with zeros, and a game
// whose movetext lacks its termination marker (its Result tag stands).
// Each game's moves replay to the position written beside it.
func TestScanPGNExports(t *testing.T) {
	const text = `[Event "a"]
[Result "1-0"]

{Opening comment} 1.e4! e5 2.Nf3 $1 Nc6?! (2...d6 {Philidor} 3.d4 (3.Bc4) exd4) 3.Bb5 a6
4.Ba4 Nf6 5.0-0 Be7 1-0

[Event "b"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6!!

[Event "c"]
[Result "*"]

1. e4 c5 *
`
	type want struct {
		result string
		fen    string
	}
	wants := []want{
		{"1-0", "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"},
		{"1/2-1/2", "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4"},
		{"*", "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
	}
	var got []*PGNGame
	if err := ScanPGN(strings.NewReader(text), "x.pgn", func(g *PGNGame) error { got = append(got, g); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(wants) {
		t.Fatalf("%d games, want %d", len(got), len(wants))
	}
	for i, g := range got {
		if g.Result != wants[i].result {
			t.Errorf("game %d: result %q, want %q", i+1, g.Result, wants[i].result)
		}
		start, moves, err := g.Replay()
		if err != nil {
			t.Fatalf("game %d (%q): %v", i+1, g.Moves, err)
		}
		for _, m := range moves {
			start.Make(m)
		}
		if fen := start.FEN(); fen != wants[i].fen {
			t.Errorf("game %d: after %q\n got %s\nwant %s", i+1, g.Moves, fen, wants[i].fen)
		}
	}
	if c := got[0].Comments; len(c) != 10 || c[3] != "" {
		t.Errorf("game 1 comments %q: want 10, none from the variation", c)
	}
}

// TestScanPGNMalformed: what a reader cannot make sense of is an error
// naming the file and line, not a game.
func TestScanPGNMalformed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[Event \"a\"]\n\n1. e4 (1. d4 e5\n\n[Event \"b\"]\n\n1. e4 *\n", "x.pgn:1: unterminated variation"},
		{"[Event \"a\"]\n\n1. e4 e5) 2. Nf3 *\n", "x.pgn:3: ')' without its variation"},
		{"[Event \"a\"]\n\n1. e4 e5\n", "x.pgn:1: game without a result"},
		{"(1. e4)\n", "x.pgn:1: variation without tags"},
	} {
		err := ScanPGN(strings.NewReader(c.text), "x.pgn", func(*PGNGame) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}
