package engine

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// Targeted tests of single rules, each citing the section of docs/rules.md it
// checks. FENs use the masculine Tamerlane array unless a test says
// otherwise.

func tam(t *testing.T, opts string) *Variant {
	t.Helper()
	return mustRuleVariant(t, ruleSet{"tamerlane", opts})
}

// wantFrom checks the exact set of destinations of the legal moves from a square.
func wantFrom(t *testing.T, p *Position, from, want string) {
	t.Helper()
	w := strings.Fields(want)
	sort.Strings(w)
	if got := movesFrom(t, p, from); !slices.Equal(got, w) {
		t.Errorf("%s: moves from %s = %v, want %v", p.FEN(), from, got, w)
	}
}

// moveByCoord returns the legal move with the coordinate text c.
func moveByCoord(t *testing.T, p *Position, c string) Move {
	t.Helper()
	m, err := p.ParseCoord(c)
	if err != nil {
		t.Fatalf("%v (legal: %v)", err, coords(p))
	}
	return m
}

// tokenAt returns the FEN token on the named square ("" if empty).
func tokenAt(t *testing.T, p *Position, name string) string {
	t.Helper()
	pc := p.At(sq(t, p.Variant(), name))
	if pc == Empty {
		return ""
	}
	tok := p.Variant().Def(pc.Type()).Token
	if pc.Color() == Black {
		tok = strings.ToLower(tok)
	}
	return tok
}

func wantOutcome(t *testing.T, p *Position, r Result, why Reason) {
	t.Helper()
	if gr, gw := p.Outcome(); gr != r || gw != why {
		t.Errorf("%s: Outcome() = %v %q, want %v %q", p.FEN(), gr, gw, r, why)
	}
}

func exchanges(p *Position) []string {
	var out []string
	for _, m := range legalMoves(p) {
		if m.Kind() == KindExchange {
			out = append(out, p.Coord(m))
		}
	}
	sort.Strings(out)
	return out
}

func wantExchanges(t *testing.T, p *Position, want string) {
	t.Helper()
	w := strings.Fields(want)
	sort.Strings(w)
	if got := exchanges(p); !slices.Equal(got, w) {
		t.Errorf("%s: exchanges %v, want %v", p.FEN(), got, w)
	}
}

// TestGiraffe: docs/rules.md 3.3, the Giraffe and option giraffe=2 (3.8).
func TestGiraffe(t *testing.T) {
	const board = "11/11/11/11/11/11/11/11/11/G10 w - 00 0 1"
	lines := "b5 b6 b7 b8 b9 b10 e2 f2 g2 h2 i2 j2 k2"
	wantFrom(t, mustFEN(t, tam(t, ""), board), "a1", lines)
	wantFrom(t, mustFEN(t, tam(t, "giraffe=2"), board), "a1", lines+" b4 d2")
	// The first diagonal square must be empty.
	wantFrom(t, mustFEN(t, tam(t, ""), "11/11/11/11/11/11/11/11/1N9/G10 w - 00 0 1"), "a1", "")
	// Every square passed must be empty; it captures only on its
	// destination, at least three squares on.
	rest := "e2 f2 g2 h2 i2 j2 k2"
	wantFrom(t, mustFEN(t, tam(t, ""), "11/11/11/11/11/11/1N9/11/11/G10 w - 00 0 1"), "a1", rest)
	wantFrom(t, mustFEN(t, tam(t, ""), "11/11/11/11/11/1n9/11/11/11/G10 w - 00 0 1"), "a1", "b5 "+rest)
	wantFrom(t, mustFEN(t, tam(t, ""), "11/11/11/11/11/11/1n9/11/11/G10 w - 00 0 1"), "a1", rest)
	wantFrom(t, mustFEN(t, tam(t, "giraffe=2"), "11/11/11/11/11/11/1n9/11/11/G10 w - 00 0 1"), "a1", "b4 d2 "+rest)
	// It gives check the same way: three squares on, not two.
	for _, c := range []struct {
		opts, fen string
		check     bool
	}{
		{"", "11/11/11/11/11/1k9/11/11/11/G10 b - 00 0 1", true},
		{"", "11/11/11/11/11/11/1k9/11/11/G10 b - 00 0 1", false},
		{"giraffe=2", "11/11/11/11/11/11/1k9/11/11/G10 b - 00 0 1", true},
		{"", "11/11/11/11/11/11/11/11/11/G3k6 b - 00 0 1", false},
		{"", "11/11/11/11/11/11/11/11/4k6/G10 b - 00 0 1", true},
	} {
		if p := mustFEN(t, tam(t, c.opts), c.fen); p.InCheck() != c.check {
			t.Errorf("%s %s: InCheck() = %v", c.opts, c.fen, !c.check)
		}
	}
}

