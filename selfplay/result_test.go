package selfplay

import (
	"testing"

	"tamerlane/engine"
	"tamerlane/selfplay/elo"
)

// TestWhiteScore: the three results of a finished game, each side's
// outcome of them, and an unfinished game refused.
func TestWhiteScore(t *testing.T) {
	for _, tc := range []struct {
		result       string
		score        float64
		ok           bool
		white, black elo.Outcome
	}{
		{"1-0", 1, true, elo.Win, elo.Loss},
		{"0-1", 0, true, elo.Loss, elo.Win},
		{"1/2-1/2", 0.5, true, elo.Draw, elo.Draw},
		{"*", 0, false, elo.Loss, elo.Win},
		{"1-0 ", 0, false, elo.Loss, elo.Win},
	} {
		if s, ok := WhiteScore(tc.result); s != tc.score || ok != tc.ok {
			t.Errorf("WhiteScore(%q) = %v, %v, want %v, %v", tc.result, s, ok, tc.score, tc.ok)
		}
		if w, b := outcomeFor(tc.result, engine.White), outcomeFor(tc.result, engine.Black); w != tc.white || b != tc.black {
			t.Errorf("%q: White %v, Black %v, want %v, %v", tc.result, w, b, tc.white, tc.black)
		}
	}
}
