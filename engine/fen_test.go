package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// rulesStartFENs are the start FENs written out in docs/rules.md.
var rulesStartFENs = map[string]string{
	"tamerlane2": "e1c1o1o1c1e/rnbsmkmsbnr/ppppppppppp/11/11/11/11/11/PPPPPPPPPPP/RNBSMKMSBNR/E1C1O1O1C1E w EGeg - 0 1",                   // 2.1
	"tamerlane":  "e1c1d1d1c1e/rntgwkfgtnr/prpnptpgpwpkpfpepcpdpp/11/11/11/11/PPPDPCPEPFPKPWPGPTPNPR/RNTGFKWGTNR/E1C1D1D1C1E w Ss 00 0 1", // 3.2a
	"shatranj":   "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1",                                                                 // 5.2
	"shako":      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1",                                          // 5.3
	"chess":      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",                                                              // 5.1
}

// TestStartFENsMatchRules: the variants' start positions are the ones
// docs/rules.md writes out (2.1, 3.2a, 5.1-5.3).
func TestStartFENsMatchRules(t *testing.T) {
	for name, fen := range rulesStartFENs {
		if got := MustVariant(name, nil).StartFEN; got != fen {
			t.Errorf("%s: start FEN\n %s, docs/rules.md\n %s", name, got, fen)
		}
	}
	if got := MustVariant("tamerlane", Options{"swap": "off"}).StartFEN; !strings.Contains(got, " w - 00 0 1") {
		t.Errorf("swap=off start FEN %s still names swap rights", got)
	}
}

// TestStartArrays checks the arrays docs/rules.md describes square by square
// without a FEN: 3.2b (feminine), 3.2c (third and third-pawns=zurafa) and
// 4 (Full Tamerlane). Black is White rotated by 180 degrees, except Full
// Tamerlane's rank-7 pawns, which keep White's files.
func TestStartArrays(t *testing.T) {
	mascRank3 := "PP PD PC PE PF PK PW PG PT PN PR"
	noF3 := strings.Replace(mascRank3, "PK", ".", 1)
	cases := []struct {
		variant, opts string
		ranks         []string // White's ranks from rank 1
		black7        string   // Full Tamerlane's Black rank 7 (same files)
	}{
		{"tamerlane", "", []string{"E . C . D . D . C . E", "R N T G F K W G T N R", mascRank3}, ""},
		{"tamerlane-feminine", "", []string{"E . C . F K W . C . E", "R N T G D PK D G T N R", noF3}, ""},
		{"tamerlane-third", "", []string{"E . C . F K W . C . E", "R N D T G PK G T D N R", noF3}, ""},
		{"tamerlane-third", "third-pawns=zurafa", []string{"E . C . F K W . C . E", "R N D T G PK G T D N R",
			"PP PF PW PC PE . PG PT PD PN PR"}, ""},
		{"full-tamerlane", "", []string{"E L N U D V D U C L E", "R N T G F K X G T N R",
			"PP PN PC PD PF PK PX PG PT PL PR", ". . PE . . PV . . PU . ."}, ". . PE . . PV . . PU . ."},
	}
	for _, c := range cases {
		v := mustRuleVariant(t, ruleSet{c.variant, c.opts})
		p := NewPosition(v)
		want := map[Square]string{}
		for r, row := range c.ranks {
			for f, tok := range strings.Fields(row) {
				if tok == "." {
					continue
				}
				want[SquareAt(f, r)] = tok
				bf, br := v.Files-1-f, v.Ranks-1-r
				if c.black7 != "" && r == 3 {
					continue // placed below
				}
				want[SquareAt(bf, br)] = strings.ToLower(tok)
			}
		}
		for f, tok := range strings.Fields(c.black7) {
			if tok != "." {
				want[SquareAt(f, 6)] = strings.ToLower(tok)
			}
		}
		for r := 0; r < v.Ranks; r++ {
			for f := 0; f < v.Files; f++ {
				s := SquareAt(f, r)
				got := ""
				if pc := p.At(s); pc != Empty {
					got = v.Def(pc.Type()).Token
					if pc.Color() == Black {
						got = strings.ToLower(got)
					}
				}
				if got != want[s] {
					t.Errorf("%s %s: %v holds %q, docs/rules.md %q", c.variant, c.opts, s, got, want[s])
				}
			}
		}
		if p.SideToMove() != White || !p.HasRight('S') || !p.HasRight('s') || p.PawnOfPawnsArrivals(White) != 0 {
			t.Errorf("%s: start state %s", c.variant, p.FEN())
		}
	}
}

