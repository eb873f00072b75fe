package selfplay

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestGameFirstPlayer: a journal game's result counts for its
// stream's first player whichever colour it had; unfinished games count
// for nobody.
func TestGameFirstPlayer(t *testing.T) {
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
		g := Game{Result: c.result, FirstWhite: c.firstWhite}
		got, ok := g.FirstPlayer()
		if got != c.want || ok != c.ok {
			t.Errorf("%q, first white %v: %+v %v, want %+v %v", c.result, c.firstWhite, got, ok, c.want, c.ok)
		}
	}
}

// finishedTestRun plays testConfig into a new directory and returns it
// with its summary.
func finishedTestRun(t *testing.T) (string, *Summary) {
	t.Helper()
	dir := t.TempDir()
	run(t, loadTestConfig(t, testConfig), dir, 2)
	sum, err := ReadSummary(filepath.Join(dir, SummaryName))
	if err != nil {
		t.Fatal(err)
	}
	return dir, sum
}

// TestInterimRecords: the records read from a run's journals while it is
// still playing are, game for game, the records its positions.jsonl holds
// once written.
func TestInterimRecords(t *testing.T) {
	dir, sum := finishedTestRun(t)
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
	for r, err := range InterimRecords(dir) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%+v", r))
	}
	slices.Sort(want)
	slices.Sort(got)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("interim records differ from positions.jsonl: %d and %d records\nfirst interim: %.200v\nfirst written: %.200v", len(got), len(want), got, want)
	}
}

// TestGamesAsOutputs: a finished run's games are those of its outputs in
// their order (games.pgn: by pair), whatever order its journals finished
// the pairs in; a run in progress gives its journals' order.
func TestGamesAsOutputs(t *testing.T) {
	dir, sum := finishedTestRun(t)
	var want []string
	for _, s := range sum.Streams {
		games, err := ReadPGN(filepath.Join(dir, s.Dir, "games.pgn"))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			want = append(want, fmt.Sprintf("%s %s %s", g.Tag("Event"), g.Tag("Round"), g.Result))
		}
		// The journal lists the pairs from the last to the first.
		path := filepath.Join(dir, s.Dir, journalName)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
		lines[len(lines)-1] += "\n"
		slices.SortFunc(lines, func(a, b string) int {
			pa, errA := decodePair([]byte(a))
			pb, errB := decodePair([]byte(b))
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			return pb.Pair - pa.Pair
		})
		if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func() []string {
		var got []string
		for g, err := range Games(dir) {
			if err != nil {
				t.Fatal(err)
			}
			round := 1
			if !g.FirstWhite {
				round = 2
			}
			got = append(got, fmt.Sprintf("%s %d.%d %s", g.Stream, g.Pair+1, round, g.Result))
		}
		return got
	}
	if got := read(); len(want) < 4 || !slices.Equal(got, want) {
		t.Errorf("a finished run's games:\n%q\nwant games.pgn's:\n%q", got, want)
	}
	if err := os.Remove(filepath.Join(dir, SummaryName)); err != nil {
		t.Fatal(err)
	}
	got := read()
	if first := fmt.Sprintf("%s %d.1", sum.Streams[0].Name, sum.Streams[0].Pairs); !strings.HasPrefix(got[0], first) {
		t.Errorf("a run in progress starts with %q, want its journal's first pair %q", got[0], first)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("a run in progress:\n%q\nwant the same games as finished:\n%q", got, want)
	}
}

// TestGameWalk: Walk shows every move of a game with its ply and the
// position before it, as a replay by hand does, and stops at fn's
// error; FirstToMove says whose turn it is by the first player's colour.
func TestGameWalk(t *testing.T) {
	dir, _ := finishedTestRun(t)
	games := 0
	for g, err := range Games(dir) {
		if err != nil {
			t.Fatal(err)
		}
		games++
		pos, moves, err := g.Replay()
		if err != nil {
			t.Fatal(err)
		}
		var want, got []string
		for _, m := range moves {
			want = append(want, fmt.Sprintf("%s %v", pos.FEN(), (pos.SideToMove() == engine.White) == g.FirstWhite))
			pos.Make(m)
		}
		err = g.Walk(func(ply int, pos *engine.Position, m engine.Move) error {
			if m != moves[ply] || ply != len(got) {
				t.Fatalf("%s pair %d: ply %d move %v, want ply %d move %v", g.Stream, g.Pair, ply, m, len(got), moves[ply])
			}
			got = append(got, fmt.Sprintf("%s %v", pos.FEN(), g.FirstToMove(pos)))
			return nil
		})
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("%s pair %d: Walk gave %d positions (%v), want %d", g.Stream, g.Pair, len(got), err, len(want))
		}
		stop := errors.New("stop")
		calls := 0
		if err := g.Walk(func(int, *engine.Position, engine.Move) error { calls++; return stop }); err != stop || calls != 1 {
			t.Fatalf("Walk after fn's error: %v, %d calls", err, calls)
		}
	}
	if games < 4 {
		t.Fatalf("%d games", games)
	}
}
