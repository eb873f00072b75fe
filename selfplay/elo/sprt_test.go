package elo

import (
	"fmt"
	"math"
	"testing"
)

func TestBounds(t *testing.T) {
	for _, tc := range []struct {
		alpha, beta    float64
		lower, upper   float64
		tolerancePrint float64
	}{
		{0.05, 0.05, -2.944, 2.944, 0.0005},
		{0.01, 0.01, -4.6, 4.6, 0.01}, // cutechess tst_sprt.cpp
		{0.05, 0.10, math.Log(0.10 / 0.95), math.Log(0.90 / 0.05), 1e-12},
	} {
		lo, hi := SPRT{Alpha: tc.alpha, Beta: tc.beta}.Bounds()
		if math.Abs(lo-tc.lower) > tc.tolerancePrint || math.Abs(hi-tc.upper) > tc.tolerancePrint {
			t.Errorf("Bounds(alpha=%v, beta=%v) = (%v, %v), want (%v, %v)", tc.alpha, tc.beta, lo, hi, tc.lower, tc.upper)
		}
	}
}

func TestDecide(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	for _, tc := range []struct {
		llr  float64
		want Decision
	}{
		{0, Continue}, {2.94, Continue}, {-2.94, Continue}, {2.95, AcceptH1}, {-2.95, AcceptH0},
		{math.Inf(1), AcceptH1}, {math.Inf(-1), AcceptH0}, {math.NaN(), Continue},
	} {
		if got := s.Decide(tc.llr); got != tc.want {
			t.Errorf("Decide(%v) = %v, want %v", tc.llr, got, tc.want)
		}
	}
}

func TestLLR(t *testing.T) {
	// want is the published value, format the way the tool prints it
	// (fastchess "%.2f", cutechess-cli "%.3g"); tol, when non-zero,
	// replaces the string comparison with an absolute tolerance.
	type testCase struct {
		name       string
		sprt       SPRT
		penta      *Pentanomial
		tri        Trinomial
		format     string
		want       string
		wantApprox float64
		tol        float64
	}
	penta := func(p Pentanomial) *Pentanomial { return &p }
	fc := func(ll, ld, wl, dd, wd, ww int) *Pentanomial {
		p := fastchessPenta(ll, ld, wl, dd, wd, ww)
		return &p
	}
	sprt := func(elo0, elo1, ab float64, m Model) SPRT {
		return SPRT{Elo0: elo0, Elo1: elo1, Alpha: ab, Beta: ab, Model: m}
	}
	for _, tc := range []testCase{
		// Published fastchess result for this match: LLR 2.946.
		{name: "fastchess normalized pentanomial", sprt: sprt(0, 2, 0.05, ModelNormalized),
			penta: penta(Pentanomial{379, 10170, 21828, 10640, 343}), format: "%.2f", want: "2.95"},
		// The zero Model is ModelNormalized.
		{name: "default model pentanomial", sprt: sprt(0, 2, 0.05, ""),
			penta: penta(Pentanomial{379, 10170, 21828, 10640, 343}), format: "%.2f", want: "2.95"},
		// Published cutechess-cli results.
		{name: "cutechess bayesian 1", sprt: sprt(0, 5, 0.05, ModelBayesian),
			tri: Trinomial{Wins: 2070, Losses: 1872, Draws: 1062}, format: "%.3g", want: "2.96"},
		{name: "cutechess bayesian 2", sprt: sprt(-5, 5, 0.05, ModelBayesian),
			tri: Trinomial{Wins: 1038, Losses: 1037, Draws: 1925}, format: "%.3g", want: "0.0555"},
		// cutechess projects/lib/tests/sprt/tst_sprt.cpp.
		{name: "cutechess test1", sprt: sprt(0, 10, 0.01, ModelBayesian),
			tri: Trinomial{Wins: 1477, Losses: 1351, Draws: 2942}, format: "%.2f", want: "2.52"},
		{name: "cutechess test2", sprt: sprt(0, 10, 0.01, ModelBayesian),
			tri: Trinomial{Wins: 555, Losses: 555, Draws: 298}, format: "%.2f", want: "-0.74"},
		{name: "cutechess test3", sprt: sprt(0, 10, 0.01, ModelBayesian),
			tri: Trinomial{Wins: 3, Losses: 149, Draws: 1}, format: "%.2f", want: "-4.69"},
		// fastchess app/tests/sprt_test.cpp.
		{name: "fastchess normalized trinomial 1", sprt: sprt(0, 2, 0.05, ModelNormalized),
			tri: Trinomial{Wins: 36433, Losses: 36027, Draws: 68692}, format: "%.2f", want: "0.92"},
		{name: "fastchess normalized trinomial 2", sprt: sprt(-1.75, 0.25, 0.05, ModelNormalized),
			tri: Trinomial{Wins: 10871, Losses: 10650, Draws: 20431}, format: "%.2f", want: "2.30"},
		{name: "fastchess logistic trinomial 1", sprt: sprt(0.5, 2.5, 0.05, ModelLogistic),
			tri: Trinomial{Wins: 21404, Losses: 21184, Draws: 40708}, format: "%.2f", want: "-1.57"},
		{name: "fastchess logistic trinomial 2", sprt: sprt(0, 2, 0.05, ModelLogistic),
			tri: Trinomial{Wins: 57433, Losses: 57030, Draws: 106593}, format: "%.2f", want: "-2.59"},
		{name: "fastchess normalized pentanomial 1", sprt: sprt(0, 2, 0.05, ModelNormalized),
			penta: fc(365, 16618, 36029, 200, 16974, 390), format: "%.2f", want: "2.25"},
		{name: "fastchess normalized pentanomial 2", sprt: sprt(-1.75, 0.25, 0.05, ModelNormalized),
			penta: fc(127, 4883, 10311, 401, 5150, 104), format: "%.2f", want: "3.01"},
		{name: "fastchess logistic pentanomial 1", sprt: sprt(0.5, 2.5, 0.05, ModelLogistic),
			penta: fc(223, 9863, 20279, 1000, 10037, 246), format: "%.2f", want: "-3.07"},
		{name: "fastchess logistic pentanomial 2", sprt: sprt(0, 2, 0.05, ModelLogistic),
			penta: fc(871, 26175, 55003, 980, 26678, 821), format: "%.2f", want: "-4.98"},
		// All wins (zero counts regularized to 1e-3). Here the LLR is
		// very sensitive to how precisely the Lagrange multiplier is
		// solved: fastchess's ITP stops at 1e-7 and reports 120.56 and
		// 111.82, this package solves to ~1e-14 and gets 120.548 and
		// 111.798, hence the looser tolerance.
		{name: "fastchess normalized trinomial all wins", sprt: sprt(0, 10, 0.05, ModelNormalized),
			tri: Trinomial{Wins: 4250}, wantApprox: 120.56, tol: 0.05},
		{name: "fastchess normalized pentanomial all WW", sprt: sprt(0, 5, 0.05, ModelNormalized),
			penta: fc(0, 0, 0, 0, 0, 5550), wantApprox: 111.82, tol: 0.05},
	} {
		var got float64
		if tc.penta != nil {
			got = tc.sprt.LLRPentanomial(*tc.penta)
		} else {
			got = tc.sprt.LLRTrinomial(tc.tri)
		}
		if tc.tol != 0 {
			if math.Abs(got-tc.wantApprox) > tc.tol {
				t.Errorf("%s: LLR = %v, want %v ± %v", tc.name, got, tc.wantApprox, tc.tol)
			}
			continue
		}
		if s := fmt.Sprintf(tc.format, got); s != tc.want {
			t.Errorf("%s: LLR = %v (%s), want %s", tc.name, got, s, tc.want)
		}
	}
}