// TestPicket: docs/rules.md 3.3, the Picket and option picket=bishop (3.8).
func TestPicket(t *testing.T) {
	const board = "11/11/11/11/11/11/3T7/11/11/11 w - 00 0 1"
	far := "a1 b2 f2 g1 a7 b6 f6 g7 h8 i9 j10"
	wantFrom(t, mustFEN(t, tam(t, ""), board), "d4", far)
	wantFrom(t, mustFEN(t, tam(t, "picket=bishop"), board), "d4", far+" c3 e3 c5 e5")
	// Blocked on its first diagonal square: nothing that way, not even a capture.
	others := "a1 b2 f2 g1 a7 b6"
	wantFrom(t, mustFEN(t, tam(t, ""), "11/11/11/11/11/4N6/3T7/11/11/11 w - 00 0 1"), "d4", others)
	wantFrom(t, mustFEN(t, tam(t, ""), "11/11/11/11/11/4n6/3T7/11/11/11 w - 00 0 1"), "d4", others)
	wantFrom(t, mustFEN(t, tam(t, "picket=bishop"), "11/11/11/11/11/4n6/3T7/11/11/11 w - 00 0 1"), "d4", others+" c3 e3 c5 e5")
	// It captures two squares on.
	wantFrom(t, mustFEN(t, tam(t, ""), "11/11/11/11/5n5/11/3T7/11/11/11 w - 00 0 1"), "d4", others+" f6")
}

// TestWaitingPawnOfPawns: docs/rules.md 3.4.1, a waiting pawn of pawns cannot be
// captured and cannot move except by a lift.
func TestWaitingPawnOfPawns(t *testing.T) {
	v := tam(t, "")
	const fen = "r4PP5/6k4/11/11/11/11/11/11/11/5K5 %s - 10 0 1"
	p := mustFEN(t, v, strings.Replace(fen, "%s", "b", 1))
	if p.WaitingPawnOfPawns(White).String() != "f10" {
		t.Fatalf("waiting: %v", p.WaitingPawnOfPawns(White))
	}
	for _, from := range []string{"a10", "g9"} {
		if slices.Contains(movesFrom(t, p, from), "f10") {
			t.Errorf("%s captures the waiting pawn of pawns", from)
		}
	}
	// No lift square here (the rook and the King have moves): no move at all.
	p = mustFEN(t, v, strings.Replace(fen, "%s", "w", 1))
	wantFrom(t, p, "f10", "")
	// The same pawn after its second arrival is no longer waiting: a
	// plain pawn on its last rank, which the rook may take.
	p = mustFEN(t, v, "r4PP5/6k4/11/11/11/11/11/11/11/5K5 b - 20 0 1")
	if !slices.Contains(movesFrom(t, p, "a10"), "f10") {
		t.Errorf("%s: a10 cannot take f10", p.FEN())
	}
}

