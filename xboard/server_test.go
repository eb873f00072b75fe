package xboard

import (
	"bufio"
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"tamerlane/engine"
	"tamerlane/internal/lineio/linetest"
)

// session drives a server through pipes, line by line.
type session struct{ *linetest.Session }

func newSession(t *testing.T) session {
	t.Helper()
	return session{linetest.Start(t, NewServer("test").Run)}
}

// until reads lines until one starts with prefix; all lines read are returned.
func (s session) until(prefix string) []string { return s.Until(prefix, 20*time.Second) }

func last(lines []string) string { return lines[len(lines)-1] }

// TestSessionSetboardUsermove plays a CECP session: the feature list,
// setboard, usermove, the engine's replies with sd and st, ping, undo
// and remove, a mate announced with its result.
func TestSessionSetboardUsermove(t *testing.T) {
	s := newSession(t)
	s.Send("xboard", "protover 2")
	feat := strings.Join(s.until("feature done=1"), "\n")
	for _, want := range []string{"setboard=1", "usermove=1", "ping=1", "sigint=0", "sigterm=0", `myname="test"`,
		`variants="normal,shatranj,shako,tamerlane,tamerlane-feminine,tamerlane-third,tamerlane2,full-tamerlane"`} {
		if !strings.Contains(feat, want) {
			t.Errorf("features lack %s:\n%s", want, feat)
		}
	}
	// A mate in one from a set-up position, the engine to move.
	s.Send("new", "sd 3", "setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "go")
	lines := s.until("1-0")
	if !contains(lines, "move a1a8") || last(lines) != "1-0 {checkmate}" {
		t.Errorf("mate in one: %q", lines)
	}
	// The user plays White; the engine answers as Black within st.
	s.Send("new", "st 1", "usermove e2e4")
	// (chess: 8 ranks, numbered from 1 as everywhere but on 10-rank boards)
	lines = s.until("move ")
	pos := engine.NewPosition(engine.MustVariant("chess", nil))
	pos.Make(mustMove(t, pos, "e2e4"))
	reply := strings.TrimPrefix(last(lines), "move ")
	rm, err := newBoard(pos.Variant()).parseMove(pos, reply)
	if err != nil {
		t.Fatalf("reply %q: %v", reply, err)
	}
	// force mode: moves are taken, no reply; remove takes back two plies.
	// The two moves must be legal whatever the engine replied.
	pos.Make(rm)
	pos.Make(mustMove(t, pos, "g2g3"))
	black := "a7a6"
	if _, err := pos.ParseCoord(black); err != nil {
		black = "h7h6"
	}
	s.Send("force", "usermove g2g3", "usermove "+black, "remove", "ping 7")
	lines = s.until("pong 7")
	for _, l := range lines {
		if strings.HasPrefix(l, "move ") {
			t.Errorf("reply in force mode: %q", lines)
		}
	}
	// After remove the last two plies are gone; undo once more takes back
	// the engine's reply, so Black is to move after e2e4 and e7e5 is legal.
	s.Send("undo", "usermove e7e5", "ping 8")
	lines = s.until("pong 8")
	if contains(lines, "Illegal move") {
		t.Errorf("after remove/undo: %q", lines)
	}
	s.Send("quit")
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
}

// TestBadCommands checks Error and Illegal move replies.
func TestBadCommands(t *testing.T) {
	s := newSession(t)
	for _, tc := range []struct{ cmd, want string }{
		{"frobnicate", "Error (unknown command): frobnicate"},
		{"usermove e2e5", "Illegal move (not legal): e2e5"},
		{"usermove zz", "Illegal move (not a move): zz"},
		{"variant chezz", "Error (unknown variant): chezz"},
		{"setboard rnbqkbnr/pppppppp w", "Error (bad FEN)"},
		{"level 40 x 0", "Error (bad level)"},
		{"sd -1", "Error (bad value)"},
	} {
		s.Send(tc.cmd, "ping 1")
		lines := s.until("pong 1")
		if !contains(lines, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.cmd, lines, tc.want)
		}
	}
	s.Send("quit")
	s.Wait()
}

