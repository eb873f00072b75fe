package search

// The search's wins by the rules of each variant: forced mates, a
// stalemate that wins, a citadel escape and Tamerlane II's succession.

import (
	"context"
	"testing"

	"tamerlane/engine"
)

// wins reports whether the game is over by rule with a win for side c.
func wins(p *engine.Position, c engine.Color) bool {
	r, _ := p.Outcome()
	return r == engine.WhiteWins && c == engine.White || r == engine.BlackWins && c == engine.Black
}

// winningMove reports whether m, for the side to move, forces a win by
// rule within n moves (m counting as the first): brute force over every
// reply.
func winningMove(p *engine.Position, m engine.Move, n int) bool {
	us := p.SideToMove()
	p.Make(m)
	defer p.Unmake()
	if r, _ := p.Outcome(); r != engine.Ongoing {
		return wins(p, us)
	}
	if n <= 1 {
		return false
	}
	var ml engine.MoveList
	p.GenerateLegal(&ml)
	replies := append([]engine.Move(nil), ml.Slice()...)
	for _, q := range replies {
		p.Make(q)
		ok := false
		if r, _ := p.Outcome(); r != engine.Ongoing {
			ok = wins(p, us)
		} else {
			ok = winIn(p, n-1)
		}
		p.Unmake()
		if !ok {
			return false
		}
	}
	return true
}

// winIn reports whether the side to move forces a win within n moves.
func winIn(p *engine.Position, n int) bool {
	var ml engine.MoveList
	p.GenerateLegal(&ml)
	for _, m := range append([]engine.Move(nil), ml.Slice()...) {
		if winningMove(p, m, n) {
			return true
		}
	}
	return false
}

// mateCases are forced wins by rule in one or two moves, White to move.
// The three historical Tamerlane arrays share pieces and rules, so their
// positions are shared. Found by a random search over sparse positions
// and verified by brute force in the test. In the Tamerlane variants
// nobody may swap (swaps field "-"), else the swap escapes.
var mateCases = []struct {
	variants []string
	fen      string
	n        int
	note     string
}{
	{[]string{"chess"}, "5k2/8/6K1/1p1N4/8/5p1R/3R4/4R3 w - - 0 1", 1, "Rh8#"},
	{[]string{"chess"}, "R7/2R5/2Q2K2/8/8/8/1k6/6R1 w - - 0 1", 1, "Rb7#"},
	{[]string{"chess"}, "8/8/k7/2K5/3R4/8/8/8 w - - 0 1", 2, "Rd7 and Ra7#"},
	{[]string{"chess"}, "8/8/1K6/4P2k/3R3n/1QQ1B3/8/4N3 w - - 0 1", 2, ""},
	{[]string{"shatranj"}, "8/2K5/5R2/4Rq2/2n5/6R1/8/7k w - - 0 1", 1, "Rh6#"},
	{[]string{"shatranj"}, "8/5k2/8/8/4K3/8/2q1R3/4R3 w - - 0 1", 1, "Rxc2: bare King"},
	{[]string{"shatranj"}, "7R/8/8/4bk2/8/8/5K2/1Q3N2 w - - 0 1", 2, ""},
	{[]string{"shatranj"}, "2R5/6n1/8/1R6/6k1/2K5/6B1/7B w - - 0 1", 2, ""},
	{[]string{"shako"}, "10/10/10/10/10/10/10/3R6/7K2/9k w - - 0 1", 1, "Rj3#"},
	{[]string{"shako"}, "1R8/10/10/10/10/10/4c2K2/10/2Q7/k8c w - - 0 1", 1, "Qb2#"},
	{[]string{"shako"}, "2Q7/10/5R4/10/1k8/4K5/10/10/5R4/10 w - - 0 1", 2, ""},
	{[]string{"shako"}, "9R/10/5K4/10/10/10/10/7k2/5Q4/6R3 w - - 0 1", 2, ""},
	{[]string{"tamerlane", "tamerlane-feminine", "tamerlane-third"}, "11/11/11/N10/1G9/2k8/1R2f5K/3R7/11/3C7 w - 00 0 1", 1, "Rb5#"},
	{[]string{"tamerlane", "tamerlane-feminine", "tamerlane-third"}, "1R3R5/10f/7R3/6f2T1/k8K1/9C1/11/11/11/11 w - 00 0 1", 1, "Ra8#"},
	{[]string{"tamerlane", "tamerlane-feminine", "tamerlane-third"}, "11/3K3F3/11/11/10G/N10/8R2/11/2k8/11 w - 00 0 1", 2, ""},
	{[]string{"tamerlane", "tamerlane-feminine", "tamerlane-third"}, "6R4/1K9/11/3k7/11/3G6N/5R5/11/5R5/3R7 w - 00 0 1", 2, ""},
	{[]string{"full-tamerlane"}, "2G8/3R7/11/11/G7x2/2k8/11/5G5/K9x/5R5 w - 00 0 1", 1, "Rc1#"},
	{[]string{"full-tamerlane"}, "11/10R/x10/11/11/4K6/6R4/1f6R2/9R1/1k9 w - 00 0 1", 1, "Rg1#"},
	{[]string{"full-tamerlane"}, "11/6R4/6G4/K8G1/11/3x7/3G5k1/11/R10/11 w - 00 0 1", 2, ""},
	{[]string{"full-tamerlane"}, "7k3/11/6G4/11/1R9/11/4X3K2/X6N3/1N9/11 w - 00 0 1", 2, ""},
	{[]string{"tamerlane2"}, "2B8/11/5Q5/11/11/1n9/11/8R2/1k9/9OO/4K6 w - - 0 1", 1, "Qf3#"},
	{[]string{"tamerlane2"}, "11/11/11/11/11/8K2/11/11/4k3A2/11/1Q9 w - - 0 1", 1, "Qb3#"},
	{[]string{"tamerlane2"}, "3Q7/1k9/11/6Q4/11/3B7/4b2A1K1/11/11/11/11 w - - 0 1", 2, ""},
	{[]string{"tamerlane2"}, "11/11/K10/9R1/10k/11/11/11/11/11/4A1B4 w - - 0 1", 2, ""},
	// Tamerlane: capturing one of two royals leaves the other without a
	// move, which loses (docs/rules.md 3.5, 3.6).
	{[]string{"tamerlane"}, "k4K5/3R7/1R9/11/5G5/2i3N4/11/11/11/5CT4 w - 00 0 1", 1, "Txc5: royal capture"},
	// Tamerlane: a stalemate wins for the side that delivers it.
	{[]string{"tamerlane"}, "k10/2R8/11/4N6/11/11/11/11/11/5K5 w - 00 0 1", 1, "Nc8 stalemates"},
}

