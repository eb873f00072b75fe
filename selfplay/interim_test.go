package selfplay

import "testing"

// TestJournalGameFirstPlayer: a journal game's result counts for its
// stream's first player whichever colour it had; unfinished games count
// for nobody.
func TestJournalGameFirstPlayer(t *testing.T) {
	cases := []struct {
		result     string
		firstWhite bool
		want       WDL
		ok         bool
	}{
		{"1-0", true, WDL{Wins: 1}, true},
		{"1-0", false, WDL{Losses: 1}, true},
		{"0-1", true, WDL{Losses: 1}, true},
		{"0-1", false, WDL{Wins: 1}, true},
		{"1/2-1/2", false, WDL{Draws: 1}, true},
		{"*", true, WDL{}, false},
		{"", false, WDL{}, false},
	}
	for _, c := range cases {
		g := JournalGame{Result: c.result, FirstWhite: c.firstWhite}
		got, ok := g.FirstPlayer()
		if got != c.want || ok != c.ok {
			t.Errorf("%q, first white %v: %+v %v, want %+v %v", c.result, c.firstWhite, got, ok, c.want, c.ok)
		}
	}
}
