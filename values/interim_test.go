package values

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"tamerlane/selfplay"
)

// TestInterimEqualsFinished: a run's journals give the same regression
// samples and imbalance counts as its finished outputs, so that
// `tamerlane values` on a measurement still playing reports the games
// played so far.
func TestInterimEqualsFinished(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	runTiny(t, dir)
	dirs, err := RunDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	opt := SampleOptions{MinPly: 4}
	regA, err := CollectRegression(dirs, opt)
	if err != nil {
		t.Fatal(err)
	}
	imbA, _, err := CollectImbalances(dirs)
	if err != nil {
		t.Fatal(err)
	}
	// Make every run look unfinished: its outputs are not written yet.
	for _, d := range dirs {
		if err := os.Remove(filepath.Join(d, "summary.json")); err != nil {
			t.Fatal(err)
		}
		if !selfplay.InProgress(d) {
			t.Fatalf("%s: not in progress without summary.json", d)
		}
	}
	dirsB, err := RunDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(dirs, dirsB) {
		t.Fatalf("run directories %v, in progress %v", dirs, dirsB)
	}
	doc, err := Measure(dirs, nil, Options{Samples: opt, Regression: RegressionOptions{MinGames: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(doc.InProgress, dirs) || !strings.Contains(doc.Markdown(), "**Interim**") {
		t.Errorf("document in progress %v, want %v", doc.InProgress, dirs)
	}
	regB, err := CollectRegression(dirs, opt)
	if err != nil {
		t.Fatal(err)
	}
	imbB, _, err := CollectImbalances(dirs)
	if err != nil {
		t.Fatal(err)
	}
	a, b := regA["chess"], regB["chess"]
	if a == nil || b == nil || a.Games == 0 {
		t.Fatalf("regression data: finished %+v, in progress %+v", a, b)
	}
	if a.Resigned != b.Resigned {
		t.Errorf("resigned games: in progress %d, finished %d", b.Resigned, a.Resigned)
	}
	if a.Games != b.Games || !reflect.DeepEqual(gameKeys(a.Samples), gameKeys(b.Samples)) {
		t.Errorf("in progress: %d games, %d samples; finished: %d games, %d samples", b.Games, len(b.Samples), a.Games, len(a.Samples))
	}
	if len(imbA["chess"]) == 0 || !reflect.DeepEqual(imbA, imbB) {
		t.Errorf("imbalances: finished %v, in progress %v", imbA["chess"], imbB["chess"])
	}
}

// TestInterimTornJournal: a torn last journal line (a pair being written)
// is skipped, and a corrupt line elsewhere is an error naming the file
// and line.
func TestInterimTornJournal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	runTiny(t, dir)
	dirs, err := RunDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	sp := dirs[len(dirs)-1]
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "chess", "journal.jsonl")); err == nil {
			sp = d
		}
	}
	if err := os.Remove(filepath.Join(sp, "summary.json")); err != nil {
		t.Fatal(err)
	}
	j := filepath.Join(sp, "chess", "journal.jsonl")
	data, err := os.ReadFile(j)
	if err != nil {
		t.Fatal(err)
	}
	full, err := CollectRegression([]string{sp}, SampleOptions{MinPly: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(j, append(append([]byte{}, data...), `{"pair": 99, "games": [`...), 0o644); err != nil {
		t.Fatal(err)
	}
	torn, err := CollectRegression([]string{sp}, SampleOptions{MinPly: 4})
	if err != nil {
		t.Fatalf("torn last line: %v", err)
	}
	if torn["chess"].Games != full["chess"].Games {
		t.Errorf("torn last line: %d games, want %d", torn["chess"].Games, full["chess"].Games)
	}
	if err := os.WriteFile(j, append([]byte("{garbage}\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CollectRegression([]string{sp}, SampleOptions{MinPly: 4}); err == nil {
		t.Error("corrupt first line: no error")
	} else if want := "journal.jsonl:1"; !strings.Contains(err.Error(), want) {
		t.Errorf("corrupt first line: %v, want it to name %s", err, want)
	}
}

// gameKeys returns each game's samples as one string, sorted: the samples
// without the game numbering, which follows the reading order (pair order
// in games.pgn, finishing order in a journal).
func gameKeys(samples []Sample) []string {
	byGame := map[int]string{}
	for _, s := range samples {
		byGame[s.Game] += fmt.Sprintf("%v %g %g %g;", s.Diff, s.Phase, s.Result, s.Weight)
	}
	var out []string
	for _, k := range byGame {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
