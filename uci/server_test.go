package uci

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/search"
	"tamerlane/internal/lineio/linetest"
	"tamerlane/internal/notation"
)

// newClient starts a server driven through pipes, line by line.
func newClient(t *testing.T) *linetest.Session {
	t.Helper()
	return linetest.Start(t, NewServer("test", "test").Run)
}

// TestHandshakeAndOptions checks the uci answer (every variant in the
// UCI_Variant combo, the options) and isready.
func TestHandshakeAndOptions(t *testing.T) {
	c := newClient(t)
	c.Send("uci")
	lines := c.Until("uciok", 5*time.Second)
	all := strings.Join(lines, "\n")
	for _, n := range engine.VariantNames() {
		if !strings.Contains(all, " var "+n) {
			t.Errorf("UCI_Variant combo lacks %s:\n%s", n, all)
		}
	}
	for _, o := range []string{"option name UCI_Variant type combo", "option name Hash type spin", "option name Weights type string",
		"option name Rules type string", "option name Move Overhead type spin"} {
		if !strings.Contains(all, o) {
			t.Errorf("no %q in:\n%s", o, all)
		}
	}
	c.Send("isready")
	c.Until("readyok", 5*time.Second)
}

// TestBadInput checks that unknown commands, malformed FENs, illegal
// moves, unknown options and bad values give an "info string error"
// line and leave the server working.
func TestBadInput(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct{ cmd, want string }{
		{"frobnicate", `unknown command "frobnicate"`},
		{"position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1", "bad FEN"},
		{"position startpos moves e2e4 e7e4", `illegal move "e7e4"`},
		{"position sideways", "position needs startpos or fen"},
		{"setoption name UCI_Variant value chezz", `variant "chezz"`},
		{"setoption name Hash value lots", "option Hash: bad value"},
		{"setoption name Hash value 99999999", "option Hash: bad value"},
		{"setoption name Rules value giraffe=7", `with rules "giraffe=7"`},
		{"setoption name Rules value bogus", `option Rules`},
		{"setoption name Colour value blue", `unknown option "Colour"`},
		{"setoption", "setoption needs"},
		{"go depth x", `go depth: bad value "x"`},
	} {
		c.Send(tc.cmd)
		lines := c.Until("info string", 5*time.Second)
		if l := lines[len(lines)-1]; !strings.HasPrefix(l, "info string error: ") || !strings.Contains(l, tc.want) {
			t.Errorf("%q: got %q, want an error containing %q", tc.cmd, l, tc.want)
		}
		if strings.HasPrefix(tc.cmd, "go") {
			c.Send("stop")
			c.Until("bestmove", 5*time.Second)
		}
	}
	// A weights file that cannot be read is reported at isready; the
	// embedded table is used.
	c.Send("setoption name Weights value /nonexistent/table.yaml", "isready")
	lines := c.Until("readyok", 5*time.Second)
	if !strings.Contains(strings.Join(lines, "\n"), "info string error: option Weights") || !strings.Contains(strings.Join(lines, "\n"), "/nonexistent/table.yaml") {
		t.Errorf("bad weights: %q", lines)
	}
	c.Send("setoption name Weights value <empty>")
	// The position before the illegal move stands; the server still plays.
	c.Send("position startpos moves e2e4 e7e4", "d")
	lines = c.Until("Fen:", 5*time.Second)
	if l := lines[len(lines)-1]; l != "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" {
		t.Errorf("after the illegal move: %s", l)
	}
	c.Send("go depth 2")
	lines = c.Until("bestmove", 10*time.Second)
	if l := lines[len(lines)-1]; l == "bestmove (none)" {
		t.Errorf("no move: %v", lines)
	}
	c.Send("quit")
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
}

// TestRulesBeforeVariant checks that Rules may come before UCI_Variant:
// chess reports that the rules do not apply, tamerlane then uses them.
func TestRulesBeforeVariant(t *testing.T) {
	c := newClient(t)
	c.Send("setoption name Rules value giraffe=2")
	if l := c.Until("info string", 5*time.Second); !strings.Contains(l[len(l)-1], "playing chess without them") {
		t.Errorf("rules on chess: %q", l)
	}
	const fen = "k10/11/11/11/11/5G5/11/11/11/10K w - 00 0 1"
	c.Send("setoption name UCI_Variant value tamerlane", "position fen "+fen, "go perft 1")
	lines := c.Until("Nodes searched", 5*time.Second)
	for _, l := range lines {
		if strings.HasPrefix(l, "info string") {
			t.Errorf("tamerlane with giraffe=2: %s", l)
		}
	}
	// A lone Giraffe has more moves with giraffe=2 than with 3 (docs/rules.md 3.8).
	count := func(giraffe string) int {
		pos, err := engine.ParseFEN(engine.MustVariant("tamerlane", engine.Options{"giraffe": giraffe}), fen)
		if err != nil {
			t.Fatal(err)
		}
		var ml engine.MoveList
		pos.GenerateLegal(&ml)
		return ml.N
	}
	want := count("2")
	if got := len(lines) - 2; got != want || want == count("3") {
		t.Errorf("%d moves, want %d (giraffe=3: %d)", got, want, count("3"))
	}
}

