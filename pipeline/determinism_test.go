package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"tamerlane/internal/textdiff"
	"tamerlane/selfplay"
)

// searchPipeline returns a one-generation pipeline played by the real
// search with scored random-walk openings (the scorer searches the start
// position before the walks are drawn), small enough for a test; under
// the race detector its games are fewer and shorter.
func searchPipeline() string {
	pairs, nodes, plies := 3, 80, 36
	if raceOn {
		pairs, nodes, plies = 2, 50, 20
	}
	return fmt.Sprintf(`name: det
generations: 1
accept: always
selfplay:
  seed: 3
  nodes: %d
  max_plies: %d
  openings: {plies: 4, max_score: 400, score_nodes: 200}
  dataset: {positions_per_game: 10, skip_plies: 4}
  variants:
    - {variant: tamerlane, pairs: %d}
tune:
  free: [material.]
  prior_sd: 50
verify:
  pairs: %d
  sprt: {elo0: -10, elo1: 10}
`, nodes, plies, pairs, pairs)
}

// TestSearchPipelineDeterministic runs searchPipeline with one worker,
// then with two workers interrupted in the middle of its self-play and
// again in the middle of its verification match and resumed, and checks
// that both runs leave the same files: the same games, tables, values,
// plots and report.
func TestSearchPipelineDeterministic(t *testing.T) {
	file := writeConfig(t, searchPipeline())
	load := func() *Config {
		cfg, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	ref := filepath.Join(t.TempDir(), "ref")
	opts := testOptions(false)
	opts.Workers = 1
	runPipeline(t, load(), ref, opts)

	dir := filepath.Join(t.TempDir(), "run")
	type interrupt struct {
		table string // cancel when a player of a table with this path
		n     int    // ... has been built this many times
		step  string // the step it interrupts
	}
	stops := []interrupt{
		{"gen-001/base/", 6, StepSelfplay}, // a pair or two journaled, one cut off
		{"gen-001/tables/", 3, StepVerify}, // the verification match's new table
	}
	if raceOn {
		stops = stops[:1] // every run redraws the report's plots, slow under the detector
	}
	for _, stop := range stops {
		ctx, cancel := context.WithCancel(context.Background())
		var mu sync.Mutex
		n := 0
		search := selfplay.DefaultFactory()
		opts := testOptions(false)
		opts.Workers = 2
		opts.Factory = func(s selfplay.PlayerSpec) (selfplay.Player, error) {
			mu.Lock()
			if strings.Contains(filepath.ToSlash(s.Table), stop.table) {
				if n++; n == stop.n {
					cancel()
				}
			}
			mu.Unlock()
			return search(s)
		}
		_, err := Run(ctx, load(), dir, opts)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("run stopped at player %d of %s: err %v", stop.n, stop.table, err)
		}
		steps, err := readSteps(GenDir(dir, 1))
		if err != nil {
			t.Fatal(err)
		}
		if len(steps.Steps) != slices.Index(Steps(), stop.step) {
			t.Fatalf("stopped after steps %+v, want in %s", steps.Steps, stop.step)
		}
	}
	opts.Workers = 2
	runPipeline(t, load(), dir, opts)
	sameFiles(t, ref, dir)
}

// sameFiles fails unless two pipeline run directories hold the same
// files with the same contents, the run directory's path replaced, apart
// from what records time (timing.json, steps.json, the report's
// timestamps, the order and wall times of journal lines) and the
// configuration hashes of the matches, which cover the new tables by
// content, and so the run directory their notes name.
func sameFiles(t *testing.T, want, got string) {
	t.Helper()
	list := func(dir string) []string {
		var out []string
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch d.Name() {
			case ".lock", selfplay.TimingName, StepsName:
				return nil
			}
			out = append(out, rel(dir, p))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	wf, gf := list(want), list(got)
	if !slices.Equal(wf, gf) {
		t.Fatalf("different files:\n%v\n%v", wf, gf)
	}
	for _, f := range wf {
		a, b := comparable(t, want, f), comparable(t, got, f)
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between the runs:\n%s", f, textdiff.FirstLine(a, b))
		}
	}
}

// comparable returns file f of run directory dir as sameFiles compares
// it.
func comparable(t *testing.T, dir, f string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, f))
	if err != nil {
		t.Fatal(err)
	}
	switch base := filepath.Base(f); {
	case base == ReportJSON:
		if b, err = json.Marshal(normalizedReport(t, dir)); err != nil {
			t.Fatal(err)
		}
	case base == "journal.jsonl":
		b = journalGames(t, b)
	case base == ReportMD:
		var keep []string
		for _, l := range strings.Split(string(b), "\n") {
			if !strings.Contains(l, "report updated") {
				keep = append(keep, l)
			}
		}
		b = []byte(strings.Join(keep, "\n"))
	}
	if strings.HasPrefix(f, "gen-") {
		hash := regexp.MustCompile(`"config_hash": "[0-9a-f]+"`)
		b = hash.ReplaceAll(b, []byte(`"config_hash": "H"`))
	}
	return bytes.ReplaceAll(b, []byte(dir), []byte("DIR"))
}

// journalGames returns a journal's pairs in pair order without the games'
// wall times ("ms"), one JSON object a line.
func journalGames(t *testing.T, b []byte) []byte {
	t.Helper()
	type pair struct {
		n    float64
		line []byte
	}
	var pairs []pair
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("journal line %q: %v", l, err)
		}
		for _, g := range m["games"].([]any) {
			delete(g.(map[string]any), "ms")
		}
		line, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, pair{m["pair"].(float64), line})
	}
	slices.SortFunc(pairs, func(a, b pair) int { return int(a.n - b.n) })
	var out bytes.Buffer
	for _, p := range pairs {
		out.Write(append(p.line, '\n'))
	}
	return out.Bytes()
}
