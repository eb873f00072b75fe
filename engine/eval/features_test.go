package eval

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestFeatureTermsCounted checks the raw values of the feature terms on
// hand-made chess positions (White's count minus Black's). Every term
// listed must have exactly the given value; feature terms not listed
// must be 0.
func TestFeatureTermsCounted(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	ev := New(defaultWeights(t, v))
	cases := []struct {
		fen  string
		want map[string]int
	}{
		// Bishops on c1 (dark) and f1 (light): a pair. The knight on f6
		// attacks e8 (check: Black to move) and d7 of the black King's
		// neighbourhood.
		{"4k3/8/5N2/8/8/8/8/2B1KB2 b - - 0 1", map[string]int{"pair.B": 1, "zone.N": 2}},
		// Two bishops on light squares: no pair.
		{"4k3/8/8/8/8/8/4B3/4KB2 w - - 0 1", map[string]int{}},
		// Rook h1 on an open file, rook a1 on a file with only an enemy
		// pawn (half-open); the b-pawn is white, so no file is half-open for
		// Black.
		{"4k3/p7/8/8/8/8/1P6/R3K2R w - - 0 1", map[string]int{"file.open.R": 1, "file.half.R": 1}},
		// A black queen on the open d-file (attacking d1 and d2 next to the
		// white King) and a rook on a file with a white pawn only, which is
		// passed 6 ranks from promotion.
		{"3qk2r/8/8/8/8/8/7P/4K3 b - - 0 1", map[string]int{"file.open.Q": -1, "file.half.R": -1, "zone.Q": -2, "passed.go6": 1}},
		// Passed pawns: e7 is 1 rank from promotion, b3 (Black) 2; e7
		// attacks d8 and f8 next to the black King.
		{"4k3/4P3/8/8/8/1p6/8/4K3 w - - 0 1", map[string]int{"passed.go1": 1, "passed.go2": -1, "zone.pawns": 2}},
		// Passed pawns 6 ranks from promotion (a2) and 4 (Black's c5).
		{"4k3/8/8/2p5/8/8/P7/4K3 w - - 0 1", map[string]int{"passed.go6": 1, "passed.go4": -1}},
		// A knight attacked by a pawn: a threat by a cheaper piece (and
		// hanging); it attacks e7 next to the black King. The pawn is
		// passed, 5 ranks from promotion.
		{"4k3/8/4p3/3N4/8/8/8/4K3 w - - 0 1", map[string]int{"threats.cheaper": 1, "zone.N": 1, "passed.go4": -1}},
		// A rook attacked by a bishop (13 moves from the centre against 14).
		{"4k3/8/8/8/8/2b5/8/R6K w - - 0 1", map[string]int{"threats.cheaper": 1, "file.open.R": 1}},
		// A bishop attacked by a rook: hanging, but not by a cheaper piece.
		// The rook on the open g-file attacks a1 and b1 next to the white
		// King.
		{"4k3/8/8/8/8/8/K5B1/6r1 w - - 0 1", map[string]int{"zone.R": -2, "file.open.R": -1}},
		// A rook on the seventh attacks d7, e7 and f7 of the black King's
		// neighbourhood (the King on e8 is not on its lines).
		{"4k3/R7/8/8/8/8/8/4K3 w - - 0 1", map[string]int{"zone.R": 3, "file.open.R": 1}},
		// Unsafe mobility: of the knight's eight squares f5 is attacked by
		// the pawn on e6 (passed, 5 ranks from promotion) ...
		{"4k3/8/4p3/8/3N4/8/8/4K3 w - - 0 1", map[string]int{"mobility.unsafe.N": 1, "passed.go4": -1}},
		// ... and for Black f4 by the pawn on e3 (the capture on e3 is safe).
		{"4k3/8/8/3n4/8/4P3/8/4K3 b - - 0 1", map[string]int{"mobility.unsafe.N": -1, "passed.go4": 1}},
	}
	isNew := func(name string) bool {
		for _, p := range []string{"zone.", "passed.go", "pair.", "file.open.", "file.half.", "threats.cheaper", "mobility.unsafe."} {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
		return false
	}
	for _, c := range cases {
		checkRawTerms(t, ev, c.fen, c.want, isNew)
	}
}

// checkRawTerms checks the raw term values of the position fen: every
// term in want has its value, and every other term of the family is 0.
func checkRawTerms(t *testing.T, ev *Evaluator, fen string, want map[string]int, family func(string) bool) {
	t.Helper()
	pos, err := engine.ParseFEN(engine.MustVariant(ev.Registry().Variant(), nil), fen)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := ev.Raw(pos)
	for k, w := range want {
		if raw[k] != w {
			t.Errorf("%s: %s = %d, want %d (raw %v)", fen, k, raw[k], w, raw)
		}
	}
	for k, x := range raw {
		if _, listed := want[k]; family(k) && !listed {
			t.Errorf("%s: %s = %d, want 0", fen, k, x)
		}
	}
}

// TestFeatureRegistry checks which types get which feature terms, from
// the piece table alone: pairs only for colour-bound pieces (the ferz and
// alfil of shatranj, the elephant of shako), file terms only for pieces
// with a forward capturing slide, and one zone term for every pawn type.
func TestFeatureRegistry(t *testing.T) {
	has := func(variant, prefix string) []string {
		var out []string
		for _, n := range RegistryOf(engine.MustVariant(variant, nil)).Names() {
			if strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ".mg") {
				out = append(out, strings.TrimSuffix(strings.TrimPrefix(n, prefix), ".mg"))
			}
		}
		return out
	}
	for _, c := range []struct {
		variant, prefix string
		want            []string
	}{
		{"chess", "pair.", []string{"B"}},
		{"shatranj", "pair.", []string{"B", "Q"}},
		{"shako", "pair.", []string{"B", "E"}},
		{"chess", "file.open.", []string{"R", "Q"}},
		{"shako", "file.open.", []string{"R", "Q"}}, // not the cannon: its slide does not capture
		{"chess", "zone.", []string{"pawns", "N", "B", "R", "Q"}},
		{"tamerlane", "file.open.", []string{"R"}},
		{"chess", "passed.go", []string{"1", "2", "3", "4", "6"}},
	} {
		if got := has(c.variant, c.prefix); !slices.Equal(got, c.want) {
			t.Errorf("%s %s*: %v, want %v", c.variant, c.prefix, got, c.want)
		}
	}
	// Every pawn type of Tamerlane shares one zone term.
	if got := has("tamerlane", "zone.P"); len(got) != 0 {
		t.Errorf("tamerlane: per-pawn-type zone terms %v", got)
	}
}