// TestLift: docs/rules.md 3.4.2, the lift squares of a waiting pawn of pawns.
func TestLift(t *testing.T) {
	// White's pawn of pawns waits on f10. From d6 it attacks the rook c7
	// and the knight e7 (two pieces; d6 holds a White Knight, which the
	// lift removes). From b9 it attacks only the elephant a10, which then
	// has no move (c8 holds its own pawn). From j8 it attacks only the
	// picket i9, whose first diagonal squares are then all blocked. h8
	// (attacking g9 and i9) holds Black's King and j4 (attacking i5 and
	// k5) White's: never onto a royal. From b6 (the rook) and f6 (the
	// knight) it attacks one piece that keeps a move; b7 attacks a pawn.
	// Pawns do not count: h2 attacks the pawns g3 and i3.
	const fen = "e4PP5/6g1t2/2pr4k3/2r1n6/3N7/8d1c/9K1/6pr1pr2/11/11 w Ss 10 0 1"
	p := mustFEN(t, tam(t, ""), fen)
	wantFrom(t, p, "f10", "b9 d6 j8")
	for _, m := range legalMoves(p) {
		if m.From().String() == "f10" && m.Kind() != KindLift {
			t.Errorf("f10 move %s is not a lift", p.Coord(m))
		}
	}
	// With picket=bishop the picket may take the pawn on j8: no lift there.
	wantFrom(t, mustFEN(t, tam(t, "picket=bishop"), fen), "f10", "b9 d6")
	// The lift removes whatever stands on its square, friend or foe; the
	// pawn is an ordinary pawn again, its arrivals still 1.
	play(t, p, "f10d6")
	if tokenAt(t, p, "d6") != "PP" || tokenAt(t, p, "f10") != "" ||
		p.PawnOfPawnsArrivals(White) != 1 || p.WaitingPawnOfPawns(White) != NoSquare {
		t.Errorf("after f10d6: %s", p.FEN())
	}
	if n, _ := p.Variant().PieceByToken("N"); p.Count(n, White) != 0 {
		t.Errorf("the White Knight on d6 survived the lift: %s", p.FEN())
	}
	if !strings.HasPrefix(p.FEN(), "e10/6g1t2/2pr4k3/2r1n6/3PP7/8d1c/9K1/6pr1pr2/11/11 b Ss 10 ") {
		t.Errorf("after f10d6: %s", p.FEN())
	}
	// Never onto the other side's waiting pawn of pawns: e1 attacks d2
	// and f2, but Black's pawn of pawns waits there. After its second
	// arrival it would no longer wait, and e1 is a lift square.
	p = mustFEN(t, tam(t, ""), "5PP4k/11/11/11/11/11/11/11/3r1n5/K3pp6 w Ss 11 0 1")
	wantFrom(t, p, "f10", "")
	p = mustFEN(t, tam(t, ""), "5PP4k/11/11/11/11/11/11/11/3r1n5/K3pp6 w Ss 12 0 1")
	wantFrom(t, p, "f10", "e1")
}

// TestPawnOfPawnsArrivals: docs/rules.md 3.4.1, 3.4.3, 3.4.4 and 3.7 (the
// counters).
func TestPawnOfPawnsArrivals(t *testing.T) {
	v := tam(t, "")
	// First arrival: it stays and waits.
	p := mustFEN(t, v, "10k/4PP6/11/11/11/11/11/11/11/K10 w - 00 0 1")
	if m := moveByCoord(t, p, "e9e10"); m.Kind() != KindArrive {
		t.Errorf("first arrival is kind %d", m.Kind())
	}
	play(t, p, "e9e10")
	if p.WaitingPawnOfPawns(White).String() != "e10" || p.PawnOfPawnsArrivals(White) != 1 || !strings.Contains(p.FEN(), " b - 10 ") {
		t.Errorf("after the first arrival: %s", p.FEN())
	}
	// Second arrival: to the pawn of kings' start square (f3 in the
	// masculine array), removing a non-royal piece there (here Black's).
	for _, c := range []struct {
		variant, rank3, rank2, want string
		gone                        string
	}{
		{"tamerlane", "5n5", "11", "f3", "n"},
		{"tamerlane", "4nK5", "11", "e3", "n"}, // a royal on f3: the nearest square, toward a first
		{"tamerlane", "4IKJ4", "11", "d3", ""}, // royals on e3, f3, g3: d3 before h3
		{"tamerlane", "4IK5", "11", "g3", ""},  // e3 and f3 royal: g3
		{"tamerlane", "5N5", "11", "f3", "N"},  // own piece: removed as well
		{"full-tamerlane", "5n5", "11", "f3", "n"},
		{"tamerlane-feminine", "11", "5n5", "f2", "n"}, // feminine and third: f2
		{"tamerlane-third", "11", "4nK5", "e2", "n"},
	} {
		v := MustVariant(c.variant, nil)
		rank1 := "K10"
		if strings.ContainsAny(c.rank3+c.rank2, "KIJ") {
			rank1 = "11"
		}
		fen := "10k/4PP6/11/11/11/11/11/" + c.rank3 + "/" + c.rank2 + "/" + rank1 + " w - 10 0 1"
		p := mustFEN(t, v, fen)
		m := moveByCoord(t, p, "e9e10")
		if m.Kind() != KindRelocate {
			t.Errorf("%s: second arrival is kind %d", fen, m.Kind())
		}
		before := map[string]int{}
		for _, tok := range []string{"n", "N", "K", "I", "J"} {
			before[tok] = strings.Count(strings.Fields(fen)[0], tok)
		}
		p.Make(m)
		if tokenAt(t, p, c.want) != "PP" || tokenAt(t, p, "e10") != "" || p.PawnOfPawnsArrivals(White) != 2 ||
			p.WaitingPawnOfPawns(White) != NoSquare || !strings.Contains(p.FEN(), " b - 20 ") {
			t.Errorf("%s %s: after the second arrival: %s, want the pawn on %s", c.variant, fen, p.FEN(), c.want)
		}
		for tok, n := range before {
			want := n
			if tok == c.gone {
				want--
			}
			if got := strings.Count(strings.Fields(p.FEN())[0], tok); got != want {
				t.Errorf("%s: after the relocation %d %q, want %d (%s)", fen, got, tok, want, p.FEN())
			}
		}
	}
	// Black's second arrival goes to f8.
	p = mustFEN(t, v, "k10/11/11/11/11/11/11/11/4pp6/10K b - 01 0 1")
	play(t, p, "e2e1")
	if tokenAt(t, p, "f8") != "pp" || !strings.Contains(p.FEN(), " w - 02 ") {
		t.Errorf("Black's second arrival: %s", p.FEN())
	}
	// Third arrival: an Adventitious King, a second royal.
	p = mustFEN(t, v, "10k/4PP6/11/11/11/11/11/11/11/K10 w - 20 0 1")
	if m := moveByCoord(t, p, "e9e10"); m.Kind() != KindPromotion {
		t.Errorf("third arrival is kind %d", m.Kind())
	}
	play(t, p, "e9e10")
	if tokenAt(t, p, "e10") != "J" || len(p.Royals(White)) != 2 {
		t.Errorf("after the third arrival: %s", p.FEN())
	}
}

