package engine

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// Targeted tests of single rules, each citing the section of RULES.md it
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

// TestGiraffe: RULES.md 3.3, the Giraffe and option giraffe=2 (3.8).
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

// TestPicket: RULES.md 3.3, the Picket and option picket=bishop (3.8).
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

// TestWaitingPawnOfPawns: RULES.md 3.4.1, a waiting pawn of pawns cannot be
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

// TestLift: RULES.md 3.4.2, the lift squares of a waiting pawn of pawns.
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

// TestPawnOfPawnsArrivals: RULES.md 3.4.1, 3.4.3, 3.4.4 and 3.7 (the
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

// TestTamerlanePromotions: RULES.md 3.4, a pawn of X becomes an X, the pawn
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

// TestCitadels: RULES.md 3.1, 3.6 and 6.
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

// TestMultipleRoyals: RULES.md 3.5, with two royals none is in check,
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

// TestSwap: RULES.md 3.5, the King swap and options swap=check and
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

// TestSuccession: RULES.md 2.4 and 2.6, Tamerlane II's succession.
func TestSuccession(t *testing.T) {
	v := MustVariant("tamerlane2", nil)
	// White's King on g2 is mated (g7 checks, f9 and h9 guard the files
	// beside it); the Prince on e2 is unattacked.
	const mate = "5k5/11/5r1r3/11/6r4/11/11/11/11/4M1K4/11 w E - 0 1"
	p := mustFEN(t, v, mate)
	if !p.InCheck() || !slices.Equal(coords(p), []string{"g2e2"}) || moveByCoord(t, p, "g2e2").Kind() != KindExchange {
		t.Fatalf("%s: moves %v", mate, coords(p))
	}
	wantOutcome(t, p, Ongoing, ReasonNone)
	play(t, p, "g2e2")
	// The King and the Prince have exchanged squares; the Prince has
	// moved (no letter, no double step) and may be taken.
	if tokenAt(t, p, "e2") != "K" || tokenAt(t, p, "g2") != "M" || p.HasRight('E') || p.HasRight('G') {
		t.Errorf("after the succession: %s", p.FEN())
	}
	if !hasCoord(p, "g7g2") {
		t.Errorf("%s: the Prince cannot be taken", p.FEN())
	}
	p.MakeNull()
	wantFrom(t, p, "g2", "f1 f2 f3 g1 g3 h1 h2 h3")
	p.UnmakeNull()
	// Only when mated: a rook that can block on g4 prevents it.
	p = mustFEN(t, v, "5k5/11/5r1r3/11/6r4/11/11/R10/11/4M1K4/11 w E - 0 1")
	if !slices.Equal(coords(p), []string{"a4g4"}) {
		t.Errorf("not mated: moves %v", coords(p))
	}
	// Only with an unattacked Prince (e9 attacks e2): checkmate.
	p = mustFEN(t, v, "5k5/11/4rr1r3/11/6r4/11/11/11/11/4M1K4/11 w E - 0 1")
	if len(legalMoves(p)) != 0 {
		t.Errorf("attacked Prince: moves %v", coords(p))
	}
	wantOutcome(t, p, BlackWins, ReasonCheckmate)
	// Stalemate is a draw (2.5).
	wantOutcome(t, mustFEN(t, v, "k10/11/1Q9/11/11/11/11/11/11/11/10K b - - 0 1"), Draw, ReasonStalemate)
}

// TestPrinceDoubleStep: RULES.md 2.2 and 2.6, the Prince's double step.
func TestPrinceDoubleStep(t *testing.T) {
	v := MustVariant("tamerlane2", nil)
	const fen = "5k5/11/11/11/11/11/11/5p5/11/4M6/K10 w %s - 0 1"
	p := mustFEN(t, v, strings.Replace(fen, "%s", "E", 1))
	wantFrom(t, p, "e2", "d1 d2 d3 e1 e3 e4 f1 f2 f3")
	play(t, p, "e2e4")
	// Never en passant: f4 may not take on e3.
	if p.EnPassant() != NoSquare || hasCoord(p, "f4e3") || p.HasRight('E') {
		t.Errorf("after e2e4: %s, moves %v", p.FEN(), coords(p))
	}
	// Without its right (the Prince has moved), no double step.
	wantFrom(t, mustFEN(t, v, strings.Replace(fen, "%s", "-", 1)), "e2", "d1 d2 d3 e1 e3 f1 f2 f3")
	p = mustFEN(t, v, strings.Replace(fen, "%s", "E", 1))
	play(t, p, "e2e3 f11f10 e3e2 f10f11")
	wantFrom(t, p, "e2", "d1 d2 d3 e1 e3 f1 f2 f3")
	// Both squares must be empty.
	wantFrom(t, mustFEN(t, v, "5k5/11/11/11/11/11/11/4p6/11/4M6/K10 w E - 0 1"), "e2", "d1 d2 d3 e1 e3 f1 f2 f3")
	// A Pawn's double step, by contrast, may be taken en passant.
	p = mustFEN(t, v, "5k5/11/11/11/11/11/3p7/11/4P6/11/K10 w - - 0 1")
	play(t, p, "e3e5")
	if m := moveByCoord(t, p, "d5e4"); p.EnPassant().String() != "e4" || m.Kind() != KindEnPassant {
		t.Errorf("after e3e5: %s", p.FEN())
	}
	play(t, p, "d5e4")
	if tokenAt(t, p, "e4") != "p" || tokenAt(t, p, "e5") != "" || tokenAt(t, p, "d5") != "" {
		t.Errorf("after d5e4 en passant: %s", p.FEN())
	}
}

