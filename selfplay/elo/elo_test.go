package elo

import (
	"fmt"
	"math"
	"testing"
)

// est formats an estimate the way the tools print it: "X +/- Y" with the
// given number of decimals, and the LOS as a percentage.
func est(e Estimate, decimals int) string {
	return fmt.Sprintf("%.*f +/- %.*f, LOS %.*f %%", decimals, e.Elo, decimals, e.Margin, decimals, 100*e.LOS)
}

// TestTrinomialElo checks the trinomial estimates against published
// output: cutechess-cli's Elo ("Elo difference: X +/- Y, LOS: Z %", one
// decimal) and fastchess's normalized Elo (app/tests/elo_test.cpp,
// EloWDL, two decimals).
func TestTrinomialElo(t *testing.T) {
	cutechess := func(tr Trinomial) Estimate { return tr.Elo() }
	fastchess := func(tr Trinomial) Estimate { return tr.NormalizedElo() }
	for _, tc := range []struct {
		name     string
		estimate func(Trinomial) Estimate
		decimals int
		t        Trinomial
		want     string
	}{
		{"cutechess Elo", cutechess, 1, Trinomial{Wins: 2070, Draws: 1062, Losses: 1872}, "13.8 +/- 8.5, LOS 99.9 %"},
		{"cutechess Elo", cutechess, 1, Trinomial{Wins: 320, Draws: 144, Losses: 129}, "116.0 +/- 25.2, LOS 100.0 %"},
		{"fastchess normalized Elo", fastchess, 2, Trinomial{Wins: 76, Losses: 89, Draws: 123}, "-20.76 +/- 40.13, LOS 15.53 %"},
		{"fastchess normalized Elo", fastchess, 2, Trinomial{Wins: 136, Losses: 96, Draws: 111}, "49.77 +/- 36.77, LOS 99.60 %"},
		{"fastchess normalized Elo", fastchess, 2, Trinomial{Wins: 34, Losses: 356, Draws: 0}, "-508.44 +/- 34.48, LOS 0.00 %"},
	} {
		if got := est(tc.estimate(tc.t), tc.decimals); got != tc.want {
			t.Errorf("%s of %+v = %q, want %q", tc.name, tc.t, got, tc.want)
		}
	}
}

func TestCutechessQuantile(t *testing.T) {
	// cutechess-cli's approximate 97.5% quantile, not the exact 1.959964.
	// Using the exact one would print 116.0 +/- 25.3 above.
	if got := cutechessPhiInv(0.975); math.Abs(got-1.957162) > 1e-6 {
		t.Errorf("cutechessPhiInv(0.975) = %v, want 1.957162", got)
	}
	if got := cutechessPhiInv(0.025); math.Abs(got+1.957162) > 1e-6 {
		t.Errorf("cutechessPhiInv(0.025) = %v, want -1.957162", got)
	}
}

// fastchessPenta builds a Pentanomial from fastchess's
// Stats(ll, ld, wl, dd, wd, ww) constructor arguments.
func fastchessPenta(ll, ld, wl, dd, wd, ww int) Pentanomial {
	return Pentanomial{ll, ld, wl + dd, wd, ww}
}

func TestPentanomialFastchess(t *testing.T) {
	// fastchess output, two decimals: nElo, and for the elo_test.cpp
	// cases also Elo and LOS.
	for _, tc := range []struct {
		p        Pentanomial
		wantNElo string
		wantElo  string
	}{
		{Pentanomial{379, 10170, 21828, 10640, 343}, "3.05 +/- 2.31", ""},
		{fastchessPenta(34, 54, 31, 32, 64, 75), "57.94 +/- 28.28", "55.58 +/- 27.65, LOS 100.00 %"},
		{fastchessPenta(332, 433, 457, 41, 333, 334), "-9.17 +/- 10.96", "-8.64 +/- 10.33, LOS 5.05 %"},
		{fastchessPenta(7895, 8757, 5485, 200, 568, 9999), "-19.01 +/- 2.65", "-21.04 +/- 2.95, LOS 0.00 %"},
	} {
		n := tc.p.NormalizedElo()
		if got := fmt.Sprintf("%.2f +/- %.2f", n.Elo, n.Margin); got != tc.wantNElo {
			t.Errorf("%v.NormalizedElo() = %q, want %q", tc.p, got, tc.wantNElo)
		}
		if tc.wantElo == "" {
			continue
		}
		if got := est(tc.p.Elo(), 2); got != tc.wantElo {
			t.Errorf("%v.Elo() = %q, want %q", tc.p, got, tc.wantElo)
		}
		if n.LOS != tc.p.Elo().LOS {
			t.Errorf("%v: NormalizedElo LOS %v != Elo LOS %v", tc.p, n.LOS, tc.p.Elo().LOS)
		}
	}
}