// TestTamerlanePromotions: docs/rules.md 3.4, a pawn of X becomes an X, the pawn
// of kings a Prince (a royal).
func TestTamerlanePromotions(t *testing.T) {
	p := mustFEN(t, tam(t, ""), "10k/3PR1PK5/11/11/11/11/11/11/11/K10 w - 00 0 1")
	play(t, p, "d9d10")
	if tokenAt(t, p, "d10") != "R" {
		t.Errorf("pawn of rooks: %s", p.FEN())
	}
	p = mustFEN(t, tam(t, ""), "10k/3PR1PK5/11/11/11/11/11/11/11/K10 w - 00 0 1")
	play(t, p, "f9f10")
	if tokenAt(t, p, "f10") != "I" || len(p.Royals(White)) != 2 {
		t.Errorf("pawn of kings: %s", p.FEN())
	}
	// 3.5 (literal reading): legality is judged after the move, so a
	// promotion to a second royal is legal although the King stays
	// attacked (a5 rook), and then no royal is in check.
	p = mustFEN(t, tam(t, ""), "10k/5PK5/11/11/11/r10/11/11/11/K10 w - 00 0 1")
	if !p.InCheck() || !hasCoord(p, "f9f10") || hasCoord(p, "a1a2") {
		t.Errorf("%s: check %v, moves %v", p.FEN(), p.InCheck(), coords(p))
	}
	play(t, p, "f9f10")
	p.MakeNull()
	if p.InCheck() {
		t.Errorf("%s: two royals, yet in check", p.FEN())
	}
}