// TestFENRoundTrip: ParseFEN(FEN()) gives the same FEN and hash for every
// start position, for positions with citadel occupants and pawn-of-pawns
// counters (docs/rules.md 2.6, 3.1, 3.7), and along random playouts.
func TestFENRoundTrip(t *testing.T) {
	fixed := map[string][]string{
		"tamerlane": {
			// 3.1: the examples of docs/rules.md, Black's King on l2, White's on z9.
			"e1c1d1d1c1e/rntgw1fgtnr/prpnptpgpw1pfpepcpdpp/11/11/11/11/PPPDPCPEPF1PWPGPTPNPR/RNTGFKWGTNR[k]/E1C1D1D1C1E w Ss 00 10 30",
			"e1c1d1d1c1e/[K]rntgwkfgtnr/prpnptpgpw1pfpepcpdpp/11/11/11/11/PPPDPCPEPF1PWPGPTPNPR/RNTGF1WGTNR/E1C1D1D1C1E b s 21 3 44",
			"5k5/[j]11/11/11/11/11/11/11/11[J]/5K5 w - 12 0 1",
			"e2r1PP1n3/6k4/2pr8/2n1r6/11/5r5/2R1N6/11/11/4pp2K3 b S 11 7 9",
		},
		"tamerlane2": {"5k5/11/11/11/11/11/rr9/11/11/4M6/K9M w E - 12 40"},
		"chess":      {"r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w Kq d6 0 1"},
	}
	for _, name := range VariantNames() {
		v := MustVariant(name, nil)
		fens := append([]string{v.StartFEN}, fixed[name]...)
		for _, fen := range fens {
			p := mustFEN(t, v, fen)
			if got := p.FEN(); got != fen {
				t.Errorf("%s: FEN() = %s, parsed %s", name, got, fen)
			}
			q := mustFEN(t, v, p.FEN())
			if q.FEN() != p.FEN() || q.Hash() != p.Hash() {
				t.Errorf("%s: round trip of %s: %s %x vs %x", name, fen, q.FEN(), q.Hash(), p.Hash())
			}
		}
	}
	// The citadel examples decode to the right occupants.
	v := MustVariant("tamerlane", nil)
	p := mustFEN(t, v, fixed["tamerlane"][0])
	if pc := p.At(sq(t, v, "l2")); pc == Empty || pc.Color() != Black || v.Def(pc.Type()).Token != "K" || !p.CitadelDraw() {
		t.Errorf("l2 holds %v, citadel draw %v", pc, p.CitadelDraw())
	}
	p = mustFEN(t, v, fixed["tamerlane"][1])
	if pc := p.At(sq(t, v, "z9")); pc == Empty || pc.Color() != White || p.PawnOfPawnsArrivals(White) != 2 || p.PawnOfPawnsArrivals(Black) != 1 {
		t.Errorf("z9 holds %v, arrivals %d %d", pc, p.PawnOfPawnsArrivals(White), p.PawnOfPawnsArrivals(Black))
	}
	p = mustFEN(t, v, fixed["tamerlane"][3])
	if p.WaitingPawnOfPawns(White).String() != "f10" || p.WaitingPawnOfPawns(Black).String() != "e1" {
		t.Errorf("waiting pawns of pawns %v %v", p.WaitingPawnOfPawns(White), p.WaitingPawnOfPawns(Black))
	}

	plies, tplies := 400, 100
	if testing.Short() || raceOn {
		plies, tplies = 100, 20
	}
	for _, rs := range allRuleSets() {
		v := mustRuleVariant(t, rs)
		for si, start := range append([]string{v.StartFEN}, targeted(v)...) {
			p := mustFEN(t, v, start)
			n := plies
			if si > 0 {
				n = tplies
			}
			playout(newRNG(uint64(si+77)), p, n, func(p *Position) bool {
				fen := p.FEN()
				q, err := ParseFEN(v, fen)
				if err != nil {
					t.Errorf("%s: %s does not parse: %v", rs, fen, err)
					return false
				}
				if q.FEN() != fen || q.Hash() != p.Hash() {
					t.Errorf("%s: round trip %s -> %s", rs, fen, q.FEN())
					return false
				}
				return true
			})
		}
	}
}