func sameFloat(a, b float64) bool {
	return a == b || (math.IsNaN(a) && math.IsNaN(b))
}

func TestEstimateEdgeCases(t *testing.T) {
	inf := math.Inf(1)
	// Margins of the normalized estimates depend only on the sample size.
	nMargin10 := 1.959963984540054 * nEloScale / math.Sqrt(10)
	nMargin20 := 1.959963984540054 * nEloScale / math.Sqrt(20)
	for _, tc := range []struct {
		name string
		got  Estimate
		want Estimate
	}{
		{"trinomial none Elo", Trinomial{}.Elo(), Estimate{0, inf, 0.5}},
		{"trinomial none nElo", Trinomial{}.NormalizedElo(), Estimate{0, inf, 0.5}},
		{"trinomial draws Elo", Trinomial{Draws: 10}.Elo(), Estimate{0, 0, 0.5}},
		{"trinomial draws nElo", Trinomial{Draws: 10}.NormalizedElo(), Estimate{0, nMargin10, 0.5}},
		{"trinomial wins nElo", Trinomial{Wins: 10}.NormalizedElo(), Estimate{inf, nMargin10, 1}},
		{"trinomial losses nElo", Trinomial{Losses: 10}.NormalizedElo(), Estimate{-inf, nMargin10, 0}},
		{"pentanomial none Elo", Pentanomial{}.Elo(), Estimate{0, inf, 0.5}},
		{"pentanomial none nElo", Pentanomial{}.NormalizedElo(), Estimate{0, inf, 0.5}},
		{"pentanomial balanced Elo", Pentanomial{2: 10}.Elo(), Estimate{0, 0, 0.5}},
		{"pentanomial balanced nElo", Pentanomial{2: 10}.NormalizedElo(), Estimate{0, nMargin20, 0.5}},
		{"pentanomial WW Elo", Pentanomial{4: 10}.Elo(), Estimate{inf, inf, 1}},
		{"pentanomial WW nElo", Pentanomial{4: 10}.NormalizedElo(), Estimate{inf, nMargin20, 1}},
		{"pentanomial LL Elo", Pentanomial{0: 10}.Elo(), Estimate{-inf, inf, 0}},
		{"pentanomial LL nElo", Pentanomial{0: 10}.NormalizedElo(), Estimate{-inf, nMargin20, 0}},
		// The upper end of the score interval passes 100%.
		{"pentanomial near WW Elo", Pentanomial{1: 1, 4: 9}.Elo(), Estimate{ScoreToElo(0.925), inf, Pentanomial{1: 1, 4: 9}.Elo().LOS}},
	} {
		g, w := tc.got, tc.want
		marginOK := sameFloat(g.Margin, w.Margin) || math.Abs(g.Margin-w.Margin) <= 1e-9
		if !sameFloat(g.Elo, w.Elo) || !marginOK || !sameFloat(g.LOS, w.LOS) {
			t.Errorf("%s: got %+v, want %+v", tc.name, g, w)
		}
		if math.IsNaN(g.Elo) || math.IsNaN(g.Margin) || math.IsNaN(g.LOS) {
			t.Errorf("%s: NaN in %+v", tc.name, g)
		}
	}

	// All wins: cutechess's LOS formula is still defined.
	e := Trinomial{Wins: 10}.Elo()
	if !math.IsInf(e.Elo, 1) || !math.IsInf(e.Margin, 1) || !(e.LOS > 0.999 && e.LOS < 1) {
		t.Errorf("all wins: got %+v, want {+Inf +Inf ~0.9992}", e)
	}
	e = Trinomial{Losses: 10}.Elo()
	if !math.IsInf(e.Elo, -1) || !math.IsInf(e.Margin, 1) || !(e.LOS > 0 && e.LOS < 0.001) {
		t.Errorf("all losses: got %+v, want {-Inf +Inf ~0.0008}", e)
	}
}

