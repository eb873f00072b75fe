package engine

// Targeted tests of single rules of Tamerlane II and the calibration
// variants, each citing the section of docs/rules.md it checks (the Tamerlane
// family's are in rules_test.go).

import (
	"slices"
	"strings"
	"testing"
)

// TestSuccession: docs/rules.md 2.4 and 2.6, Tamerlane II's succession.
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

// TestPrinceDoubleStep: docs/rules.md 2.2 and 2.6, the Prince's double step.
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

// TestShipPromotion: docs/rules.md 2.3, a Ship ending on a far corner becomes an
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

// TestCannon: docs/rules.md 2.2 and 5.3, a cannon captures over exactly one screen.
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

// TestShakoCastling: docs/rules.md 5.3, castling on rank 2 both ways, written as
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

// TestShatranjEnd: docs/rules.md 5.2, the bare King and stalemate.
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

// TestChessEnd: docs/rules.md 5.1, stalemate draws, insufficient material,
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

// TestMoveCountRules: docs/rules.md 2.5, 3.6 (nmove), 5.1, 5.2 (70 moves).
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

// TestRepetition: threefold repetition draws (docs/rules.md 2.5, 3.6, 5.1),
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