// TestMates checks that the search finds the forced wins in one and two
// moves of every variant, reports them as mates, and that they are real.
// The depth is 2n + 2, three plies beyond the mate's 2n − 1, a margin
// for the selective search. Before the quiet-move pruning spared checks,
// the late-move pruning hid the mating check of the rook-and-king mate
// in two at depth 6 (Ra7#, a late quiet move at a node that is not
// improving) and the search reported the mate in three it found there.
func TestMates(t *testing.T) {
	covered := map[string][2]bool{}
	for _, c := range mateCases {
		for _, name := range c.variants {
			v := engine.MustVariant(name, nil)
			pos := mustFEN(t, v, c.fen)
			if c.n > 1 && winIn(pos, c.n-1) {
				t.Errorf("%s %s: already wins in %d", name, c.fen, c.n-1)
			}
			if !winIn(pos, c.n) {
				t.Errorf("%s %s: no forced win in %d", name, c.fen, c.n)
				continue
			}
			s := newSearcher(t, v)
			res := s.Search(context.Background(), pos, Limits{Depth: 2*c.n + 2, Nodes: 3_000_000})
			if res.Mate != c.n {
				t.Errorf("%s %s (%s): Mate = %d, want %d (best %s, score %d)", name, c.fen, c.note, res.Mate, c.n, pos.Coord(res.Best), res.Score)
			}
			if !winningMove(pos, res.Best, c.n) {
				t.Errorf("%s %s: best move %s does not win in %d", name, c.fen, pos.Coord(res.Best), c.n)
			}
			// Play the principal variation: the game ends with White's win.
			for _, m := range res.PV {
				pos.Make(m)
			}
			if r, why := pos.Outcome(); r != engine.WhiteWins {
				t.Errorf("%s %s: after the PV %v the outcome is %v (%s)", name, c.fen, coords(t, v, c.fen, res.PV), r, why)
			}
			cv := covered[name]
			cv[c.n-1] = true
			covered[name] = cv
		}
	}
	for _, name := range engine.VariantNames() {
		if cv := covered[name]; !cv[0] || !cv[1] {
			t.Errorf("%s: mates in one and two not both covered", name)
		}
	}
}

func coords(t *testing.T, v *engine.Variant, fen string, pv []engine.Move) []string {
	p := mustFEN(t, v, fen)
	var out []string
	for _, m := range pv {
		out = append(out, p.Coord(m))
		p.Make(m)
	}
	return out
}