func TestLLREdgeCases(t *testing.T) {
	models := []Model{ModelNormalized, ModelLogistic, ModelBayesian}
	trinomials := []Trinomial{
		{}, {Wins: 10}, {Losses: 10}, {Draws: 10}, {Draws: 1000000}, {Wins: 1, Draws: 1000000},
		{Wins: 1}, {Wins: 5, Losses: 5},
	}
	for _, m := range models {
		s := SPRT{Elo0: -5, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: m}
		for _, tr := range trinomials {
			got := s.LLRTrinomial(tr)
			if math.IsNaN(got) || math.IsInf(got, 0) {
				t.Errorf("%s LLRTrinomial(%+v) = %v", m, tr, got)
			}
			switch {
			case tr.Games() == 0 && got != 0:
				t.Errorf("%s LLRTrinomial(no games) = %v, want 0", m, got)
			case tr.Wins == tr.Losses && math.Abs(got) > 1e-9:
				// Symmetric sample, symmetric bounds.
				t.Errorf("%s LLRTrinomial(%+v) = %v, want 0", m, tr, got)
			case tr.Wins > tr.Losses && !(got > 0):
				t.Errorf("%s LLRTrinomial(%+v) = %v, want > 0", m, tr, got)
			case tr.Wins < tr.Losses && !(got < 0):
				t.Errorf("%s LLRTrinomial(%+v) = %v, want < 0", m, tr, got)
			}
		}
		if m == ModelBayesian {
			continue
		}
		for _, p := range []Pentanomial{{}, {4: 10}, {0: 10}, {2: 10}, {1: 1, 4: 9}, {1, 0, 0, 0, 1}} {
			got := s.LLRPentanomial(p)
			if math.IsNaN(got) || math.IsInf(got, 0) {
				t.Errorf("%s LLRPentanomial(%v) = %v", m, p, got)
			}
			switch {
			case p.Pairs() == 0 && got != 0:
				t.Errorf("%s LLRPentanomial(no pairs) = %v, want 0", m, got)
			case p[0] == p[4] && p[1] == p[3] && math.Abs(got) > 1e-9:
				t.Errorf("%s LLRPentanomial(%v) = %v, want 0", m, p, got)
			case p[4] > 0 && p[0] == 0 && !(got > 0):
				t.Errorf("%s LLRPentanomial(%v) = %v, want > 0", m, p, got)
			case p[0] > 0 && p[4] == 0 && !(got < 0):
				t.Errorf("%s LLRPentanomial(%v) = %v, want < 0", m, p, got)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		s  SPRT
		ok bool
	}{
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}, true},
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: ModelBayesian}, true},
		{SPRT{Elo0: -200, Elo1: 200, Alpha: 0.05, Beta: 0.05, Model: ModelNormalized}, true},
		{SPRT{Elo0: -1000, Elo1: 1000, Alpha: 0.05, Beta: 0.05, Model: ModelLogistic}, true},
		{SPRT{Elo0: 5, Elo1: 5, Alpha: 0.05, Beta: 0.05}, false},
		{SPRT{Elo0: 0, Elo1: math.Inf(1), Alpha: 0.05, Beta: 0.05, Model: ModelBayesian}, false},
		{SPRT{Elo0: 0, Elo1: math.NaN(), Alpha: 0.05, Beta: 0.05}, false},
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05}, false},
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 1}, false},
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.6, Beta: 0.5}, false},
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "gaussian"}, false},
		{SPRT{Elo0: 0, Elo1: 300, Alpha: 0.05, Beta: 0.05, Model: ModelNormalized}, false},
		{SPRT{Elo0: 0, Elo1: 7000, Alpha: 0.05, Beta: 0.05, Model: ModelLogistic}, false},
	} {
		if err := tc.s.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v.Validate() = %v, want ok=%v", tc.s, err, tc.ok)
		}
	}

	// Outside the supported range the LLR is NaN rather than a silently
	// wrong number.
	s := SPRT{Elo0: 0, Elo1: 300, Alpha: 0.05, Beta: 0.05, Model: ModelNormalized}
	if got := s.LLRPentanomial(Pentanomial{10, 10, 10, 10, 10}); !math.IsNaN(got) {
		t.Errorf("LLRPentanomial with nElo bound 300 = %v, want NaN", got)
	}
	s = SPRT{Elo0: 0, Elo1: 7000, Alpha: 0.05, Beta: 0.05, Model: ModelLogistic}
	if got := s.LLRTrinomial(Trinomial{10, 10, 10}); !math.IsNaN(got) {
		t.Errorf("LLRTrinomial with logistic bound 7000 = %v, want NaN", got)
	}
}