// TestInfiniteStopIsready checks go infinite: isready is answered during
// the search, no bestmove comes before stop, and stop brings one at once.
func TestInfiniteStopIsready(t *testing.T) {
	c := newClient(t)
	c.Send("setoption name UCI_Variant value tamerlane2", "position startpos", "go infinite", "isready")
	lines := c.Until("readyok", 5*time.Second)
	for _, l := range lines {
		if strings.HasPrefix(l, "bestmove") {
			t.Fatalf("bestmove before stop: %v", lines)
		}
	}
	c.Send("stop")
	lines = c.Until("bestmove", 5*time.Second)
	pos := engine.NewPosition(engine.MustVariant("tamerlane2", nil))
	best := strings.Fields(lines[len(lines)-1])[1]
	if _, err := notation.ParseMove(pos, best); err != nil {
		t.Errorf("bestmove %s: %v", best, err)
	}
	// quit during a search answers with bestmove and ends the session.
	c.Send("go infinite", "quit")
	c.Until("bestmove", 5*time.Second)
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
}

// TestGoLimits checks depth, nodes and clock searches: a legal bestmove,
// info lines with every field, and ucinewgame between them.
func TestGoLimits(t *testing.T) {
	c := newClient(t)
	c.Send("setoption name UCI_Variant value shako", "ucinewgame", "position startpos moves e3e5 f8f6", "go depth 3")
	lines := c.Until("bestmove", 10*time.Second)
	var info string
	for _, l := range lines {
		if strings.HasPrefix(l, "info depth 3 ") {
			info = l
		}
	}
	for _, f := range []string{" seldepth ", " score cp ", " nodes ", " nps ", " time ", " pv "} {
		if !strings.Contains(info, f) {
			t.Errorf("info line %q lacks %q", info, f)
		}
	}
	c.Send("ucinewgame", "go nodes 500")
	c.Until("bestmove", 10*time.Second)
	c.Send("position startpos", "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 1")
	lines = c.Until("bestmove", 10*time.Second)
	if strings.HasSuffix(lines[len(lines)-1], "(none)") {
		t.Errorf("no move: %v", lines)
	}
}

// TestMateAndGameOver checks mate scores and a finished position.
func TestMateAndGameOver(t *testing.T) {
	c := newClient(t)
	c.Send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "go depth 4")
	lines := c.Until("bestmove", 10*time.Second)
	if lines[len(lines)-1] != "bestmove a1a8" || !strings.Contains(strings.Join(lines, "\n"), "score mate 1") {
		t.Errorf("mate in one: %v", lines)
	}
	c.Send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1 moves a1a8", "go depth 4")
	lines = c.Until("bestmove", 10*time.Second)
	if lines[len(lines)-1] != "bestmove (none)" || !strings.Contains(strings.Join(lines, "\n"), "checkmate") {
		t.Errorf("mated side: %v", lines)
	}
}

// TestPositionWithoutStart checks "position moves ..." and "position
// moves", which name no position to start from: an error line, the
// previous position kept, and the server still answering.
func TestPositionWithoutStart(t *testing.T) {
	c := newClient(t)
	c.Send("position startpos moves e2e4")
	for _, cmd := range []string{"position moves e2e4 e7e5", "position moves"} {
		c.Send(cmd)
		if l := c.Until("info string", 5*time.Second); !strings.Contains(l[len(l)-1], "info string error: position needs startpos or fen") {
			t.Errorf("%q: %q", cmd, l)
		}
	}
	c.Send("d", "isready")
	lines := c.Until("readyok", 5*time.Second)
	if lines[0] != "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" {
		t.Errorf("position after the bad commands: %q", lines)
	}
	c.Send("quit")
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
}