// TestBadFEN: malformed FENs give a *FENError naming the field and, where
// it applies, the character position; never a panic. The expected position
// is the first occurrence of mark in the FEN plus off ("^": 0; "": none).
func TestBadFEN(t *testing.T) {
	const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
	const tam = "e1c1d1d1c1e/rntgwkfgtnr/prpnptpgpwpkpfpepcpdpp/11/11/11/11/PPPDPCPEPFPKPWPGPTPNPR/RNTGFKWGTNR/E1C1D1D1C1E"
	const empty9 = "11/11/11/11/11/11/11/11/" // ranks 10..3 of an empty Tamerlane board
	cases := []struct {
		variant, fen, field string
		mark                string
		off                 int
	}{
		{"chess", "", "fen", "", 0},
		{"chess", start + " w KQkq", "fen", "", 0},
		{"chess", start + " w KQkq - 0 1 extra", "fen", "", 0},
		{"chess", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "^", 0},        // 7 ranks
		{"chess", start + "/8 w KQkq - 0 1", "placement", "^", 0},                                       // 9 ranks
		{"chess", "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "rr/", 1},   // 9 files
		{"chess", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "9", 0},      // 9 empty squares
		{"chess", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "ppppppp", 0}, // 7 files
		{"chess", "rnbqkbnr/pppppppp/8/8/3X4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "X", 0},    // unknown letter
		{"chess", "rnbqkbnr/pppppppp/8/8/0p7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "0p", 0},   // zero count
		{"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "placement", "RNBQKBN ", 0},
		{"chess", start + " x KQkq - 0 1", "side", " x", 1},
		{"chess", start + " W KQkq - 0 1", "side", " W", 1},
		{"chess", start + " w KQxq - 0 1", "castling", "x", 0},
		{"chess", start + " w KK - 0 1", "castling", "KK", 1},
		{"chess", start + " w KQkq e9 0 1", "en passant", "e9", 0},
		{"chess", start + " w KQkq j6 0 1", "en passant", "j6", 0},
		{"chess", start + " w KQkq e2 0 1", "en passant", "e2", 0}, // occupied
		{"chess", start + " w KQkq e6 0 1", "en passant", "e6", 0}, // no pawn passed it
		{"chess", "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d+6 0 1", "en passant", "d+6", 0},
		{"chess", "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1", "", "", 0},
		{"chess", "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant", "e3", 0}, // wrong side's square
		{"chess", start + " w KQkq - -1 1", "halfmove", "-1", 0},
		{"chess", start + " w KQkq - x 1", "halfmove", "x", 0},
		{"chess", start + " w KQkq - 99999999999 1", "halfmove", "99", 0},
		{"chess", start + " w KQkq - 0 y", "fullmove", "y", 0},
		{"chess", start + " w KQkq - 0 99999999999999999", "fullmove", "99", 0},
		{"shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQ - 0 1", "rights", " KQ", 1},
		// Material whose moves could overflow a MoveList (this one has 1100+).
		{"tamerlane2", "nA1AOAQAqAO/10q/QA1A1A1A1AA/q10/AA1A1A1A1AA/10n/AA1A1A1A1AA/O9E/AA1A1A1A1NA/Q9O/CnOAnA1AQAQ w - - 0 1", "placement", "", 0},
		{"tamerlane2", "e1c1o1o1c1e/rnbsmkmsbnr/ppppppppppp/11/11/11/11/11/PPPPPPPPPPP/RNBSMKMSBNR/E1C1O1O1C1E w EGex - 0 1", "princes", "EGex", 3},
		{"tamerlane", tam + " w Ss 0 0 1", "pawnofpawns", " Ss ", 4},
		{"tamerlane", tam + " w Ss 03 0 1", "pawnofpawns", " Ss ", 4},
		{"tamerlane", tam + " w Ss a0 0 1", "pawnofpawns", " Ss ", 4},
		{"tamerlane", tam + " w Ss 000 0 1", "pawnofpawns", " Ss ", 4},
		{"tamerlane", tam + " w Ss - 0 1", "pawnofpawns", " Ss ", 4},
		{"tamerlane", tam + " w Sx 00 0 1", "swaps", " Sx", 2},
		{"tamerlane", tam + " w SsS 00 0 1", "swaps", "SsS", 2},
		{"tamerlane", empty9 + "11/11 w - 00 0 1", "placement", "", 0},     // no royal at all (3.5)
		{"tamerlane", empty9 + "11/5Kp4 w - 00 0 1", "placement", "p", 0},  // "p" alone is no token
		{"tamerlane", empty9 + "11/5KpX4 w - 00 0 1", "placement", "p", 0}, // nor is "pX"
		{"tamerlane", empty9 + "k10/5KPR4 w - 00 0 1", "", "", 0},
		// Positions docs/rules.md makes impossible are refused.
		{"chess", "4k3/8/8/8/8/8/8/8 w - - 0 1", "placement", "", 0},                                                                             // no White King (5.1)
		{"tamerlane", empty9 + "5k5/11 w - 00 0 1", "placement", "", 0},                                                                          // no White royal (3.5)
		{"tamerlane2", "e1c1o1o1c1e/rnbsmkmsbnr/ppppppppppp/11/11/11/11/11/PPPPPPPPPPP/RNBSKKMSBNR/E1C1O1O1C1E w Geg - 0 1", "placement", "", 0}, // two Kings (2.2)
		{"chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR b KQkq - 1 3", "side", "", 0},                                                // White, not to move, in check (5)
		{"chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "", "", 0},                                                    // White to move in check: fine
		{"tamerlane", "k10/11/11/11/11/11/11/11/5r5/4IK5 b - 00 0 1", "", "", 0},                                                                 // two royals: neither is in check (3.5)
		{"tamerlane", "k10/11/11/11/11/11/11/11/5r5/5K5 b - 00 0 1", "side", "", 0},                                                              // the only royal attacked, Black to move
		{"chess", "4k2K/8/8/8/8/8/8/4K3 w - - 0 1", "placement", "", 0},                                                                          // two Kings (5.1)
		{"chess", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "placement", "", 0},                                                                          // a pawn on its last rank (5.1)
		{"chess", "4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "placement", "", 0},                                                                          // a Black pawn on rank 1
		{"shatranj", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "placement", "", 0},                                                                       // 5.2
		{"tamerlane", "5PN4k/11/11/11/11/11/11/11/11/5K5 w - 00 0 1", "placement", "", 0},                                                        // a pawn of knights on rank 10 (3.4)
		{"tamerlane2", "S4k5/11/11/11/11/11/11/11/11/11/5K5 w - - 0 1", "placement", "", 0},                                                      // a Ship on a far corner (2.3)
		{"tamerlane2", "e1c1o1o1c1e/rnbsmkmsbnr/ppppppppppp/11/11/11/11/11/PPPPPPPPPPP/RNBS1KMSBNR/E1C1O1O1C1E w EGeg - 0 1", "princes", "", 0},  // E with no Prince on e2 (2.6)
		{"chess", "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling", "", 0},                                                                            // K with no Rook on h1 (5.1)
		{"tamerlane", "3PP1k5/11/11/11/11/11/11/11/5r5/4NK1R3 w Ss 00 0 1", "pawnofpawns", "", 0},                                                // waits, but no arrival (3.4, 3.7)
		{"tamerlane", "3PP1k5/11/11/11/11/11/11/11/5r5/4NK1R3 w Ss 20 0 1", "pawnofpawns", "", 0},                                                // waits after two arrivals
		{"tamerlane", "3PP1k5/11/11/11/11/11/11/11/5r5/4NK1R3 w Ss 10 0 1", "", "", 0},                                                           // waits after one: fine
		// 3.1: a bracketed citadel only at the start of rank 9 (z9) or
		// after k2 (l2), holding a royal that may stand there.
		{"tamerlane", empty9 + "11[k]/5K5 w - 00 0 1", "", "", 0},
		{"tamerlane", "11/[K]11/11/11/11/11/11/11/11/5k5 b - 00 0 1", "", "", 0},
		{"tamerlane", "11/[j]11/11/11/11/11/11/11/11/5K5 b - 00 0 1", "", "", 0},
		{"tamerlane", empty9 + "11[J]/5k5 w - 00 0 1", "", "", 0},
		{"tamerlane", empty9 + "[k]11/5K5 w - 00 0 1", "placement", "[", 0}, // z2
		{"tamerlane", "[k]11/11/11/11/11/11/11/11/11/5K5 w - 00 0 1", "placement", "^", 0},
		{"tamerlane", empty9 + "5[k]6/5K5 w - 00 0 1", "placement", "[", 0},
		{"tamerlane", empty9 + "11[k][k]/5K5 w - 00 0 1", "placement", "][", 1},
		{"tamerlane", empty9 + "11[r]/5K5 w - 00 0 1", "placement", "r", 0},
		{"tamerlane", empty9 + "11[x]/5K5 w - 00 0 1", "placement", "x", 0},
		{"tamerlane", empty9 + "11[k/5K5 w - 00 0 1", "placement", "[", 0},
		{"tamerlane", empty9 + "11[K]/5k5 w - 00 0 1", "placement", "K]", 0}, // a King in its own citadel
		{"tamerlane", "11/[k]11/11/11/11/11/11/11/11/5K5 w - 00 0 1", "placement", "k]", 0},
		{"tamerlane", empty9 + "11[I]/5k5 w - 00 0 1", "placement", "I]", 0},
		{"tamerlane", empty9 + "11[k]/5K5 x - 00 0 1", "side", " x", 1},
	}
	for _, c := range cases {
		v := MustVariant(c.variant, nil)
		p, err := ParseFEN(v, c.fen)
		if c.field == "" {
			if err != nil {
				t.Errorf("%s %q: %v", c.variant, c.fen, err)
			} else if q := mustFEN(t, v, p.FEN()); q.FEN() != p.FEN() {
				t.Errorf("%s %q: round trip %s", c.variant, c.fen, q.FEN())
			}
			continue
		}
		pos := -1
		switch c.mark {
		case "":
		case "^":
			pos = 0
		default:
			i := strings.Index(c.fen, c.mark)
			if i < 0 {
				t.Fatalf("%q: no %q", c.fen, c.mark)
			}
			pos = i + c.off
		}
		var fe *FENError
		if !errors.As(err, &fe) {
			t.Errorf("%s %q: want a FENError, got %v", c.variant, c.fen, err)
			continue
		}
		if fe.Field != c.field || fe.Pos != pos || !strings.Contains(err.Error(), c.field+" field") {
			t.Errorf("%s %q: field %q at %d (%v), want %q at %d", c.variant, c.fen, fe.Field, fe.Pos, err, c.field, pos)
		}
		if pos >= 0 && !strings.Contains(err.Error(), "at character ") {
			t.Errorf("%q: %v does not give the character position", c.fen, err)
		}
	}
}

// TestBadVariantAndOptions: unknown variants and unknown or bad rule
// options (docs/rules.md 3.8) give errors naming them.
func TestBadVariantAndOptions(t *testing.T) {
	if _, err := NewVariant("tamerlane3", nil); err == nil || !strings.Contains(err.Error(), "tamerlane3") {
		t.Errorf("unknown variant: %v", err)
	}
	for _, c := range []struct {
		variant, opts string
		names         []string
	}{
		{"tamerlane", "swap=sometimes", []string{"swap", "sometimes"}},
		{"tamerlane", "giraffe=4", []string{"giraffe", "4"}},
		{"tamerlane", "picket=rook", []string{"picket", "rook"}},
		{"tamerlane", "citadels=maybe", []string{"citadels", "maybe"}},
		{"tamerlane", "nmove=-1", []string{"nmove", "-1"}},
		{"tamerlane", "nmove=ten", []string{"nmove", "ten"}},
		{"tamerlane", "colour=red", []string{"colour"}},
		{"tamerlane", "third-pawns=zurafa", []string{"third-pawns"}}, // only the third array has it
		{"tamerlane-third", "third-pawns=x", []string{"third-pawns", "x"}},
		{"chess", "swap=off", []string{"swap", "chess"}},
		{"tamerlane2", "citadels=on", []string{"citadels", "tamerlane2"}},
	} {
		_, err := VariantWithRules(c.variant, c.opts)
		if err == nil {
			t.Errorf("%s %s: no error", c.variant, c.opts)
			continue
		}
		for _, n := range c.names {
			if !strings.Contains(err.Error(), n) {
				t.Errorf("%s %s: %v does not name %q", c.variant, c.opts, err, n)
			}
		}
	}
	for _, s := range []string{"swap", "swap=", "=off", "swap=off,swap=check", "swap=off,,giraffe=2"} {
		if _, err := ParseOptions(s); err == nil {
			t.Errorf("ParseOptions(%q): no error", s)
		}
	}
	if _, err := ParseOptions("swap"); err == nil || !strings.Contains(err.Error(), "swap") {
		t.Errorf("ParseOptions(swap): %v", err)
	}
	if _, err := VariantWithRules("tamerlane", "swap"); err == nil || !strings.Contains(err.Error(), "key=value") {
		t.Errorf("VariantWithRules(tamerlane, swap): %v", err)
	}
	if v, err := VariantWithRules("tamerlane", " swap=check , giraffe=2 "); err != nil || v.Options.String() != "citadels=on,giraffe=2,nmove=100,picket=min2,swap=check" {
		t.Errorf("VariantWithRules(tamerlane, swap=check,giraffe=2): %v, %v", v, err)
	}
	// Good options are canonical and recorded (3.8).
	o, _ := ParseOptions(" swap=check , giraffe=2 ")
	v := MustVariant("tamerlane", o)
	if got := v.Options.String(); got != "citadels=on,giraffe=2,nmove=100,picket=min2,swap=check" {
		t.Errorf("options recorded as %q", got)
	}
}

// TestBadMoves: ParseMove and ParseCoord reject illegal and malformed
// moves with an error naming the move.
func TestBadMoves(t *testing.T) {
	for _, c := range []struct{ variant, move string }{
		{"chess", "e2e5"}, {"chess", "e7e5"}, {"chess", "e2"}, {"chess", "e2e4e6"}, {"chess", "i2i4"},
		{"chess", "Ke2"}, {"chess", "xyz"}, {"chess", "0000"}, {"chess", "O-O"},
		{"chess", "e2e9"}, {"chess", "a0a1"}, {"chess", "e2-e4"}, {"chess", "E2E4"},
		{"tamerlane", "f2l2"}, {"tamerlane", "k2l2"}, {"tamerlane", "a10a11"}, {"tamerlane", "K~e1"},
		{"tamerlane", "f2e1"}, {"tamerlane", "PP@e5"}, {"tamerlane", "z9a9"},
		{"tamerlane2", "e2e4"}, {"tamerlane2", "a11a12"}, {"shako", "f2h2"}, {"shako", "O-O"},
	} {
		p := NewPosition(MustVariant(c.variant, nil))
		if _, err := p.ParseMove(c.move); err == nil || !strings.Contains(err.Error(), c.move) {
			t.Errorf("%s ParseMove(%q): %v", c.variant, c.move, err)
		}
		if _, err := p.ParseCoord(c.move); err == nil || !strings.Contains(err.Error(), c.move) {
			t.Errorf("%s ParseCoord(%q): %v", c.variant, c.move, err)
		}
	}
	p := NewPosition(MustVariant("chess", nil))
	for _, s := range []string{"", "+", "#", "!?"} {
		if _, err := p.ParseMove(s); err == nil || !strings.Contains(err.Error(), `"`+s+`"`) {
			t.Errorf("ParseMove(%q): %v", s, err)
		}
		if _, err := p.ParseCoord(s); err == nil || !strings.Contains(err.Error(), `"`+s+`"`) {
			t.Errorf("ParseCoord(%q): %v", s, err)
		}
	}
}

// TestLongFENErrorCut checks that an error does not echo a huge FEN in
// full but still names the field.
func TestLongFENErrorCut(t *testing.T) {
	fen := strings.Repeat("8/", 5000) + " w - - 0 1"
	_, err := ParseFEN(MustVariant("chess", nil), fen)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if len(msg) > 400 || !strings.Contains(msg, "placement field") || !strings.Contains(msg, "(10010 bytes)") {
		t.Errorf("error of %d bytes: %.500s", len(msg), msg)
	}
}

// TestFENHugeEmptyCount: an empty-square count too large for the rank,
// however many digits it has, is refused at its own position in the
// placement, in every variant; it never wraps around to stack pieces on
// squares already used (the audit's FEN put the Queen over a Knight and
// came back as the start FEN).
func TestFENHugeEmptyCount(t *testing.T) {
	const overflow = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB9223372036854775807Q9223372036854775807BNR w KQkq - 0 1"
	if _, err := ParseFEN(MustVariant("chess", nil), overflow); err == nil {
		t.Fatalf("%s: accepted", overflow)
	}
	counts := []string{"9223372036854775807", "9223372036854775808", "18446744073709551616", "18446744073709551617",
		"99999999999999999999999999999999", "12", strings.Repeat("9", 5000)}
	for _, name := range VariantNames() {
		v := MustVariant(name, nil)
		fields := strings.Fields(v.StartFEN)
		ranks := strings.Split(fields[0], "/")
		last := len(ranks) - 1 // rank 1: White's pieces, so the error cannot be about a missing King
		for _, n := range counts {
			// The count replaces the first piece of rank 1 and one more
			// square follows it: any count of 2 or more is too large.
			rank := ranks[last]
			cut := 1
			if rank[0] >= '0' && rank[0] <= '9' {
				cut = strings.IndexFunc(rank, func(r rune) bool { return r < '0' || r > '9' })
			}
			bad := append(slices.Clone(ranks[:last]), n+rank[cut:])
			fen := strings.Join(bad, "/") + " " + strings.Join(fields[1:], " ")
			_, err := ParseFEN(v, fen)
			var fe *FENError
			if !errors.As(err, &fe) {
				t.Errorf("%s %.80q: want a FENError, got %v", name, fen, err)
				continue
			}
			want := strings.LastIndex(fen[:strings.IndexByte(fen, ' ')], "/") + 1
			if fe.Field != "placement" || fe.Pos != want || !strings.Contains(err.Error(), "empty-square count") {
				t.Errorf("%s %.80q: %v (at byte %d), want the placement's count at byte %d", name, fen, err, fe.Pos, want)
			}
			if len(err.Error()) > 400 {
				t.Errorf("%s: error of %d bytes", name, len(err.Error()))
			}
		}
	}
}

// TestLongRulesErrorCut: a bad rules string or variant name of 100 KB is
// cut in the error as a FEN is, with its length given, and the error
// still names what is wrong.
func TestLongRulesErrorCut(t *testing.T) {
	long := strings.Repeat("x", 100000)
	for _, c := range []struct{ variant, rules, want string }{
		{"tamerlane", "swap=" + long, "option swap=xxx"},
		{"tamerlane", long, "is not of the form key=value"},
		{"tamerlane", long + "=1", "unknown option"},
		{"tamerlane", "nmove=" + strings.Repeat("9", 100000), "want a non-negative integer"},
		{"chess", long + "=1", "has no rule options"},
		{"tamerlane", "swap=off," + long + "=1", "unknown option"},
		{long, "", "unknown variant"},
	} {
		_, err := VariantWithRules(c.variant, c.rules)
		if err == nil {
			t.Errorf("%.20s %.20s: no error", c.variant, c.rules)
			continue
		}
		msg := err.Error()
		if len(msg) > 400 || !strings.Contains(msg, c.want) || !strings.Contains(msg, " bytes)") {
			t.Errorf("%.20s %.20s: error of %d bytes: %.500s", c.variant, c.rules, len(msg), msg)
		}
	}
	if _, err := ParseOptions(long + "=1," + long + "=2"); err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("a long key twice: %.500v", err)
	}
}

// TestFENErrorWholeCharacter: a character of several bytes in a FEN is
// reported whole ('♚', not its first byte 'â') and positions count
// characters, not bytes, before it; a byte that starts no character is
// given as a byte.
func TestFENErrorWholeCharacter(t *testing.T) {
	const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
	v := MustVariant("chess", nil)
	for _, c := range []struct {
		fen, want string
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ♚BNR w KQkq - 0 1", "placement field, at character 40: unknown piece '♚'"},
		{start + " w K♚kq - 0 1", "castling field, at character 48: unexpected '♚'"},
		// U+00A0, a space of two bytes, separates the fields: the x is
		// the 49th character and the 50th byte.
		{start + "\u00a0w KQxq - 0 1", "castling field, at character 49: unexpected 'x'"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ\xffBNR w KQkq - 0 1", "placement field, at character 40: unknown piece byte 0xff"},
	} {
		_, err := ParseFEN(v, c.fen)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.fen, err, c.want)
		}
	}
}

// TestPawnOnFirstRank: a pawn on its own first rank is refused where the
// variant's rules can never put it there (its moves all go forward: chess,
// shatranj, shako, Tamerlane II) and accepted where one can: Tamerlane's
// King swap gives any pawn the King's square, and the pawn of pawns is
// lifted to any square (docs/rules.md 3.4, 3.5), so with swap=off only the
// pawn of pawns may stand there.
func TestPawnOnFirstRank(t *testing.T) {
	const t9 = "5k5/11/11/11/11/11/11/11/11/" // ranks 10..2 of Tamerlane with Black's King
	cases := []struct {
		variant, opts, fen string
		ok                 bool
	}{
		{"chess", "", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", false},
		{"chess", "", "p3k3/8/8/8/8/8/8/4K3 b - - 0 1", false},
		{"chess", "", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1", true},
		{"shatranj", "", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", false},
		{"shako", "", "4k5/10/10/10/10/10/10/10/10/P3K5 w - - 0 1", false},
		{"tamerlane2", "", "5k5/11/11/11/11/11/11/11/11/11/P4K5 w - - 0 1", false},
		{"tamerlane2", "", "5k5/11/11/11/11/11/11/11/11/11/M4K5 w - - 0 1", true}, // a Prince steps back
		{"tamerlane", "", t9 + "PR4K5 w Ss 00 0 1", true},
		{"tamerlane", "", "pr4k5/11/11/11/11/11/11/11/11/5K5 w Ss 00 0 1", true},
		{"tamerlane", "swap=off", t9 + "PR4K5 w - 00 0 1", false},
		{"tamerlane", "swap=off", t9 + "PP4K5 w - 00 0 1", true},
		{"full-tamerlane", "", t9 + "PV4K5 w Ss 00 0 1", true},
		{"tamerlane-feminine", "swap=off", t9 + "PK4K5 w - 00 0 1", false},
	}
	for _, c := range cases {
		v := mustRuleVariant(t, ruleSet{c.variant, c.opts})
		_, err := ParseFEN(v, c.fen)
		switch {
		case c.ok && err != nil:
			t.Errorf("%s %s %q: %v", c.variant, c.opts, c.fen, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "its own first rank")):
			t.Errorf("%s %s %q: %v, want a pawn refused on its own first rank", c.variant, c.opts, c.fen, err)
		}
	}
}

// TestSuccessionOntoLastRankReadsBack checks that a position a succession
// reaches reads back from its FEN: the Prince put on its last rank by the
// exchange has not promoted (docs/rules.md 2.3, 2.4), while a Pawn there
// still has.
func TestSuccessionOntoLastRankReadsBack(t *testing.T) {
	v := MustVariant("tamerlane2", nil)
	p, err := ParseFEN(v, "K9k/11/11/11/11/11/10M/11/11/11/rr9 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.ParseMove("a11k5")
	if err != nil {
		t.Fatal(err)
	}
	p.Make(m)
	if _, err := ParseFEN(v, p.FEN()); err != nil {
		t.Errorf("the FEN after the succession does not read back: %v", err)
	}
	if _, err := ParseFEN(v, "P9k/11/11/11/11/11/10K/11/11/11/rr9 b - - 1 1"); err == nil {
		t.Error("a Pawn on its last rank is accepted")
	}
}