func TestBayesEloLogProbs(t *testing.T) {
	// Compare the log-space evaluation with the direct formulas where
	// those are accurate, and check that the probabilities sum to one.
	for _, tc := range []struct{ bayesElo, drawElo float64 }{
		{0, 100}, {50, 250}, {-120, 30}, {400, 600}, {-2, 1},
	} {
		w, l, d := bayesEloLogProbs(tc.bayesElo, tc.drawElo)
		pw := 1 / (1 + math.Pow(10, (tc.drawElo-tc.bayesElo)/400))
		pl := 1 / (1 + math.Pow(10, (tc.drawElo+tc.bayesElo)/400))
		pd := 1 - pw - pl
		if math.Abs(math.Exp(w)-pw) > 1e-12 || math.Abs(math.Exp(l)-pl) > 1e-12 || math.Abs(math.Exp(d)-pd) > 1e-12 {
			t.Errorf("bayesEloLogProbs(%v, %v) = exp(%v, %v, %v), want (%v, %v, %v)",
				tc.bayesElo, tc.drawElo, math.Exp(w), math.Exp(l), math.Exp(d), pw, pl, pd)
		}
	}
	// Extreme arguments stay finite and normalized.
	for _, tc := range []struct{ bayesElo, drawElo float64 }{
		{2.5e6, 2500}, {-2.5e6, 2500}, {0, 1e-9}, {1e5, 1e-6},
	} {
		w, l, d := bayesEloLogProbs(tc.bayesElo, tc.drawElo)
		if math.IsNaN(w+l+d) || math.IsInf(w, 0) && math.IsInf(l, 0) && math.IsInf(d, 0) {
			t.Errorf("bayesEloLogProbs(%v, %v) = (%v, %v, %v)", tc.bayesElo, tc.drawElo, w, l, d)
		}
		if sum := math.Exp(w) + math.Exp(l) + math.Exp(d); math.Abs(sum-1) > 1e-9 {
			t.Errorf("bayesEloLogProbs(%v, %v): probabilities sum to %v", tc.bayesElo, tc.drawElo, sum)
		}
	}
}

// TestEloToScore checks the logistic Elo curve at closed forms (400 Elo
// is odds of 10 to 1) and that ScoreToElo inverts it.
func TestEloToScore(t *testing.T) {
	for _, c := range []struct{ elo, score float64 }{{0, 0.5}, {400, 10.0 / 11}, {-400, 1.0 / 11}, {800, 100.0 / 101}} {
		if got := EloToScore(c.elo); math.Abs(got-c.score) > 1e-15 {
			t.Errorf("EloToScore(%v) = %v, want %v", c.elo, got, c.score)
		}
	}
	for _, e := range []float64{-700, -35.5, 0.25, 120, 900} {
		if back := ScoreToElo(EloToScore(e)); math.Abs(back-e) > 1e-9 {
			t.Errorf("ScoreToElo(EloToScore(%v)) = %v", e, back)
		}
	}
}