// TestPerftStoppable checks that go perft runs like a search: isready is
// answered during the count, stop and quit end it, and so does the end
// of the input (a perft of depth 20 would otherwise run for ever).
func TestPerftStoppable(t *testing.T) {
	c := newClient(t)
	c.Send("position startpos", "go perft 20", "isready")
	c.Until("readyok", 5*time.Second)
	c.Send("stop")
	if l := c.Until("info string", 5*time.Second); !strings.HasPrefix(l[len(l)-1], "info string perft stopped") {
		t.Errorf("stop: %q", l)
	}
	// The server still works: a small count completes.
	c.Send("go perft 2")
	if l := c.Until("Nodes searched", 5*time.Second); l[len(l)-1] != "Nodes searched: 400" {
		t.Errorf("perft 2: %q", l)
	}
	c.Send("go perft 20", "quit")
	wait(t, c.Wait)

	var out strings.Builder
	run := func() error {
		return NewServer("test", "test").Run(context.Background(), strings.NewReader("position startpos\ngo perft 20\n"), &out)
	}
	wait(t, run)
	if !strings.Contains(out.String(), "info string perft stopped") {
		t.Errorf("perft at the end of the input: %q", out.String())
	}
}

// wait fails the test if f does not return within five seconds.
func wait(t *testing.T, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not end")
	}
}

// TestInvalidLimits checks that a go whose limits are all invalid (zero
// or negative depths, node counts, perft depths, a value that is not a
// number, an unknown argument) is answered with an error line and the
// bestmove of the smallest search, without a stop: it never searches for
// ever.
func TestInvalidLimits(t *testing.T) {
	c := newClient(t)
	c.Send("position startpos")
	for _, tc := range []struct{ cmd, want string }{
		{"go depth 0", `go depth: bad value "0" (at least 1)`},
		{"go depth -1", `go depth: bad value "-1"`},
		{"go nodes 0", `go nodes: bad value "0"`},
		{"go nodes -5", `go nodes: bad value "-5"`},
		{"go perft 0", `go perft: bad value "0"`},
		{"go perft -2", `go perft: bad value "-2"`},
		{"go mate 0", `go mate: bad value "0"`},
		{"go depth", `go depth: missing value`},
		{"go sideways", `go: unknown argument "sideways"`},
	} {
		c.Send(tc.cmd)
		lines := c.Until("bestmove", 5*time.Second)
		all := strings.Join(lines, "\n")
		if !strings.Contains(all, "info string error: "+tc.want) {
			t.Errorf("%q: no error %q in %q", tc.cmd, tc.want, lines)
		}
		if l := lines[len(lines)-1]; l == "bestmove (none)" || !strings.Contains(all, "info depth 1 ") {
			t.Errorf("%q: %q, want the bestmove of a depth 1 search", tc.cmd, lines)
		}
	}
	// A valid limit beside a bad one is kept.
	c.Send("go depth 0 nodes 300")
	lines := c.Until("bestmove", 5*time.Second)
	if all := strings.Join(lines, "\n"); strings.Contains(all, "searching depth 1") || !strings.Contains(all, "nodes 300 ") {
		t.Errorf("go depth 0 nodes 300: %q", lines)
	}
}

// TestInfoLineDepths checks that the info line reports the last completed
// iteration as depth and the longest line as seldepth, even when that is
// shorter (every line ended by a rule) or no iteration completed.
func TestInfoLineDepths(t *testing.T) {
	root := engine.NewPosition(engine.MustVariant("chess", nil))
	for _, tc := range []struct {
		r    search.Result
		want string
	}{
		{search.Result{Depth: 12, SelDepth: 19}, "info depth 12 seldepth 19 "},
		{search.Result{Depth: 40, SelDepth: 1}, "info depth 40 seldepth 1 "},
		{search.Result{Depth: 0, SelDepth: 1}, "info depth 0 seldepth 1 "},
	} {
		if got := infoLine(root, tc.r); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v: %q, want %q...", tc.r, got, tc.want)
		}
	}
}

// TestNoRepeatedFinalInfo checks that a search that ends with an iteration
// does not report that iteration twice: consecutive info lines differ in
// more than their nps and time.
func TestNoRepeatedFinalInfo(t *testing.T) {
	c := newClient(t)
	c.Send("position startpos", "go depth 4")
	lines := c.Until("bestmove", 10*time.Second)
	strip := regexp.MustCompile(` (nps|time) \d+`)
	prev := ""
	for _, l := range lines {
		if !strings.HasPrefix(l, "info depth") {
			continue
		}
		if s := strip.ReplaceAllString(l, ""); s == prev {
			t.Errorf("info line repeated: %q", l)
		} else {
			prev = s
		}
	}
}
