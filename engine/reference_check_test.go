package engine

// The differential test of the engine against the reference
// implementation (reference_test.go, reference_moves_test.go).

import (
	"sort"
	"strings"
	"testing"
)

// checkAgainstReference compares the engine's legal moves, InCheck,
// Outcome and the position after every legal move with the reference;
// reps counts the position's occurrences since the last capture or pawn
// move. It returns the number of moves compared and the outcome's reason.
func checkAgainstReference(t *testing.T, p *Position, reps int) (int, Reason, bool) {
	t.Helper()
	fen := p.FEN()
	ref, err := refFromEngine(p)
	if err != nil {
		t.Errorf("%s: %s: %v", p.Variant().Name, fen, err)
		return 0, "", false
	}
	want := map[string]refMove{}
	refLegal := ref.legal()
	for _, m := range refLegal {
		if _, dup := want[m.key()]; dup {
			t.Errorf("%s: reference generated %s twice", fen, m.key())
		}
		want[m.key()] = m
	}
	moves := legalMoves(p)
	got := map[string]Move{}
	for _, m := range moves {
		k := engineKey(p, m)
		if _, dup := got[k]; dup {
			t.Errorf("%s: %s: engine generated %s twice", p.Variant().Name, fen, k)
		}
		got[k] = m
	}
	var extra, missing []string
	for k := range got {
		if _, ok := want[k]; !ok {
			extra = append(extra, k)
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(extra)+len(missing) > 0 {
		sort.Strings(extra)
		sort.Strings(missing)
		t.Errorf("%s [%s]: %s\n  engine only: %v\n  reference only: %v", p.Variant().Name, p.Variant().Options, fen, extra, missing)
		return len(moves), "", false
	}
	roy := ref.royals(ref.side)
	wantCheck := len(roy) == 1 && ref.attacked(roy[0], ref.side.Other())
	if p.InCheck() != wantCheck {
		t.Errorf("%s: %s: InCheck() = %v, reference %v", p.Variant().Name, fen, p.InCheck(), wantCheck)
		return len(moves), "", false
	}
	gr, gw := p.Outcome()
	if wr, ww := ref.outcome(refLegal, reps); gr != wr || gw != ww {
		t.Errorf("%s: %s: Outcome() = %v %q, reference %v %q", p.Variant().Name, fen, gr, gw, wr, ww)
		return len(moves), "", false
	}
	ok := true
	for _, m := range moves {
		rm := want[engineKey(p, m)]
		after := ref.make(rm)
		p.Make(m)
		eng, err := refFromEngine(p)
		if err != nil {
			t.Errorf("%s: %s after %s: %v", p.Variant().Name, fen, engineKey(p, m), err)
			ok = false
		} else if d := after.diff(eng); d != "" {
			p.Unmake()
			t.Errorf("%s: %s: after %s (%s) the engine differs from the reference (reference vs engine): %s", p.Variant().Name, fen, p.Coord(m), engineKey(p, m), d)
			return len(moves), "", false
		}
		p.Unmake()
	}
	if p.FEN() != fen {
		t.Errorf("%s: FEN changed by make/unmake: %s -> %s", p.Variant().Name, fen, p.FEN())
		ok = false
	}
	return len(moves), gw, ok
}

// TestReferenceDifferential compares the engine's legal moves with the
// reference generator's on seeded random playouts of every variant under
// every rule option (docs/rules.md 1-5, 3.8), from the start positions and from
// targeted positions near the rare rules.
func TestReferenceDifferential(t *testing.T) {
	// Playouts per start position and their length: from the variant's
	// start, and (shorter) from each targeted position.
	games, plies, tgames, tplies := 8, 200, 4, 80
	if testing.Short() || raceOn {
		games, plies, tgames, tplies = 2, 80, 1, 30
	}
	for _, rs := range allRuleSets() {
		t.Run(rs.String(), func(t *testing.T) {
			v := mustRuleVariant(t, rs)
			starts := append([]string{v.StartFEN}, targeted(v)...)
			nodes, moves, citadel, multi := 0, 0, 0, 0
			kinds := map[MoveKind]int{}
			reasons := map[Reason]int{}
			for si, start := range starts {
				n, length := games, plies
				if si > 0 {
					n, length = tgames, tplies
				}
				for g := 0; g < n; g++ {
					rng := newRNG(uint64(1000*si + g + 1))
					p := mustFEN(t, v, start)
					failed := false
					var keys []string // positions since the start, without the move counters
					playout(rng, p, length, func(p *Position) bool {
						f := strings.Fields(p.FEN())
						keys = append(keys, strings.Join(f[:4], " "))
						reps := 0
						for i := len(keys) - 1; i >= 0 && i >= len(keys)-1-p.HalfmoveClock(); i-- {
							if keys[i] == keys[len(keys)-1] {
								reps++
							}
						}
						k, why, ok := checkAgainstReference(t, p, reps)
						reasons[why]++
						nodes++
						moves += k
						if !ok {
							failed = true
							return false
						}
						for _, m := range legalMoves(p) {
							kinds[m.Kind()]++
							if v.IsCitadel(m.To()) || v.IsCitadel(m.From()) {
								citadel++
							}
						}
						if len(p.Royals(p.SideToMove())) > 1 {
							multi++
						}
						return true
					})
					if failed {
						return
					}
				}
			}
			t.Logf("%d positions (%d with several royals to move), %d moves (%d citadel steps), kinds %v, outcomes %v",
				nodes, multi, moves, citadel, kinds, reasons)
		})
	}
}

// TestTargetedFENsParse guards the targeted positions against typos: each
// must parse in its own variant, and the side that has just moved must not
// be in check.
func TestTargetedFENsParse(t *testing.T) {
	for name, fens := range targetedFENs {
		v := MustVariant(name, nil)
		for _, f := range fens {
			p, err := ParseFEN(v, f)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			p.MakeNull()
			if p.InCheck() {
				t.Errorf("%s: %s: the side not to move is in check", name, f)
			}
		}
	}
}