func TestNewTrinomialPentanomial(t *testing.T) {
	pairs := []Pair{
		{Win, Win}, {Win, Draw}, {Draw, Win}, {Win, Loss}, {Loss, Win},
		{Draw, Draw}, {Draw, Loss}, {Loss, Loss}, {Loss, Loss}, {Win, Win},
	}
	if got, want := NewPentanomial(pairs), (Pentanomial{2, 1, 3, 2, 2}); got != want {
		t.Errorf("NewPentanomial = %v, want %v", got, want)
	}
	var games []Outcome
	for _, p := range pairs {
		games = append(games, p[0], p[1])
	}
	if got, want := NewTrinomial(games), (Trinomial{Wins: 8, Draws: 5, Losses: 7}); got != want {
		t.Errorf("NewTrinomial = %+v, want %+v", got, want)
	}
	if got := NewPentanomial(pairs).Pairs(); got != len(pairs) {
		t.Errorf("Pairs() = %d, want %d", got, len(pairs))
	}
	if got := NewTrinomial(games); got.Games() != len(games) || got.DrawRatio() != 0.25 {
		t.Errorf("Games() = %d, DrawRatio() = %v, want %d, 0.25", got.Games(), got.DrawRatio(), len(games))
	}
	if got := (Trinomial{}).DrawRatio(); got != 0 {
		t.Errorf("empty DrawRatio() = %v, want 0", got)
	}
}

func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", name)
		}
	}()
	f()
}

func TestPanics(t *testing.T) {
	mustPanic(t, "NewTrinomial(invalid)", func() { NewTrinomial([]Outcome{Win, 3}) })
	mustPanic(t, "NewPentanomial(invalid)", func() { NewPentanomial([]Pair{{Win, -1}}) })
	mustPanic(t, "negative Trinomial.Elo", func() { Trinomial{Wins: -1}.Elo() })
	mustPanic(t, "negative Pentanomial.NormalizedElo", func() { Pentanomial{1, -1}.NormalizedElo() })
	mustPanic(t, "negative LLRPentanomial", func() { SPRT{Elo1: 1}.LLRPentanomial(Pentanomial{-1}) })
	mustPanic(t, "bayesian LLRPentanomial", func() {
		SPRT{Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: ModelBayesian}.LLRPentanomial(Pentanomial{1, 1, 1, 1, 1})
	})
	mustPanic(t, "unknown model", func() {
		SPRT{Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "gaussian"}.LLRTrinomial(Trinomial{1, 1, 1})
	})
}

func TestStrings(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Win.String(), "win"}, {Draw.String(), "draw"}, {Loss.String(), "loss"}, {Outcome(7).String(), "Outcome(7)"},
		{Continue.String(), "continue"}, {AcceptH0.String(), "H0"}, {AcceptH1.String(), "H1"}, {Decision(9).String(), "Decision(9)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestTrinomialScore(t *testing.T) {
	s := Trinomial{Wins: 30, Draws: 40, Losses: 30}.Score()
	// mean 0.5; per-game variance (30·0.25 + 30·0.25)/100 = 0.15
	if math.Abs(float64(s.Value)-0.5) > 1e-12 || math.Abs(float64(s.SE)-math.Sqrt(0.15/100)) > 1e-12 {
		t.Errorf("score %+v, want 0.5 with SE %.5f", s, math.Sqrt(0.0015))
	}
	if s := (Trinomial{Wins: 3, Losses: 1}).Score(); math.Abs(float64(s.Value)-0.75) > 1e-12 || !s.Covers(0.75) {
		t.Errorf("3-0-1: %+v", s)
	}
	if s := (Trinomial{Wins: 1, Draws: 2, Losses: 97}).Score(); s.Lo < 0 || s.Hi > 1 || !s.Covers(0.02) {
		t.Errorf("1-2-97: %+v, want an interval inside [0, 1] around 0.02", s)
	}
	if s := (Trinomial{}).Score(); !math.IsNaN(float64(s.Value)) {
		t.Errorf("no games: %+v, want unknown", s)
	}
}
