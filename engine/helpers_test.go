package engine

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// ruleSet is one variant under one set of rule options (docs/rules.md 1, 3.8).
type ruleSet struct {
	variant string
	opts    string
}

func (r ruleSet) String() string {
	if r.opts == "" {
		return r.variant
	}
	return r.variant + "[" + r.opts + "]"
}

// allRuleSets lists every variant under its defaults and every rule option
// of docs/rules.md 3.8 that changes the rules.
func allRuleSets() []ruleSet {
	var out []ruleSet
	for _, n := range VariantNames() {
		out = append(out, ruleSet{n, ""})
	}
	for _, o := range []string{"swap=check", "swap=off", "giraffe=2", "picket=bishop", "citadels=off"} {
		out = append(out, ruleSet{"tamerlane", o})
	}
	out = append(out,
		ruleSet{"tamerlane-third", "third-pawns=zurafa"},
		ruleSet{"full-tamerlane", "swap=check,giraffe=2,picket=bishop"},
		ruleSet{"tamerlane-feminine", "citadels=off,swap=off"},
	)
	return out
}

func mustRuleVariant(t testing.TB, rs ruleSet) *Variant {
	t.Helper()
	o, err := ParseOptions(rs.opts)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVariant(rs.variant, o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// mustValidFEN parses a FEN with ParseFEN's setup checks.
func mustValidFEN(t testing.TB, v *Variant, fen string) *Position {
	t.Helper()
	p, err := ParseFEN(v, fen)
	if err != nil {
		t.Fatalf("%s: %v", v.Name, err)
	}
	return p
}

// mustFEN parses a FEN without the setup checks: rule tests set up pieces
// without Kings.
func mustFEN(t testing.TB, v *Variant, fen string) *Position {
	t.Helper()
	p, err := parseFEN(v, fen, false)
	if err != nil {
		t.Fatalf("%s: %v", v.Name, err)
	}
	return p
}

func legalMoves(p *Position) []Move {
	var ml MoveList
	p.GenerateLegal(&ml)
	return append([]Move(nil), ml.Slice()...)
}

// coords returns the sorted coordinate strings of the legal moves.
func coords(p *Position) []string {
	var out []string
	for _, m := range legalMoves(p) {
		out = append(out, p.Coord(m))
	}
	sort.Strings(out)
	return out
}

func hasCoord(p *Position, c string) bool {
	for _, s := range coords(p) {
		if s == c {
			return true
		}
	}
	return false
}

// movesFrom returns the sorted destination squares of the legal moves from
// the square named from.
func movesFrom(t testing.TB, p *Position, from string) []string {
	t.Helper()
	s, err := p.Variant().ParseSquare(from)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range legalMoves(p) {
		if m.From() == s {
			out = append(out, m.To().String())
		}
	}
	sort.Strings(out)
	return out
}

func sq(t testing.TB, v *Variant, name string) Square {
	t.Helper()
	s, err := v.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play makes the coordinate moves, failing the test on an illegal one.
func play(t testing.TB, p *Position, moves ...string) {
	t.Helper()
	for _, c := range strings.Fields(strings.Join(moves, " ")) {
		m, err := p.ParseCoord(c)
		if err != nil {
			t.Fatalf("%v (legal: %v)", err, coords(p))
		}
		p.Make(m)
	}
}

// isSpecial reports whether a move exercises a rule beyond an ordinary quiet
// move: a capture or any special kind. Playouts prefer such moves so that
// promotions, lifts, swaps and citadel entries occur often.
func isSpecial(p *Position, m Move) bool {
	if m.Kind() != KindNormal {
		return true
	}
	if p.At(m.To()) != Empty {
		return true
	}
	v := p.Variant()
	return v.IsCitadel(m.To()) || v.IsCitadel(m.From())
}

// randomMove picks a legal move, half of the time among the special ones.
func randomMove(rng *rand.Rand, p *Position, moves []Move) Move {
	if rng.IntN(2) == 0 {
		var sp []Move
		for _, m := range moves {
			if isSpecial(p, m) {
				sp = append(sp, m)
			}
		}
		if len(sp) > 0 {
			return sp[rng.IntN(len(sp))]
		}
	}
	return moves[rng.IntN(len(moves))]
}

// playout walks a seeded random game of at most plies plies from p,
// calling visit at every node (before its move is chosen). It stops when
// the game has no legal move or visit returns false. p is left at the
// final node.
func playout(rng *rand.Rand, p *Position, plies int, visit func(p *Position) bool) {
	for i := 0; i <= plies; i++ {
		if !visit(p) {
			return
		}
		moves := legalMoves(p)
		if len(moves) == 0 || i == plies {
			return
		}
		p.Make(randomMove(rng, p, moves))
	}
}

func newRNG(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x5eed^seed*0x9e3779b97f4a7c15))
}

// targetedFENs are start positions a few plies away from the rules random
// playouts from the start position rarely reach (docs/rules.md 2.3, 2.4, 3.1,
// 3.4, 3.5, 5.3), by variant. Positions whose tokens a variant lacks are
// skipped by the caller.
var targetedFENs = map[string][]string{
	"tamerlane": {
		// 3.4: a pawn of pawns one step from the last rank, arrivals 0/1/2
		// for either side; lift targets d6 (two pieces) and b9 (the
		// elephant on a10 then has no move) once it waits.
		"e2r3n3/4PP1k4/2pr8/2n1r6/11/5r5/2R1N6/11/4pp6/5K5 w Ss 00 0 1",
		"e2r3n3/4PP1k4/2pr8/2n1r6/11/5r5/2R1N6/4nK5/4pp6/11 w Ss 10 0 1",
		"e2r3n3/4PP1k4/2pr8/2n1r6/11/5r5/2R1N6/4nK5/4pp6/11 w Ss 20 0 1",
		"e2r3n3/4PP1k4/2pr8/2n1r6/11/5r5/2R1N6/11/4ppK5/11 w Ss 10 0 1",
		"e2r3n3/4PP6/2pr2k5/2n1r6/11/5r5/2R1N6/11/4pp6/7K3 b Ss 01 0 1",
		"e2r3n3/4PP6/2pr2k5/2n1r6/11/5r5/2R1N6/11/4pp6/7K3 b Ss 12 0 1",
		// 3.4.1-2: a waiting pawn of pawns on f10 (White) and on e1 (Black).
		"e2r1PP1n3/6k4/2pr8/2n1r6/11/5r5/2R1N6/11/11/4pp2K3 w Ss 11 0 1",
		"e2r1PP1n3/6k4/2pr8/2n1r6/11/5r5/2R1N6/11/11/4pp2K3 b Ss 11 0 1",
		// 3.1, 3.6: Kings beside the enemy citadels.
		"11/K10/11/3r7/11/11/7R3/11/10k/11 w Ss 00 0 1",
		"11/1K9/11/11/11/11/11/11/11/5k4r w - 00 0 1",
		// 3.1, 3.5: Adventitious Kings beside and inside their own citadels,
		// a side with two royals.
		"5k5/11/j10/11/11/11/11/10J/11/5K5 w - 00 0 1",
		"5k5/11/11/11/11/11/11/9rr/11[J]/5K5 b - 00 0 1",
		"5k5/[j]11/11/11/3r7/11/11/11/4I6/5K5 w Ss 00 0 1",
		"4k6/11/11/4r6/11/11/11/11/4I6/5K5 w Ss 00 0 1",
		"4k1i4/11/11/4r6/11/11/7R3/11/4I6/5K5 b Ss 00 0 1",
		// 3.5: King swaps, in check and without another legal move.
		"5k5/11/11/11/11/11/11/11/5r5/4NK1R3 w Ss 00 0 1",
		"5k5/11/11/11/11/11/2r8/1r9/pr10/K2N4PR2 w Ss 00 0 1",
		"k3r6/pnpn9/11/11/11/11/11/11/11/K4R5 b Ss 00 0 1",
		// 3.5: stalemated (no legal move, not in check): only the swap.
		"1r7k1/11/11/11/11/11/11/pr10/PR10/K10 w Ss 00 0 1",
		// 3.5: a King in check on its last rank may not swap with a pawn.
		"4K5k/11/11/11/11/N1PR8/11/11/11/4r6 w Ss 00 0 1",
		// 3.1, 3.5: a Prince beside the enemy citadel, with and without
		// a King ranking above it.
		"4k6/I10/11/11/11/11/11/11/11/5K5 w Ss 00 0 1",
		"5k5/I10/11/11/11/11/11/11/11/11 w - 00 0 1",
		// 3.1: an Adventitious King in its citadel guards k1..k3.
		"5K5/11/11/11/11/11/10k/11/11[J]/11 b - 00 0 1",
		// 3.1, 3.5: an Adventitious King as the only royal, in its citadel
		// on a rank a rook sweeps, and in check with its swap right.
		"5k5/11/11/11/11/11/11/11/r10[J]/11 w - 00 0 1",
		"5k5/11/11/11/11/11/11/11/r10[J]/11 b - 00 0 1",
		"5k5/11/11/11/11/11/11/11/5r5/4NJ1R3 w Ss 00 0 1",
		// 3.4.2: a lift may not land on the other side's waiting pawn of
		// pawns (e1 would attack d2 and f2).
		"5PP4k/11/11/11/11/11/11/11/3r1n5/K3pp6 w Ss 11 0 1",
	},
	"tamerlane2": {
		// 2.4: checkmated King with an unattacked Prince, one with its right.
		"5k5/11/11/11/11/11/rr9/11/11/11/K9M w - - 0 1",
		"5k5/11/11/11/11/11/rr9/11/11/4M6/K9M w E - 0 1",
		"5k5/11/11/11/11/11/r10/1r9/11/11/K1M8 w - - 0 1",
		// 2.3: Ships next to the far corners, Princes near the last rank.
		"5k5/1S7S1/11/11/11/11/11/11/11/1s7s1/5K5 w - - 0 1",
		"1k9/4M6/11/11/11/11/11/11/11/6m4/9K1 b - - 0 1",
	},
	"shako": {
		// 5.3: castling both ways, cannons near the King's path.
		"4k5/10/10/10/10/10/10/10/1R3K2R1/10 w KQ - 0 1",
		"r3k3r1/10/10/3c6/10/10/10/10/1R3K2R1/c9 w KQ - 0 1",
		"c8c/1r3k2r1/10/10/10/10/10/10/1R3K2R1/C8C b KQkq - 0 1",
	},
	"chess": {
		// 5.1: en passant, castling, promotion.
		"r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",
		"8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
	},
	"shatranj": {
		// 5.2: promotion to Ferz, bare kings.
		"8/3P4/8/8/8/4k3/8/K6r w - - 0 1",
	},
}

// targeted returns the targeted start FENs that apply to a variant: the
// Tamerlane family shares the historical positions.
func targeted(v *Variant) []string {
	key := v.Name
	switch v.Name {
	case "tamerlane-feminine", "tamerlane-third", "full-tamerlane":
		key = "tamerlane"
	}
	var out []string
	for _, f := range targetedFENs[key] {
		if v.Options["swap"] == "off" {
			f = strings.Replace(f, " Ss ", " - ", 1)
		}
		if _, err := ParseFEN(v, f); err == nil {
			out = append(out, f)
		}
	}
	return out
}