// TestShipPromotion: RULES.md 2.3, a Ship ending on a far corner becomes an
// Eagle; the near corners do nothing.
func TestShipPromotion(t *testing.T) {
	v := MustVariant("tamerlane2", nil)
	p := mustFEN(t, v, "5k5/11/11/1S9/11/11/11/11/11/11/5K5 w - - 0 1")
	wantFrom(t, p, "b8", "a9 a10 a11 c9 c10 c11 a7 a6 a5 a4 a3 a2 a1 c7 c6 c5 c4 c3 c2 c1")
	for _, c := range []struct {
		move  string
		promo bool
	}{{"b8a11", true}, {"b8a10", false}, {"b8c11", false}, {"b8a1", false}} {
		m := moveByCoord(t, p, c.move)
		if (m.Kind() == KindPromotion) != c.promo {
			t.Errorf("%s: kind %d", c.move, m.Kind())
		}
	}
	play(t, p, "b8a11")
	if tokenAt(t, p, "a11") != "A" {
		t.Errorf("after b8a11: %s", p.FEN())
	}
	p = mustFEN(t, v, "5k5/9S1/11/11/11/11/11/11/11/11/5K5 w - - 0 1")
	if m := moveByCoord(t, p, "j10k11"); m.Kind() != KindPromotion {
		t.Errorf("j10k11: kind %d", m.Kind())
	}
	// Black's far corners are a1 and k1.
	p = mustFEN(t, v, "5k5/11/11/11/11/11/11/11/11/9s1/5K5 b - - 0 1")
	play(t, p, "j2k1")
	if tokenAt(t, p, "k1") != "a" {
		t.Errorf("after j2k1: %s", p.FEN())
	}
}

// TestCannon: RULES.md 2.2 and 5.3, a cannon captures over exactly one screen.
func TestCannon(t *testing.T) {
	v := MustVariant("shako", nil)
	for _, c := range []struct{ fen, want string }{
		{"4k5/10/10/10/10/r9/10/P9/10/C4K4 w - - 0 1", "a2 a5 b1 c1 d1 e1"}, // one screen
		{"4k5/10/10/10/10/r9/P9/P9/10/C4K4 w - - 0 1", "a2 b1 c1 d1 e1"},    // two screens
		{"4k5/10/10/10/10/R9/10/P9/10/C4K4 w - - 0 1", "a2 b1 c1 d1 e1"},    // own piece beyond
		{"4k5/10/10/10/10/10/10/10/r9/C4K4 w - - 0 1", "b1 c1 d1 e1"},       // no screen
		{"4k5/10/10/10/10/10/10/10/r9/C5K3 w - - 0 1", "b1 c1 d1 e1 f1"},    // nothing beyond the King
		{"4k5/10/10/10/10/10/10/10/r9/C4K1n2 w - - 0 1", "b1 c1 d1 e1 h1"},  // over the King
	} {
		wantFrom(t, mustFEN(t, v, c.fen), "a1", c.want)
	}
	// Tamerlane II's cannon likewise: checks over a screen.
	p := mustFEN(t, MustVariant("tamerlane2", nil), "5k5/11/11/11/11/5n5/11/11/11/5O5/K10 b - - 0 1")
	if !p.InCheck() {
		t.Errorf("%s: the cannon's check over f6 is not seen", p.FEN())
	}
}