// TestStalemateWin: in Tamerlane the move that leaves the opponent without
// a legal move, not in check, wins (docs/rules.md 3.6), and the search plays it.
func TestStalemateWin(t *testing.T) {
	v := engine.MustVariant("tamerlane", nil)
	pos := mustFEN(t, v, "k10/2R8/11/4N6/11/11/11/11/11/5K5 w - 00 0 1")
	res := newSearcher(t, v).Search(context.Background(), pos, Limits{Depth: 4})
	pos.Make(res.Best)
	r, why := pos.Outcome()
	if r != engine.WhiteWins || why != engine.ReasonStalemate || pos.InCheck() {
		t.Errorf("best %v: outcome %v (%s), want a stalemate win", res.Best, r, why)
	}
	if res.Mate != 1 {
		t.Errorf("Mate = %d, want 1", res.Mate)
	}
	// The same position in Tamerlane II rules would be a draw; in
	// shatranj (stalemate loses too) the search must also see the win.
	sv := engine.MustVariant("shatranj", nil)
	sp := mustFEN(t, sv, "k7/2R5/8/4N3/8/8/8/5K2 w - - 0 1")
	sres := newSearcher(t, sv).Search(context.Background(), sp, Limits{Depth: 4})
	if sres.Mate != 1 {
		t.Errorf("shatranj: Mate = %d, want 1 (best %s)", sres.Mate, sp.Coord(sres.Best))
	}
}

// TestCitadelEscape: White, lost (two rooks down, about to be mated), plays
// its King into Black's citadel z9, which draws at once (docs/rules.md 3.1).
func TestCitadelEscape(t *testing.T) {
	v := engine.MustVariant("tamerlane", nil)
	pos := mustFEN(t, v, "5k5/K10/11/11/11/11/11/2rr7/11/11 w - 00 0 1")
	s := newSearcher(t, v)
	res := s.Search(context.Background(), pos, Limits{Depth: 5})
	if got := pos.Coord(res.Best); got != "a9z9" {
		t.Fatalf("best %s (score %d), want the citadel entry a9z9", got, res.Score)
	}
	if res.Score != 0 {
		t.Errorf("score %d, want the draw 0", res.Score)
	}
	pos.Make(res.Best)
	if r, why := pos.Outcome(); r != engine.Draw || why != engine.ReasonCitadel {
		t.Errorf("outcome %v (%s), want a citadel draw", r, why)
	}
	// Without citadels the position is lost.
	nv := engine.MustVariant("tamerlane", engine.Options{"citadels": "off"})
	np := mustFEN(t, nv, "5k5/K10/11/11/11/11/11/2rr7/11/11 w - 00 0 1")
	nres := newSearcher(t, nv).Search(context.Background(), np, Limits{Depth: 3})
	if nres.Score > -300 {
		t.Errorf("citadels=off: score %d, want clearly lost", nres.Score)
	}
}

// TestSuccession: Tamerlane II. A checkmated King with an unattacked
// Prince must succeed (docs/rules.md 2.4); the search plays the succession, and
// the side delivering such a "mate" does not count it as a win.
func TestSuccession(t *testing.T) {
	v := engine.MustVariant("tamerlane2", nil)
	// White is checkmated; the only legal move is the succession a1k6.
	pos := mustFEN(t, v, "rr3k5/11/11/11/11/10M/11/11/11/11/K10 w - - 0 1")
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	if ml.N != 1 || ml.Moves[0].Kind() != engine.KindExchange {
		t.Fatalf("want exactly the succession move, got %d moves", ml.N)
	}
	res := newSearcher(t, v).Search(context.Background(), pos, Limits{Depth: 4})
	if got := pos.Coord(res.Best); got != "a1k6" {
		t.Errorf("best %s, want the succession a1k6", got)
	}
	if res.Mate != 0 && res.Mate > -2 {
		t.Errorf("after succession White is not mated at once: Mate = %d", res.Mate)
	}
	// Black to move: Ra10+ would be mate but for the succession.
	fen := "1r3k5/2r8/11/11/11/10M/11/11/11/11/K10 b - - 0 1"
	pos = mustFEN(t, v, fen)
	res = newSearcher(t, v).Search(context.Background(), pos, Limits{Depth: 2})
	if res.Mate == 1 {
		t.Errorf("Black claims mate in 1 (%s) though White can succeed", pos.Coord(res.Best))
	}
	m, err := pos.ParseCoord("c10a10")
	if err != nil {
		t.Fatal(err)
	}
	pos.Make(m)
	wres := newSearcher(t, v).Search(context.Background(), pos, Limits{Depth: 3})
	if got := pos.Coord(wres.Best); got != "a1k6" {
		t.Errorf("after Ra10+ White plays %s, want the succession a1k6", got)
	}
	// With the Prince attacked there is no succession: a real mate in 1.
	pos = mustFEN(t, v, "1r3k4r/2r8/11/11/11/10M/11/11/11/11/K10 b - - 0 1")
	res = newSearcher(t, v).Search(context.Background(), pos, Limits{Depth: 3})
	if res.Mate != 1 || pos.Coord(res.Best) != "c10a10" {
		t.Errorf("Prince attacked: best %s, Mate %d; want c10a10 mate in 1", pos.Coord(res.Best), res.Mate)
	}
}
