package engine

import (
	"slices"
	"strings"
	"testing"
)

// TestCheckSquaresMatchReach compares CheckSquares with brute force in
// random positions of every rule set: a piece of each type of the
// attacking side is put on every square of the playing area that is empty
// or held by the defender, and Reach says whether it attacks the royal
// (docs/rules.md 3.5: a royal is in check when attacked). Types without hops
// must be listed exactly where they attack; hoppers, which CheckSquares
// leaves out, must never be listed where they do not.
func TestCheckSquaresMatchReach(t *testing.T) {
	rng := newRNG(21)
	games := 6
	if testing.Short() {
		games = 2
	}
	for _, rs := range allRuleSets() {
		v := mustRuleVariant(t, rs)
		hops := map[PieceType]bool{}
		for ty := 1; ty <= v.NumTypes(); ty++ {
			for _, m := range v.Def(PieceType(ty)).Moves {
				hops[PieceType(ty)] = hops[PieceType(ty)] || m.Kind == Hop
			}
		}
		checked := 0
		for g := 0; g < games; g++ {
			p := NewPosition(v)
			playout(rng, p, 120, func(p *Position) bool {
				if p.GamePly()%10 == 5 {
					checked += compareCheckSquares(t, rs, p, hops)
				}
				return !t.Failed()
			})
		}
		if checked < 20 {
			t.Errorf("%s: only %d royals checked", rs, checked)
		}
	}
}

// compareCheckSquares checks every royal of p against brute force and
// returns how many it checked.
func compareCheckSquares(t *testing.T, rs ruleSet, p *Position, hops map[PieceType]bool) int {
	t.Helper()
	v := p.Variant()
	n := 0
	var cover [NumSquares]uint8
	for by := White; by <= Black; by++ {
		all := uint64(0)
		for ty := 1; ty <= v.NumTypes(); ty++ {
			all |= 1 << MakePiece(PieceType(ty), by)
		}
		for _, k := range p.Royals(by.Other()) {
			if p.v.c.citBit[k] != 0 {
				continue
			}
			n++
			listed := map[Square]uint64{}
			for _, cs := range p.CheckSquares(k, by, all, nil) {
				listed[cs.Square] |= cs.Codes
			}
			for q := range Square(NumSquares) {
				old := p.board[q]
				if old&0x80 != 0 || old != Empty && old.Color() == by {
					if listed[q] != 0 {
						t.Fatalf("%s %s: square %d (cell %#x) listed as a checking square of the royal on %d", rs, p.FEN(), q, old, k)
					}
					continue
				}
				for ty := 1; ty <= v.NumTypes(); ty++ {
					pc := MakePiece(PieceType(ty), by)
					if old != Empty {
						p.remove(q)
					}
					p.put(q, pc)
					clear(cover[:])
					p.Reach(q, &cover)
					p.remove(q)
					if old != Empty {
						p.put(q, old)
					}
					attacks, got := cover[k] != 0, listed[q]>>pc&1 != 0
					if got && !attacks || attacks && !got && !hops[PieceType(ty)] {
						t.Fatalf("%s %s: %s of %s on square %d attacks the royal on %d: %v, listed: %v", rs, p.FEN(),
							v.Def(PieceType(ty)).Name, by, q, k, attacks, got)
					}
				}
			}
		}
	}
	return n
}

// TestCheckSquaresExample lists the knight, bishop and queen checks
// against Black's king after 1.e4 e5 2.Bc4 Nc6 (docs/rules.md 5.1 chess):
// squares held by Black count (a capture that checks), squares behind them
// do not.
func TestCheckSquaresExample(t *testing.T) {
	v := MustVariant("chess", nil)
	p := NewPosition(v)
	play(t, p, "e2e4", "e7e5", "f1c4", "b8c6")
	code := func(tok string) Piece {
		pt, ok := v.PieceByToken(tok)
		if !ok {
			t.Fatalf("no %s", tok)
		}
		return MakePiece(pt, White)
	}
	n, b, q := code("N"), code("B"), code("Q")
	got := map[string][]string{}
	for _, cs := range p.CheckSquares(p.Royals(Black)[0], White, 1<<n|1<<b|1<<q, nil) {
		for _, pc := range []Piece{n, b, q} {
			if cs.Codes>>pc&1 != 0 {
				tok := v.Def(pc.Type()).Token
				got[tok] = append(got[tok], cs.Square.String())
			}
		}
	}
	want := map[string]string{
		"N": "c7 d6 f6 g7",
		"B": "d7 f7",
		"Q": "d7 d8 e5 e6 e7 f7 f8",
	}
	for tok, w := range want {
		sq := got[tok]
		slices.Sort(sq)
		if g := strings.Join(sq, " "); g != w {
			t.Errorf("%s checks: got %s, want %s", tok, g, w)
		}
	}
}

// TestAttacksMatchesReach compares Attacks with Reach's cover for every
// piece and square of random positions of every rule set (docs/rules.md 2:
// leaps, slides, bent slides, hops).
func TestAttacksMatchesReach(t *testing.T) {
	rng := newRNG(23)
	for _, rs := range allRuleSets() {
		v := mustRuleVariant(t, rs)
		checked := 0
		p := NewPosition(v)
		playout(rng, p, 100, func(p *Position) bool {
			if p.GamePly()%5 != 2 {
				return true
			}
			var cover [NumSquares]uint8
			for by := White; by <= Black; by++ {
				for _, s := range p.Pieces(by) {
					clear(cover[:])
					p.Reach(s, &cover)
					for to := range Square(NumSquares) {
						if got, want := p.Attacks(s, to), cover[to] != 0; got != want {
							t.Fatalf("%s %s: Attacks(%s, %s) = %v, Reach says %v", rs, p.FEN(), s, to, got, want)
						}
						checked++
					}
				}
			}
			return true
		})
		if checked == 0 {
			t.Errorf("%s: nothing checked", rs)
		}
	}
}