// TestShakoCastling: RULES.md 5.3, castling on rank 2 both ways, written as
// the King's move.
func TestShakoCastling(t *testing.T) {
	v := MustVariant("shako", nil)
	const fen = "k9/10/10/10/10/10/10/10/1R3K2R1/10 w KQ - 0 1"
	for _, c := range []struct{ move, san, king, rookTo, rookFrom string }{
		{"f2h2", "O-O", "h2", "g2", "i2"},
		{"f2d2", "O-O-O", "d2", "e2", "b2"},
	} {
		p := mustFEN(t, v, fen)
		m := moveByCoord(t, p, c.move)
		if m.Kind() != KindCastle || p.SAN(m) != c.san {
			t.Errorf("%s: kind %d, SAN %s", c.move, m.Kind(), p.SAN(m))
		}
		p.Make(m)
		if tokenAt(t, p, c.king) != "K" || tokenAt(t, p, c.rookTo) != "R" || tokenAt(t, p, c.rookFrom) != "" ||
			tokenAt(t, p, "f2") != "" || p.HasRight('K') || p.HasRight('Q') {
			t.Errorf("after %s: %s", c.move, p.FEN())
		}
	}
	// Not through an attacked square (g2, from g10); the other side is free.
	p := mustFEN(t, v, "4k1r3/10/10/10/10/10/10/10/1R3K2R1/10 w KQ - 0 1")
	if hasCoord(p, "f2h2") || !hasCoord(p, "f2d2") {
		t.Errorf("%s: %v", p.FEN(), coords(p))
	}
	// Not out of check (the rook on f10 attacks f2).
	if p := mustFEN(t, v, "k4r4/10/10/10/10/10/10/10/1R3K2R1/10 w KQ - 0 1"); hasCoord(p, "f2h2") || hasCoord(p, "f2d2") {
		t.Errorf("%s: castles out of check", p.FEN())
	}
	// Black castles on rank 9.
	p = mustFEN(t, v, "10/1r3k2r1/10/10/10/10/10/10/10/4K5 b kq - 0 1")
	if !hasCoord(p, "f9h9") || !hasCoord(p, "f9d9") {
		t.Errorf("%s: %v", p.FEN(), coords(p))
	}
}

// TestShatranjEnd: RULES.md 5.2, the bare King and stalemate.
func TestShatranjEnd(t *testing.T) {
	v := MustVariant("shatranj", nil)
	// Black's bare King cannot bare White's in reply: Black loses.
	wantOutcome(t, mustFEN(t, v, "8/8/8/8/8/4k3/8/K6R b - - 0 1"), WhiteWins, ReasonBareKing)
	// It can take the last piece: the game goes on, then both are bare.
	p := mustFEN(t, v, "8/8/8/8/8/8/6k1/K6R b - - 0 1")
	wantOutcome(t, p, Ongoing, ReasonNone)
	play(t, p, "g2h1")
	wantOutcome(t, p, Draw, ReasonBareKing)
	// Bare with two enemy pieces left: it cannot bare the enemy in one move.
	wantOutcome(t, mustFEN(t, v, "8/8/8/8/8/8/6k1/K5RR b - - 0 1"), WhiteWins, ReasonBareKing)
	// Stalemate loses (a8 hemmed in by the King and the Ferz; h5 blocked).
	wantOutcome(t, mustFEN(t, v, "k7/2K5/1Q6/7p/7P/8/8/8 b - - 0 1"), WhiteWins, ReasonStalemate)
	// Promotion only to a Ferz (letter Q), no double step.
	p = mustFEN(t, v, "8/3P4/8/8/8/4k2r/P7/K7 w - - 0 1")
	wantFrom(t, p, "d7", "d8")
	wantFrom(t, p, "a2", "a3")
}

// TestChessEnd: RULES.md 5.1, stalemate draws, insufficient material,
// checkmate.
func TestChessEnd(t *testing.T) {
	v := MustVariant("chess", nil)
	wantOutcome(t, mustFEN(t, v, "k7/2K5/1Q6/7p/7P/8/8/8 b - - 0 1"), Draw, ReasonStalemate)
	for _, c := range []struct {
		fen  string
		dead bool
	}{
		{"8/8/8/4k3/8/8/8/4K3 w - - 0 1", true},
		{"8/8/8/4k3/8/8/8/4KN2 w - - 0 1", true},
		{"8/8/8/4k3/8/8/8/4KB2 b - - 0 1", true},
		{"8/8/8/4kb2/8/8/8/4KB2 w - - 0 1", true},   // bishops on one colour
		{"8/8/8/4k1b1/8/8/8/4KB2 w - - 0 1", false}, // bishops on both colours
		{"8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", false},
		{"8/8/8/4kn2/8/8/8/4KB2 w - - 0 1", false},
		{"8/8/8/4k3/8/8/8/4KR2 w - - 0 1", false},
		{"8/8/8/4k3/8/8/5P2/4K3 w - - 0 1", false},
	} {
		want, why := Ongoing, ReasonNone
		if c.dead {
			want, why = Draw, ReasonInsufficient
		}
		wantOutcome(t, mustFEN(t, v, c.fen), want, why)
	}
	p := NewPosition(v)
	play(t, p, "f2f3 e7e5 g2g4 d8h4")
	wantOutcome(t, p, BlackWins, ReasonCheckmate)
	if m := p.LastMove(); m == NullMove {
		t.Error("no last move")
	}
}