// TestCitadels: docs/rules.md 3.1, 3.6 and 6.
func TestCitadels(t *testing.T) {
	v := tam(t, "")
	// A bare King runs into the enemy citadel: the game is drawn at once
	// and has no legal move (and no perft children).
	p := mustFEN(t, v, "11/K10/11/11/11/11/11/11/11/5k4r w - 00 0 1")
	wantOutcome(t, p, Ongoing, ReasonNone) // a bare King does not lose (3.6)
	wantFrom(t, p, "a9", "a8 a10 b8 b9 b10 z9")
	play(t, p, "a9z9")
	wantOutcome(t, p, Draw, ReasonCitadel)
	if !p.CitadelDraw() || len(legalMoves(p)) != 0 || p.Perft(1) != 0 || p.Perft(2) != 0 ||
		!strings.HasPrefix(p.FEN(), "11/[K]11/") {
		t.Errorf("after a9z9: %s, %d moves", p.FEN(), len(legalMoves(p)))
	}
	// Black's King into l2 likewise.
	p = mustFEN(t, v, "5K5/11/11/11/11/11/11/11/10k/11 b - 00 0 1")
	play(t, p, "k2l2")
	wantOutcome(t, p, Draw, ReasonCitadel)
	if !strings.Contains(p.FEN(), "/11[k]/") {
		t.Errorf("after k2l2: %s", p.FEN())
	}
	// Only the ranking royal: a Prince may not while its King lives, and
	// may once it is the highest royal left; an Adventitious King ranks
	// below a King as well.
	if p := mustFEN(t, v, "4k6/I10/11/11/11/11/11/11/11/5K5 w - 00 0 1"); hasCoord(p, "a9z9") {
		t.Errorf("%s: the Prince enters the enemy citadel", p.FEN())
	}
	if p := mustFEN(t, v, "4k6/I10/11/11/11/11/11/11/11/11 w - 00 0 1"); !hasCoord(p, "a9z9") {
		t.Errorf("%s: the ranking Prince cannot enter the enemy citadel", p.FEN())
	}
	if p := mustFEN(t, v, "4k6/J10/11/11/11/11/11/11/11/5K5 w - 00 0 1"); hasCoord(p, "a9z9") {
		t.Errorf("%s: the Adventitious King enters the enemy citadel", p.FEN())
	}
	// Only the Adventitious King enters its own citadel, where the game
	// goes on and from which it steps out again.
	for _, c := range []struct {
		fen   string
		enter bool
	}{
		{"5k5/11/11/11/11/11/11/11/10J/5K5 w - 00 0 1", true},
		{"5k5/11/11/11/11/11/11/11/10K/11 w - 00 0 1", false},
		{"5k5/11/11/11/11/11/11/11/10I/5K5 w - 00 0 1", false},
		{"5k5/11/11/11/11/11/11/11/10I/11 w - 00 0 1", false}, // ranking, but its own citadel
	} {
		if p := mustFEN(t, v, c.fen); hasCoord(p, "k2l2") != c.enter {
			t.Errorf("%s: k2l2 legal = %v, want %v", c.fen, !c.enter, c.enter)
		}
	}
	p = mustFEN(t, v, "5k5/11/11/11/11/11/11/11/10J/5K5 w - 00 0 1")
	play(t, p, "k2l2 f10f9")
	wantOutcome(t, p, Ongoing, ReasonNone)
	wantFrom(t, p, "l2", "k1 k2 k3")
	// Nothing captures into a citadel, and its occupant is never
	// attacked: the rook sweeping rank 2 and the knight on j1 do not
	// reach l2, and the lone Adventitious King there is not in check.
	p = mustFEN(t, v, "5k5/11/11/11/11/11/11/11/r10[J]/9n1 b - 00 0 1")
	for _, from := range []string{"a2", "j1"} {
		if slices.Contains(movesFrom(t, p, from), "l2") {
			t.Errorf("%s captures into the citadel", from)
		}
	}
	p = mustFEN(t, v, "5k5/11/11/11/11/11/11/11/r10[J]/9n1 w - 00 0 1")
	if p.InCheck() {
		t.Errorf("%s: the Adventitious King in its citadel is in check", p.FEN())
	}
	wantFrom(t, p, "l2", "k1") // k2 is attacked by the rook, k3 by the knight
	// Reading of 3.1: the occupant leaves by a king step, which may
	// capture, so it guards k1..k3: Black's King may not step to k3.
	p = mustFEN(t, v, "5K5/11/11/11/11/11/10k/11/11[J]/11 b - 00 0 1")
	wantFrom(t, p, "k4", "j3 j4 j5 k5")
	// citadels=off: no citadel at all.
	if p := mustFEN(t, tam(t, "citadels=off"), "11/K10/11/11/11/11/11/11/11/5k4r w - 00 0 1"); hasCoord(p, "a9z9") {
		t.Errorf("citadels=off: a9z9 is legal")
	}
	if _, err := ParseFEN(tam(t, "citadels=off"), "11/11/11/11/11/11/11/11/11[k]/5K5 w - 00 0 1"); err == nil {
		t.Errorf("citadels=off: l2 accepted in a FEN")
	}
}

// TestMultipleRoyals: docs/rules.md 3.5, with two royals none is in check,
// royals may move into attack and be captured; with one the usual rule
// holds again.
func TestMultipleRoyals(t *testing.T) {
	v := tam(t, "")
	const fen = "4k6/11/11/4r1r4/11/11/11/11/4I6/5K5 %s - 00 0 1"
	p := mustFEN(t, v, strings.Replace(fen, "%s", "w", 1))
	if p.InCheck() {
		t.Errorf("%s: in check with two royals", p.FEN())
	}
	for _, c := range []string{"e2e3", "f1g1", "f1g2"} { // all into attack
		if !hasCoord(p, c) {
			t.Errorf("%s: %s is not legal", p.FEN(), c)
		}
	}
	p = mustFEN(t, v, strings.Replace(fen, "%s", "b", 1))
	play(t, p, "e7e2") // takes the Prince
	if len(p.Royals(White)) != 1 {
		t.Fatalf("after e7e2: %s", p.FEN())
	}
	for _, c := range []string{"f1g1", "f1g2", "f1f2", "f1e1"} {
		if hasCoord(p, c) {
			t.Errorf("%s: %s leaves the only royal attacked", p.FEN(), c)
		}
	}
	wantFrom(t, p, "f1", "e2")
}

