package paired

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"tamerlane/selfplay"
	"tamerlane/selfplay/elo"
)

// openings are three chess positions a few moves in.
const openings = `rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2
rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2
`

// playMatch plays a greedy match of three pairs on the openings into a
// new directory and returns it.
func playMatch(t *testing.T, seed int) string {
	t.Helper()
	tmp := t.TempDir()
	op := filepath.Join(tmp, "openings.txt")
	if err := os.WriteFile(op, []byte(openings), 0o644); err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf("seed: %d\nnodes: 50\nmax_plies: 30\nmatches:\n  - {variant: chess, a: '', b: '', pairs: 3, openings_file: %s}\n", seed, op)
	cfg, err := selfplay.ParseConfig([]byte(text), filepath.Join(tmp, "match.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "run")
	if _, err := selfplay.Run(context.Background(), cfg, dir, selfplay.RunOptions{Workers: 1, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// journal is a run's match journal, line by line, numbers kept exact.
type journal struct {
	path  string
	lines []map[string]any
}

func readJournal(t *testing.T, dir string) *journal {
	t.Helper()
	j := &journal{path: filepath.Join(dir, "match-chess", "journal.jsonl")}
	b, err := os.ReadFile(j.path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		dec := json.NewDecoder(bytes.NewReader(l))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		j.lines = append(j.lines, m)
	}
	return j
}

func (j *journal) write(t *testing.T) {
	t.Helper()
	var b bytes.Buffer
	for _, m := range j.lines {
		l, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(l, '\n'))
	}
	if err := os.WriteFile(j.path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// games returns the games of line i.
func (j *journal) games(i int) []any { return j.lines[i]["games"].([]any) }

// pairScore is the first player's score of line i (game 0: White).
func (j *journal) pairScore(i int) float64 {
	var s float64
	for g, x := range j.games(i) {
		w := map[string]float64{"1-0": 1, "1/2-1/2": 0.5, "0-1": 0}[x.(map[string]any)["result"].(string)]
		if g == 1 {
			w = 1 - w
		}
		s += w
	}
	return s / 2
}

// TestCompare: a run against itself differs by exactly 0 on every pair;
// a run whose results are changed differs by the change, averaged over
// the pairs; a pair without a partner is counted, not matched; the scores
// are the matches' scores.
func TestCompare(t *testing.T) {
	a := playMatch(t, 1)
	r, err := Compare([]string{a}, []string{a})
	if err != nil {
		t.Fatal(err)
	}
	ja := readJournal(t, a)
	want := (ja.pairScore(0) + ja.pairScore(1) + ja.pairScore(2)) / 3
	if len(r.Streams) != 1 || r.Streams[0].Stream != "match-chess" || r.Total.Pairs != 3 || r.Total.OnlyA+r.Total.OnlyB != 0 ||
		r.Total.Diff.Value != 0 || math.Abs(float64(r.Total.ScoreA.Value)-want) > 1e-12 || r.Total.ScoreB.Value != r.Total.ScoreA.Value {
		t.Fatalf("a run against itself: %+v (want score %.4f)", r.Total, want)
	}
	sum, err := selfplay.ReadSummary(filepath.Join(a, selfplay.SummaryName))
	if err != nil {
		t.Fatal(err)
	}
	if s := sum.Streams[0].Score; math.Abs(float64(r.Total.ScoreA.Value-s.Value)) > 1e-12 {
		t.Errorf("score %v, summary %v", r.Total.ScoreA, s)
	}

	// B: the same games with every game of the first pair won by the
	// first player (1-0 with White, 0-1 with Black), and the last pair
	// not played yet.
	b := filepath.Join(t.TempDir(), "b")
	if err := os.CopyFS(b, os.DirFS(a)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(b, selfplay.SummaryName)); err != nil {
		t.Fatal(err)
	}
	jb := readJournal(t, b)
	first := -1
	for i, l := range jb.lines {
		if p, _ := l["pair"].(json.Number).Int64(); p == 0 {
			first = i
		}
	}
	for g, x := range jb.games(first) {
		x.(map[string]any)["result"] = []string{"1-0", "0-1"}[g]
	}
	dropped := len(jb.lines) - 1
	if dropped == first {
		dropped--
	}
	jb.lines = append(jb.lines[:dropped], jb.lines[dropped+1:]...)
	jb.write(t)
	r, err = Compare([]string{a}, []string{b})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Streams[0]
	wantDiff := (ja.pairScore(first) - 1) / 2 // the changed pair; the other matched pair differs by 0
	if wantDiff == 0 {
		t.Fatal("the first pair was already won twice: the change changes nothing")
	}
	if c.Pairs != 2 || c.OnlyA != 1 || c.OnlyB != 0 || math.Abs(float64(c.Diff.Value)-wantDiff) > 1e-12 || r.Total.Pairs != 2 {
		t.Errorf("changed and shortened B: %+v, want 2 pairs, 1 of A only, difference %.4f", c, wantDiff)
	}
	if !strings.Contains(r.Markdown(), "| match-chess | 2 |") {
		t.Errorf("markdown:\n%s", r.Markdown())
	}
	// Swapping the sides negates the difference.
	back, err := Compare([]string{b}, []string{a})
	if err != nil {
		t.Fatal(err)
	}
	if back.Total.Diff.Value != -r.Total.Diff.Value || back.Total.OnlyB != 1 {
		t.Errorf("B against A: %+v", back.Total)
	}
}

// TestCompareErrors: a directory that is not a run is named; runs of
// other openings have no pair in common, which the report says.
func TestCompareErrors(t *testing.T) {
	if _, err := Compare([]string{t.TempDir()}, []string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "paired: ") {
		t.Errorf("not a run: %v", err)
	}
	if _, err := Compare(nil, []string{"x"}); err == nil {
		t.Error("no A run: no error")
	}
}

// TestEloDifference: the delta method on known cases. Equal scores pair
// by pair differ by 0 ± 0; against a constant the standard error is the
// Elo slope at A's mean times the standard error of A's mean; a score of
// 0 has no Elo.
func TestEloDifference(t *testing.T) {
	a := []float64{0.5, 1, 0.5, 0, 1, 0.5, 0.5, 0}
	if d := eloDifference(a, a); d.Value != 0 || d.SE != 0 {
		t.Errorf("A against itself: %v", d)
	}
	b := []float64{0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}
	ma, sd := stat.MeanStdDev(a, nil)
	wantSE := 400 / (math.Ln10 * ma * (1 - ma)) * sd / math.Sqrt(float64(len(a)))
	d := eloDifference(a, b)
	if math.Abs(float64(d.Value)-(elo.ScoreToElo(ma)-elo.ScoreToElo(0.25))) > 1e-9 || math.Abs(float64(d.SE)-wantSE) > 1e-9 {
		t.Errorf("A against a constant: %v, want %.3f ± SE %.3f", d, elo.ScoreToElo(ma)-elo.ScoreToElo(0.25), wantSE)
	}
	if d := eloDifference([]float64{0, 0}, b[:2]); !math.IsNaN(float64(d.Value)) {
		t.Errorf("a score of 0: %v, want unknown", d)
	}
}
