package uci

import (
	"strings"
	"testing"
	"time"

	"tamerlane/engine"
	"tamerlane/internal/lineio/linetest"
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
	if _, err := ParseMove(pos, best); err != nil {
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

// TestBudget checks the time manager: the hard bound never exceeds the
// clock less the overhead; a simulated 10+0.1 game of 300 moves in which
// every move uses its whole hard bound plus the overhead never runs out
// of time; and controls without increment (movestogo) survive 300 moves
// of searches that overrun their target by an iteration.
func TestBudget(t *testing.T) {
	const overhead = 50 * time.Millisecond
	for _, tc := range []struct {
		base, inc time.Duration
		mtg       int
	}{
		{10 * time.Second, 100 * time.Millisecond, 0},
		{10 * time.Second, 0, 40},
		{2 * time.Second, 0, 10},
		{60 * time.Second, time.Second, 0},
	} {
		left := tc.base
		for move := 0; move < 300; move++ {
			mtg := 0
			if tc.mtg > 0 {
				mtg = tc.mtg - move%tc.mtg
			}
			soft, hard := Budget(left, tc.inc, mtg, overhead)
			if soft > hard || hard <= 0 {
				t.Fatalf("%+v move %d: soft %v hard %v", tc, move, soft, hard)
			}
			if hard > left-overhead {
				t.Fatalf("%+v move %d: hard %v with %v left", tc, move, hard, left)
			}
			cost := hard
			if tc.inc < overhead {
				// Without an increment to repay it a search that always ran
				// to its bound would halve the clock every move; charge a
				// search that overruns its target by a whole iteration.
				cost = min(hard, 2*soft)
			}
			left -= cost + overhead
			if left <= 0 {
				t.Fatalf("%+v: lost on time at move %d (hard %v)", tc, move, hard)
			}
			left += tc.inc
			if tc.mtg > 0 && mtg == 1 {
				left += tc.base
			}
		}
	}
	// The target uses a sensible share: about a thirtieth of the clock
	// plus most of the increment.
	soft, hard := Budget(10*time.Second, 100*time.Millisecond, 0, overhead)
	if soft < 300*time.Millisecond || soft > 500*time.Millisecond || hard > 5*time.Second {
		t.Errorf("10+0.1 at the start: soft %v hard %v", soft, hard)
	}
}

// TestLagTracker checks the learning of the clock latency the engine
// cannot see: a GUI clock that runs 300 ms more per move than the
// engine's own time raises the overhead to 300 ms, a larger time control
// (time added) is ignored, and the estimate decays when the lag goes away.
func TestLagTracker(t *testing.T) {
	var l lagTracker
	inc := 100 * time.Millisecond
	left := 10 * time.Second
	if got := l.observe(left, inc); got != 0 {
		t.Fatalf("first move: lag %v", got)
	}
	spent := 400 * time.Millisecond
	l.moved(spent)
	left = left - spent - 300*time.Millisecond + inc
	if got := l.observe(left, inc); got != 300*time.Millisecond {
		t.Fatalf("lag %v, want 300ms", got)
	}
	l.moved(spent)
	left = left - spent + inc + 40*time.Second // a new time control
	if got := l.observe(left, inc); got != 300*time.Millisecond {
		t.Fatalf("after a time control: lag %v, want it kept at 300ms", got)
	}
	var got time.Duration
	for i := 0; i < 20; i++ {
		l.moved(spent)
		left = left - spent + inc
		got = l.observe(left, inc)
	}
	if got > 5*time.Millisecond {
		t.Errorf("lag %v after 20 moves without latency", got)
	}
	// The floor: a tenth of the largest clock seen, at most a second.
	if f := l.floor(); f != time.Second {
		t.Errorf("floor %v after a 50 s clock, want 1s", f)
	}
	l.reset()
	l.observe(2*time.Second, 0)
	if f := l.floor(); f != 200*time.Millisecond {
		t.Errorf("floor %v with a 2 s clock, want 200ms", f)
	}
}