// TestFeatureSymmetry: with random weights on every term (so the feature
// terms count), turning the board and swapping colours negates the eval.
func TestFeatureSymmetry(t *testing.T) {
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		w := NewWeights(v)
		rng := rand.New(rand.NewPCG(5, 6))
		for i := range w.Values {
			w.Values[i] = float64(rng.IntN(41) - 20)
		}
		ev := New(w)
		games := 40
		if testing.Short() {
			games = 12
		}
		for _, pos := range samples(v, 13, games, 160) {
			q := rotate(t, pos)
			if a, b := ev.EvaluateWhite(pos), ev.EvaluateWhite(q); a != -b {
				ra, _ := ev.Raw(pos)
				rb, _ := ev.Raw(q)
				t.Errorf("%s: eval %d, rotated %d\n%s\n%v\n%v", name, a, b, pos.FEN(), ra, rb)
			}
		}
	}
}

// TestFeatureBruteForce recomputes the zone and threat terms the slow way
// on random positions of every variant, from each piece's own attack set
// (engine.Position.Reach into a fresh cover): the zone filter must never
// skip a piece that attacks the zone, and the threat term must count
// exactly the non-royal non-pawn pieces attacked by a piece of lower
// threat rank.
func TestFeatureBruteForce(t *testing.T) {
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		ev := New(defaultWeights(t, v))
		r := ev.Registry()
		nonzero := map[string]int{}
		games := 60
		if testing.Short() {
			games = 20
		}
		for _, pos := range samples(v, 17, games, 200) {
			raw, _ := ev.Raw(pos)
			want := map[string]int{}
			var covers [2][]*[engine.NumSquares]uint8
			var owners [2][]engine.Square
			for c := engine.White; c <= engine.Black; c++ {
				for _, s := range pos.Pieces(c) {
					cv := new([engine.NumSquares]uint8)
					pos.Reach(s, cv)
					covers[c] = append(covers[c], cv)
					owners[c] = append(owners[c], s)
				}
			}
			for c := engine.White; c <= engine.Black; c++ {
				sgn := 1 - 2*int(c)
				// zone: squares around the enemy royals (on the board), each once
				zone := map[engine.Square]bool{}
				for _, k := range pos.Royals(c.Other()) {
					if v.IsCitadel(k) {
						continue
					}
					for df := -1; df <= 1; df++ {
						for dr := -1; dr <= 1; dr++ {
							f, rk := k.File()+df, k.Rank()+dr
							if f >= 0 && f < v.Files && rk >= 0 && rk < v.Ranks {
								zone[engine.SquareAt(f, rk)] = true
							}
						}
					}
				}
				// unsafe mobility: the squares a non-pawn non-royal piece
				// reaches (one at a time) that an enemy pawn's cover holds
				var pawnAtt, one [engine.NumSquares]uint8
				for j, s := range owners[c.Other()] {
					if v.Def(pos.At(s).Type()).Pawn {
						for z := range pawnAtt {
							pawnAtt[z] |= covers[c.Other()][j][z]
						}
					}
				}
				attackers, attacks := 0, 0 // non-pawn pieces on the zone, and their squares
				for i, s := range owners[c] {
					d := v.Def(pos.At(s).Type())
					if name := "mobility.unsafe." + d.Token; r.types[pos.At(s).Type()].unsafe >= 0 {
						for z := range one {
							if pawnAtt[z] != 0 {
								one[z] = 1
								_, a := pos.ReachAvoiding(s, nil, &one)
								one[z] = 0
								want[name] += sgn * a
							}
						}
					}
					// cramped: mobility short of a quarter of the empty-board moves (at least 2)
					if !d.Pawn && !d.Royal {
						if short := max(2, emptyBoardMoves(d, v.Files, v.Ranks)/4) - pos.Reach(s, nil); short > 0 {
							want["mobility.cramped"] += sgn * short
						}
					}
					tt := r.types[pos.At(s).Type()]
					if tt.zone < 0 {
						continue
					}
					n := 0
					for z := range zone {
						if covers[c][i][z] != 0 {
							n++
						}
					}
					want[r.terms[tt.zone].name] += sgn * n
					if n > 0 && !d.Pawn {
						attackers++
						attacks += n
					}
				}
				// royal cover: pawns of c one or two ranks in front of its royals
				// (file and neighbours); neighbour files without a pawn of c
				if _, ok := r.Index("royal.shield.mg"); ok {
					fwd := 1 - 2*int(c)
					for _, k := range pos.Royals(c) {
						if v.IsCitadel(k) {
							continue
						}
						for g := k.File() - 1; g <= k.File()+1; g++ {
							if g < 0 || g >= v.Files {
								continue
							}
							own := func(f, rk int) bool {
								pc := pos.At(engine.SquareAt(f, rk))
								return pc != engine.Empty && pc.Color() == c && v.Def(pc.Type()).Pawn
							}
							any := false
							for rk := range v.Ranks {
								any = any || own(g, rk)
							}
							if !any {
								want["royal.files"] += sgn
								continue
							}
							for d := 1; d <= 2; d++ {
								if rk := k.Rank() + d*fwd; rk >= 0 && rk < v.Ranks && own(g, rk) {
									want["royal.shield"] += sgn
								}
							}
						}
					}
				}
				// passed-path terms: c's passed pawns (no enemy pawn ahead on
				// their file or a neighbour) with w = 5 - ranks to go > 0
				if _, ok := r.Index("passed.free.mg"); ok {
					fwd := 1 - 2*int(c)
					dist := func(side engine.Color, s engine.Square) int {
						d := 5
						for _, k := range pos.Royals(side) {
							if !v.IsCitadel(k) {
								d = min(d, max(abs(k.File()-s.File()), abs(k.Rank()-s.Rank())))
							}
						}
						return d
					}
					for _, s := range pos.Pieces(c) {
						if !v.Def(pos.At(s).Type()).Pawn || v.IsCitadel(s) {
							continue
						}
						rel := s.Rank()
						if c == engine.Black {
							rel = v.Ranks - 1 - s.Rank()
						}
						w := 5 - (v.Ranks - 1 - rel)
						if rel >= v.Ranks-1 || w <= 0 {
							continue
						}
						passed := true
						for _, x := range pos.Pieces(c.Other()) {
							if v.Def(pos.At(x).Type()).Pawn && abs(x.File()-s.File()) <= 1 && (x.Rank()-s.Rank())*fwd > 0 {
								passed = false
							}
						}
						if !passed {
							continue
						}
						stop := engine.SquareAt(s.File(), s.Rank()+fwd)
						if pos.At(stop) == engine.Empty {
							want["passed.free"] += sgn * w
						}
						want["passed.royal.them"] += sgn * w * dist(c.Other(), stop)
						want["passed.royal.us"] += sgn * w * dist(c, stop)
					}
				}
				// pawn chains: c's pawns a friendly pawn captures onto (when all
				// pawn types capture by the same leaps), and those beside one
				if _, ok := r.Index("pawns.supported.mg"); ok {
					pawnOf := func(x engine.Square) bool {
						pc := pos.At(x)
						return !v.IsCitadel(x) && pc != engine.Empty && pc.Color() == c && v.Def(pc.Type()).Pawn
					}
					sameCaptures := pawnCaptures(v) != nil
					for _, s := range pos.Pieces(c) {
						if !pawnOf(s) {
							continue
						}
						for _, x := range pos.Pieces(c) {
							if !pawnOf(x) {
								continue
							}
							if x.Rank() == s.Rank() && abs(x.File()-s.File()) == 1 {
								want["pawns.phalanx"] += sgn
								break
							}
						}
						if !sameCaptures {
							continue
						}
					supporters:
						for _, x := range pos.Pieces(c) {
							if !pawnOf(x) {
								continue
							}
							for _, m := range v.Def(pos.At(x).Type()).Moves {
								dr := int(m.DR)
								if c == engine.Black {
									dr = -dr
								}
								if m.Kind == engine.Leap && m.Mode == engine.CaptureOnly && x.File()+int(m.DF) == s.File() && x.Rank()+dr == s.Rank() {
									want["pawns.supported"] += sgn
									break supporters
								}
							}
						}
					}
				}
				// danger: min(a*min(k-1, 3), 48)^2/16 for k >= 2 attackers
				if attackers >= 2 {
					d := min(attacks*min(attackers-1, 3), 48)
					want["royal.danger"] += sgn * (d * d / 16)
				}
				// threats: c's pieces attacked by a cheaper enemy piece
				for _, x := range pos.Pieces(c) {
					vx := r.threatValue[pos.At(x).Type()]
					if vx == 0 || vx >= royalValue {
						continue
					}
					for i, a := range owners[c.Other()] {
						if covers[c.Other()][i][x] != 0 && r.threatValue[pos.At(a).Type()] < vx {
							want["threats.cheaper"] += sgn
							break
						}
					}
				}
			}
			for k, x := range want {
				if raw[k] != x {
					t.Errorf("%s %s: %s = %d, brute force %d", name, pos.FEN(), k, raw[k], x)
				}
				if x != 0 {
					nonzero[k]++
				}
			}
			for k, x := range raw {
				if _, ok := want[k]; !ok && (strings.HasPrefix(k, "zone.") || k == "threats.cheaper" || k == "royal.danger" || k == "mobility.cramped" || k == "royal.shield" || k == "royal.files" || strings.HasPrefix(k, "passed.royal.") || k == "passed.free" || k == "pawns.supported" || k == "pawns.phalanx" || strings.HasPrefix(k, "mobility.unsafe.")) && x != 0 {
					t.Errorf("%s %s: %s = %d, brute force 0", name, pos.FEN(), k, x)
				}
			}
		}
		if nonzero["threats.cheaper"] == 0 || nonzero["royal.danger"] == 0 || nonzero["mobility.cramped"] == 0 ||
			nonzero["royal.shield"] == 0 || nonzero["royal.files"] == 0 || nonzero["passed.free"] == 0 ||
			nonzero["passed.royal.them"] == 0 || nonzero["passed.royal.us"] == 0 || nonzero["pawns.phalanx"] == 0 ||
			(pawnCaptures(v) != nil && nonzero["pawns.supported"] == 0) || len(nonzero) < 3 {
			t.Errorf("%s: the samples exercise too few terms: %v", name, nonzero)
		}
		unsafe := 0
		for k, x := range nonzero {
			if strings.HasPrefix(k, "mobility.unsafe.") {
				unsafe += x
			}
		}
		if r.hasUnsafe && unsafe == 0 {
			t.Errorf("%s: no sample has unsafe mobility", name)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestSafeChecksCounted checks royal.checks on hand-made chess positions
// (White's count minus Black's; a royal is in check when attacked,
// docs/rules.md 3.5).
func TestSafeChecksCounted(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	ev := New(defaultWeights(t, v))
	cases := []struct {
		fen  string
		want int
	}{
		// The queen checks from d8, which nothing of Black's attacks.
		{"6k1/5ppp/8/8/8/8/8/3QK3 w - - 0 1", 1},
		// The rook on a8 guards d8 and checks from e8 itself.
		{"r5k1/5ppp/8/8/8/8/8/3QK3 w - - 0 1", -1},
		// The bishop on b5 guards e8: no safe check for either side (the
		// bishop's own check squares f7 and h7 are pawns it does not reach).
		{"r5k1/5ppp/8/1B6/8/8/8/3QK3 w - - 0 1", 0},
		// The knight on d5 checks from e7; f6 is guarded by the g7 pawn.
		{"6k1/5ppp/8/3N4/8/8/8/4K3 w - - 0 1", 1},
		// The queen on a2 (giving check, Black to move) checks from b3,
		// c4, d5 and e6 on the open diagonal (f7 is next to the king) and
		// from a8 (the rank is open); the bishop on b1 reaches only h7,
		// which the king guards.
		{"6k1/6pp/8/8/8/8/Q7/1B2K3 b - - 0 1", 5},
	}
	for _, c := range cases {
		pos, err := engine.ParseFEN(v, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := ev.Raw(pos)
		if raw["royal.checks"] != c.want {
			t.Errorf("%s: royal.checks = %d, want %d (raw %v)", c.fen, raw["royal.checks"], c.want, raw)
		}
	}
}