// TestMoveCountRules: RULES.md 2.5, 3.6 (nmove), 5.1, 5.2 (70 moves).
func TestMoveCountRules(t *testing.T) {
	for _, c := range []struct {
		variant, opts, fen, move string
		draw                     bool
	}{
		{"chess", "", "8/8/8/4k3/8/8/8/R3K3 w - - 99 60", "a1a2", true},
		{"chess", "", "8/8/8/4k3/8/8/8/R3K3 w - - 98 60", "a1a2", false},
		{"chess", "", "8/8/8/4k3/8/8/P7/R3K3 w - - 99 60", "a2a3", false}, // a pawn move resets
		{"shatranj", "", "6n1/8/8/4k3/8/8/8/R3K3 w - - 139 80", "a1a2", true},
		{"shatranj", "", "6n1/8/8/4k3/8/8/8/R3K3 w - - 99 80", "a1a2", false},
		{"shako", "", "4k5/10/10/10/10/10/10/10/10/R4K4 w - - 99 60", "a1a2", true},
		{"tamerlane", "", "5k5/11/11/11/11/11/11/11/11/R4K5 w - 00 99 60", "a1a2", true},
		{"tamerlane", "", "5k5/11/11/11/11/11/11/11/11/R4K5 w - 00 98 60", "a1a2", false},
		{"tamerlane", "nmove=10", "5k5/11/11/11/11/11/11/11/11/R4K5 w - 00 9 60", "a1a2", true},
		{"tamerlane", "nmove=10", "5k5/11/11/11/11/11/11/11/11/R4K5 w - 00 8 60", "a1a2", false},
		{"tamerlane", "nmove=0", "5k5/11/11/11/11/11/11/11/11/R4K5 w - 00 5000 60", "a1a2", false},
		{"tamerlane", "nmove=10", "5k5/11/11/11/11/11/11/11/PR10/R4K5 w - 00 9 60", "a2a3", false},
		{"tamerlane2", "", "5k5/11/11/11/11/11/11/11/11/11/R4K5 w - - 99 60", "a1a2", true},
		// 2.5: a Ship's promotion is neither a capture nor a pawn move.
		{"tamerlane2", "", "5k5/1S9/11/11/11/11/11/11/11/11/5K5 w - - 99 60", "b10a11", true},
	} {
		v := mustRuleVariant(t, ruleSet{c.variant, c.opts})
		p := mustFEN(t, v, c.fen)
		wantOutcome(t, p, Ongoing, ReasonNone)
		play(t, p, c.move)
		want, why := Ongoing, ReasonNone
		if c.draw {
			want, why = Draw, ReasonMoveRule
		}
		wantOutcome(t, p, want, why)
	}
}

// TestRepetition: threefold repetition draws (RULES.md 2.5, 3.6, 5.1),
// counted through Outcome.
func TestRepetition(t *testing.T) {
	for _, c := range []struct{ variant, cycle string }{
		{"chess", "g1f3 g8f6 f3g1 f6g8"},
		{"tamerlane", "b2d1 j9h10 d1b2 h10j9"},
		{"tamerlane2", "b2d1 j10h11 d1b2 h11j10"},
		{"shako", "c2d4 h9g7 d4c2 g7h9"},
	} {
		p := NewPosition(MustVariant(c.variant, nil))
		play(t, p, c.cycle)
		if p.Repetitions() != 2 {
			t.Errorf("%s: %d repetitions after one cycle", c.variant, p.Repetitions())
		}
		wantOutcome(t, p, Ongoing, ReasonNone)
		play(t, p, c.cycle)
		if p.Repetitions() != 3 {
			t.Errorf("%s: %d repetitions after two cycles", c.variant, p.Repetitions())
		}
		wantOutcome(t, p, Draw, ReasonRepetition)
	}
}
