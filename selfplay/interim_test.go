package selfplay

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

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

// TestInterimRecords: the records read from a run's journals while it is
// still playing are, game for game, the records its positions.jsonl holds
// once written.
func TestInterimRecords(t *testing.T) {
	cfg := loadTestConfig(t, testConfig)
	dir := t.TempDir()
	run(t, cfg, dir, 2)
	sum, err := ReadSummary(filepath.Join(dir, SummaryName))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range sum.Streams {
		recs, err := ReadDataset(filepath.Join(dir, s.Dir, DatasetName))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			want = append(want, fmt.Sprintf("%+v", r))
		}
	}
	// A run still playing has no summary yet.
	if err := os.Remove(filepath.Join(dir, SummaryName)); err != nil {
		t.Fatal(err)
	}
	if !InProgress(dir) {
		t.Fatal("a run without summary.json is not in progress")
	}
	var got []string
	err = InterimRecords(dir, func(r Record) error {
		got = append(got, fmt.Sprintf("%+v", r))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	slices.Sort(got)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("interim records differ from positions.jsonl: %d and %d records\nfirst interim: %.200v\nfirst written: %.200v", len(got), len(want), got, want)
	}
}