// TestVariantsSetup checks the setup command of the large variants: the
// board size, the piece-to-char table and a FEN XBoard can read back
// (setboard) to the same position, citadels shown as the only squares of
// two extra files (docs/rules.md 3.1).
func TestVariantsSetup(t *testing.T) {
	s := newSession(t)
	for _, tc := range []struct{ variant, size string }{
		{"shako", "10x10"}, {"tamerlane2", "11x11"}, {"tamerlane", "13x10"}, {"full-tamerlane", "13x10"},
	} {
		s.Send("variant "+tc.variant, "ping 2")
		lines := s.until("pong 2")
		var su string
		for _, l := range lines {
			if strings.HasPrefix(l, "setup (") {
				su = l
			}
		}
		f := strings.Fields(su)
		if len(f) < 4 || f[2] != tc.size+"+0_fairy" || len(f[1]) != 2+2*len(xbSlots) {
			t.Errorf("%s: setup %q", tc.variant, su)
			continue
		}
		v := engine.MustVariant(tc.variant, nil)
		b := newBoard(v)
		start := engine.NewPosition(v)
		xfen := strings.Join(f[3:], " ")
		back, err := b.parseFEN(xfen)
		if err != nil {
			t.Errorf("%s: setboard of %q: %v", tc.variant, xfen, err)
			continue
		}
		if !sameBoard(back, start, b.shared) {
			t.Errorf("%s: round trip\n got %s\nwant %s", tc.variant, back.FEN(), start.FEN())
		}
		if len(v.Citadels) > 0 {
			rows := strings.Split(strings.Fields(xfen)[0], "/")
			if !strings.HasPrefix(rows[1], "1") || !strings.HasSuffix(rows[len(rows)-2], "1") || strings.Count(xfen, "*") != 2*v.Ranks-2 {
				t.Errorf("%s: citadel files in %s", tc.variant, xfen)
			}
		}
	}
	s.Send("quit")
	s.Wait()
}

// TestCitadelMoves checks that moves to and from the citadels use
// XBoard's shifted files and its 0-based ranks of a 10-rank board: our
// z9 is XBoard's a8, our l2 its m1 (Black's King may step into White's
// citadel l2, docs/rules.md 3.1).
func TestCitadelMoves(t *testing.T) {
	v := engine.MustVariant("tamerlane", nil)
	b := newBoard(v)
	pos, err := engine.ParseFEN(v, "K10/11/11/11/11/11/11/11/10k/11 b - 00 0 1")
	if err != nil {
		t.Skipf("test position: %v", err)
	}
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	found := false
	for _, m := range ml.Slice() {
		xs := b.formatMove(pos, m)
		back, err := b.parseMove(pos, xs)
		if err != nil || back != m {
			t.Errorf("%s -> %s -> %v (%v)", pos.Coord(m), xs, back, err)
		}
		if pos.Coord(m) == "k2l2" {
			found = true
			if xs != "l1m1" {
				t.Errorf("citadel entry k2l2 written %s, want l1m1", xs)
			}
			// XBoard's FEN after the entry shows the King in the citadel
			// file and reads back to the same position.
			q := pos.Clone()
			q.Make(m)
			xfen := b.fen(q)
			if !strings.Contains(xfen, "/*11k/") {
				t.Errorf("FEN after k2l2: %s", xfen)
			}
			if back, err := b.parseFEN(xfen); err != nil || strings.Fields(back.FEN())[0] != strings.Fields(q.FEN())[0] {
				t.Errorf("setboard %s: %v, %v", xfen, back, err)
			}
		}
	}
	if !found {
		t.Errorf("no citadel entry among %d moves", ml.N)
	}
}