// TestSwap: docs/rules.md 3.5, the King swap and options swap=check and
// swap=off (3.8).
func TestSwap(t *testing.T) {
	const check = "5k5/11/11/11/11/11/11/11/5r5/4NK1R3 w Ss 00 0 1"
	p := mustFEN(t, tam(t, ""), check)
	wantExchanges(t, p, "f1e1 f1h1")
	// Not in check and with other moves: no swap.
	wantExchanges(t, mustFEN(t, tam(t, ""), "5k5/11/11/11/11/11/11/11/11/4NK1R3 w Ss 00 0 1"), "")
	// Not onto a square where the King would be attacked (e1, by e10).
	wantExchanges(t, mustFEN(t, tam(t, ""), "4rk5/11/11/11/11/11/11/11/5r5/4NK1R3 w Ss 00 0 1"), "f1h1")
	// Once per game: the swap spends the right.
	play(t, p, "f1e1")
	if tokenAt(t, p, "e1") != "K" || tokenAt(t, p, "f1") != "N" || p.HasRight('S') || !p.HasRight('s') {
		t.Errorf("after the swap: %s", p.FEN())
	}
	wantExchanges(t, mustFEN(t, tam(t, ""), strings.Replace(check, " Ss ", " s ", 1)), "")
	// Never with a waiting pawn of pawns; a pawn of pawns that merely
	// stands on its last rank (no arrival counted) may be swapped.
	wantExchanges(t, mustFEN(t, tam(t, ""), "3PP1k5/11/11/11/11/11/11/11/5r5/4NK1R3 w Ss 10 0 1"), "f1e1 f1h1")
	wantExchanges(t, mustFEN(t, tam(t, ""), "3PP1k5/11/11/11/11/11/11/11/5r5/4NK1R3 w Ss 00 0 1"), "f1d10 f1e1 f1h1")
	// No pawn onto its own last rank (the King stands on rank 10).
	wantExchanges(t, mustFEN(t, tam(t, ""), "4K5k/11/11/11/11/N1PR8/11/11/11/4r6 w Ss 00 0 1"), "e10a5")
	// Only while the King is the only royal.
	wantExchanges(t, mustFEN(t, tam(t, ""), "5k5/11/11/11/11/11/11/11/5r5/I3NK1R3 w Ss 00 0 1"), "")
	// Only the King swaps: not a lone Prince or Adventitious King.
	wantExchanges(t, mustFEN(t, tam(t, ""), "5k5/11/11/11/11/11/11/11/5r5/4NI1R3 w Ss 00 0 1"), "")
	wantExchanges(t, mustFEN(t, tam(t, ""), "5k5/11/11/11/11/11/11/11/5r5/4NJ1R3 w Ss 00 0 1"), "")
	// Without another legal move (not in check): the swap is the only move.
	const stale = "1r7k1/11/11/11/11/11/11/pr10/PR10/K10 w Ss 00 0 1"
	p = mustFEN(t, tam(t, ""), stale)
	if p.InCheck() || !slices.Equal(coords(p), []string{"a1a2"}) {
		t.Errorf("%s: moves %v", stale, coords(p))
	}
	play(t, p, "a1a2")
	if tokenAt(t, p, "a2") != "K" || tokenAt(t, p, "a1") != "PR" {
		t.Errorf("after the swap: %s", p.FEN())
	}
	// swap=check: only in check; stalemated, the side loses (3.6).
	wantExchanges(t, mustFEN(t, tam(t, "swap=check"), check), "f1e1 f1h1")
	p = mustFEN(t, tam(t, "swap=check"), stale)
	if len(legalMoves(p)) != 0 {
		t.Errorf("swap=check: %s has moves %v", stale, coords(p))
	}
	wantOutcome(t, p, BlackWins, ReasonStalemate)
	// swap=off: never, and the FEN has no swap rights.
	p = mustFEN(t, tam(t, "swap=off"), strings.Replace(check, " Ss ", " - ", 1))
	wantExchanges(t, p, "")
	if _, err := ParseFEN(tam(t, "swap=off"), check); err == nil {
		t.Errorf("swap=off accepts swap rights")
	}
}