// sameBoard reports whether a and b hold the same pieces on the same
// squares; with pawnsAlike any two pawns of one colour match (XBoard
// shows every pawn type of the variant alike).
func sameBoard(a, b *engine.Position, pawnsAlike bool) bool {
	v := a.Variant()
	for f := -1; f <= v.Files; f++ {
		for r := 0; r < v.Ranks; r++ {
			sq := engine.SquareAt(f, r)
			if !v.OnBoard(sq) && !v.IsCitadel(sq) {
				continue
			}
			pa, pb := a.At(sq), b.At(sq)
			if pa == pb {
				continue
			}
			if pa == engine.Empty || pb == engine.Empty || pa.Color() != pb.Color() ||
				!pawnsAlike || !v.Def(pa.Type()).Pawn || !v.Def(pb.Type()).Pawn {
				return false
			}
		}
	}
	return true
}

func contains(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

func mustMove(t *testing.T, pos *engine.Position, s string) engine.Move {
	t.Helper()
	m, err := pos.ParseCoord(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTenRankNumbering checks XBoard's rank numbers on a 10-rank board
// (shako): XBoard's e2e4 is our pawn double step e3e5, and our reply is
// written with ranks from 0.
func TestTenRankNumbering(t *testing.T) {
	s := newSession(t)
	s.Send("new", "variant shako", "force", "usermove e2e4", "ping 1")
	lines := s.until("pong 1")
	if contains(lines, "Illegal") {
		t.Fatalf("e2e4 on shako: %q", lines)
	}
	s.Send("setboard c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1", "usermove c1d3", "usermove c2d4", "ping 2")
	lines = s.until("pong 2")
	// XBoard's c1d3 is our Knight c2d4; XBoard's c2d4 would be our c3d5, no move.
	if contains(lines, "Illegal move (not legal): c1d3") || !contains(lines, "Illegal move (not legal): c2d4") {
		t.Fatalf("Knight move on shako: %q", lines)
	}
	s.Send("quit")
	s.Wait()
}

// TestPieceCommands checks the Betza descriptions XBoard gets for shako
// (those Fairy-Stockfish's XBoard mode sends, up to writing Q as RB and K
// as WF) and that variants XBoard cannot be taught get none.
func TestPieceCommands(t *testing.T) {
	got := strings.Join(pieceCommands(newBoard(engine.MustVariant("shako", nil))), "\n")
	for _, want := range []string{"piece P& fmWfceFifmnD", "piece N& N", "piece B& B", "piece R& R", "piece Q& RB",
		"piece K& WFO2", "piece E& FA", "piece C& mRcpR"} {
		if !strings.Contains(got, want) {
			t.Errorf("shako lacks %q:\n%s", want, got)
		}
	}
	for _, name := range []string{"tamerlane", "tamerlane2", "full-tamerlane"} {
		if pc := pieceCommands(newBoard(engine.MustVariant(name, nil))); pc != nil {
			t.Errorf("%s: %q", name, pc)
		}
	}
}

// TestSetboardHugeEmptyCount: setboard refuses, at once, a FEN whose
// empty-square count is too large for its rank, in our notation and in
// XBoard's (whose reader counted on without bound), and keeps the
// position it had.
func TestSetboardHugeEmptyCount(t *testing.T) {
	s := newSession(t)
	for _, tc := range []struct{ variant, fen string }{
		{"normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB9223372036854775807Q9223372036854775807BNR w KQkq - 0 1"},
		{"normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/99999999999999999999999 w KQkq - 0 1"},
		{"tamerlane", "*e1c1d1d1c1e*/*rntgwkfgtnr*/9999999999999999999/13/13/13/13/13/13/13 w - - 0 1"},
	} {
		s.Send("new", "variant "+tc.variant, "setboard "+tc.fen, "ping 1")
		lines := s.until("pong 1")
		if !contains(lines, "Error (bad FEN)") {
			t.Errorf("%s setboard %s: %q", tc.variant, tc.fen, lines)
		}
		if tc.variant == "normal" {
			// Still the start position: e2e4 is legal, the answer comes.
			s.Send("force", "usermove e2e4", "ping 2")
			if lines := s.until("pong 2"); contains(lines, "Illegal move") {
				t.Errorf("after the refused setboard: %q", lines)
			}
		}
	}
	s.Send("quit")
	s.Wait()
}

// TestSetboardWholeCharacter: setboard names a piece letter of several
// bytes whole, once, with its place, not by its first byte.
func TestSetboardWholeCharacter(t *testing.T) {
	s := newSession(t)
	s.Send("new", "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ♚BNR w KQkq - 0 1", "ping 1")
	lines := s.until("pong 1")
	if !contains(lines, "tellusererror Illegal position: fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ♚BNR w KQkq - 0 1\": placement field, at character 40: unknown piece '♚'") ||
		strings.Contains(strings.Join(lines, "\n"), "â") {
		t.Errorf("setboard with ♚: %q", lines)
	}
	s.Send("quit")
	s.Wait()
}

// TestSetboardKeepsGivenFields: a FEN in our notation that we refuse is
// reported by its own fields: the empty board names its missing King,
// not castling rights "KQkq" it never gave (the reading in XBoard's
// notation filled them in from the start position).
func TestSetboardKeepsGivenFields(t *testing.T) {
	s := newSession(t)
	s.Send("new", "setboard 8/8/8/8/8/8/8/8 w - - 0 1", "ping 1")
	lines := s.until("pong 1")
	all := strings.Join(lines, "\n")
	if !contains(lines, `tellusererror Illegal position: fen "8/8/8/8/8/8/8/8 w - - 0 1": placement field: white has no royal piece`) || strings.Contains(all, "KQkq") {
		t.Errorf("setboard of the empty board: %q", lines)
	}
	s.Send("quit")
	s.Wait()
}

// TestXBoardFENKeepsCounters: reading a FEN in XBoard's notation keeps
// its move counters.
func TestXBoardFENKeepsCounters(t *testing.T) {
	v := engine.MustVariant("tamerlane", nil)
	b := newBoard(v)
	xfen := strings.Replace(b.fen(engine.NewPosition(v)), " 0 1", " 7 12", 1)
	p, err := b.parseFEN(xfen)
	if err != nil {
		t.Fatalf("%s: %v", xfen, err)
	}
	if f := strings.Fields(p.FEN()); f[4] != "7" || f[5] != "12" {
		t.Errorf("%s read as %s", xfen, p.FEN())
	}
}

// TestClockArgumentsConsistent: st, time and level read a number too
// large for any clock alike, as a day (st took 99999999999999999999 and
// overflowed to a negative time per move; time refused it), and refuse
// NaN and Inf alike.
func TestClockArgumentsConsistent(t *testing.T) {
	const huge = "99999999999999999999"
	s := NewServer("test")
	var out bytes.Buffer
	s.out = bufio.NewWriter(&out)
	ctx := context.Background()
	for _, c := range []struct {
		cmd  string
		got  *time.Duration
		want time.Duration
	}{
		{"st " + huge, &s.moveTime, maxClock},
		{"time " + huge, &s.myTime, maxClock},
		{"st 1e400", &s.moveTime, maxClock},
		{"time 1e400", &s.myTime, maxClock},
		{"st 2.5", &s.moveTime, 2500 * time.Millisecond},
		{"time 3000", &s.myTime, 30 * time.Second},
		{"time -500", &s.myTime, 0},
		{"level 40 " + huge + " 0", &s.myTime, maxClock},
		{"level 40 5:30 " + huge, &s.inc, maxClock},
		{"level 40 5:30 0.5", &s.myTime, 5*time.Minute + 30*time.Second},
	} {
		out.Reset()
		s.handle(ctx, c.cmd)
		s.out.Flush()
		if out.Len() > 0 || *c.got != c.want {
			t.Errorf("%s: %v, reply %q; want %v and no reply", c.cmd, *c.got, out.String(), c.want)
		}
	}
	for _, cmd := range []string{"st NaN", "time NaN", "st Inf", "time -Inf", "st 0", "st x", "time 12x", "level 40 5 NaN", "level 40 Inf 0"} {
		out.Reset()
		s.handle(ctx, cmd)
		s.out.Flush()
		if !strings.HasPrefix(out.String(), "Error (bad ") {
			t.Errorf("%s: reply %q, want an error", cmd, out.String())
		}
	}
}
