package selfplay

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/internal/fsx"
	"tamerlane/internal/stats"
)

// smallConfig is a quick run for the hardening tests: three chess pairs.
const smallConfig = "seed: 11\nnodes: 100\nmax_plies: 40\nopenings: {plies: 2, score_nodes: 20}\nvariants: [{variant: chess, pairs: 3}]\n"

// TestHugeTTRefusedBeforeDir checks that tt_mib: 100000000 is a config
// error naming the line and field, and that nothing is created (not a
// death with a stack trace that leaves a directory behind).
func TestHugeTTRefusedBeforeDir(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "run.yaml", "seed: 1\nnodes: 100\ntt_mib: 100000000\nvariants: [{variant: chess, pairs: 1}]\n")
	_, err := LoadConfig(p)
	if err == nil || !strings.Contains(err.Error(), p+":3: tt_mib: ") || !strings.Contains(err.Error(), "at most 16384") {
		t.Fatalf("err = %v, want %s:3: tt_mib: ... at most 16384", err, p)
	}
	cfg := loadTestConfig(t, testConfig)
	cfg.TTMiB = 100000000
	out := filepath.Join(dir, "out")
	if _, err := Run(context.Background(), cfg, out, RunOptions{Factory: testFactory()}); err == nil || !strings.Contains(err.Error(), "tt_mib") {
		t.Fatalf("Run err = %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("run directory created despite the config error: %v", err)
	}
}

// TestFailedStartDoesNotBlockRerun checks that a directory claimed by a
// configuration that never journaled a pair accepts a corrected one, while
// a directory with games still refuses another configuration.
func TestFailedStartDoesNotBlockRerun(t *testing.T) {
	dir := t.TempDir()
	bad := loadTestConfig(t, smallConfig)
	hash, err := bad.Hash()
	if err != nil {
		t.Fatal(err)
	}
	// What an earlier version left after dying at its first game.
	if err := claimDir(dir, bad, &Plan{Format: planFormat, ConfigHash: hash, Seed: bad.Seed}, nil); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "chess"), 0o755)
	os.WriteFile(filepath.Join(dir, "chess", journalName), nil, 0o644)
	good := loadTestConfig(t, strings.Replace(smallConfig, "seed: 11", "seed: 12", 1))
	run(t, good, dir, 2)
	_, err = Run(context.Background(), bad, dir, RunOptions{Factory: testFactory()})
	if err == nil || !strings.Contains(err.Error(), "another configuration") {
		t.Fatalf("a directory with games accepted another configuration: %v", err)
	}
	// The refused configuration left the plan of the games alone.
	if plan, err := ReadPlan(dir); err != nil || plan.Seed != good.Seed {
		t.Errorf("plan after a refused start: %+v, %v; want seed %d", plan, err, good.Seed)
	}
}

// TestResumeCleansTemporaries checks that a rerun removes the temporary
// files a killed run left behind.
func TestResumeCleansTemporaries(t *testing.T) {
	cfg := loadTestConfig(t, smallConfig)
	dir := t.TempDir()
	run(t, cfg, dir, 2)
	stale := []string{filepath.Join(dir, ".summary.json.tmp123"), filepath.Join(dir, "chess", ".games.pgn.tmp456")}
	for _, p := range stale {
		if err := os.WriteFile(p, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	run(t, cfg, dir, 2)
	for _, p := range stale {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s survived the rerun", p)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".lock")); err != nil {
		t.Errorf(".lock removed: %v", err)
	}
}

// TestJournalErrorNamesLine checks that a journal line that decodes but
// does not replay is reported as file:line.
func TestJournalErrorNamesLine(t *testing.T) {
	cfg := loadTestConfig(t, smallConfig)
	dir := t.TempDir()
	run(t, cfg, dir, 2)
	path := filepath.Join(dir, "chess", journalName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) < 3 {
		t.Fatalf("journal has %d lines", len(lines))
	}
	var p jPair
	if err := json.Unmarshal([]byte(lines[1]), &p); err != nil {
		t.Fatal(err)
	}
	p.Games[0].Moves[0].M = "a1a1"
	b, _ := json.Marshal(&p)
	lines[1] = string(b)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), cfg, dir, RunOptions{Factory: testFactory()})
	if err == nil || !strings.Contains(err.Error(), path+":2: ") {
		t.Fatalf("err = %v, want it to name %s:2", err, path)
	}
}

// TestEloStringNaN checks that an unknown margin prints as the report
// prints it, "± –", not "± NaN".
func TestEloStringNaN(t *testing.T) {
	nan := stats.Float4(math.NaN())
	for _, c := range []struct {
		e    EloEstimate
		want string
	}{
		{EloEstimate{Elo: 338, Margin: nan}, "+338.0 ± –"},
		{EloEstimate{Elo: -12.34, Margin: 5.06}, "-12.3 ± 5.1"},
		{EloEstimate{Elo: nan, Margin: nan}, "–"},
		{EloEstimate{Elo: stats.Float4(math.Inf(1)), Margin: nan}, "–"},
	} {
		if got := c.e.String(); got != c.want {
			t.Errorf("%v: %q, want %q", c.e, got, c.want)
		}
	}
}

// TestResumeRefusesChangedDefaultTable checks that run.json records the
// digest of the embedded table a stream plays with, that a resume whose
// binary embeds another table is refused without touching the journal
// (it would mix two players in one run), and that a run recorded before
// digests were kept still resumes.
func TestResumeRefusesChangedDefaultTable(t *testing.T) {
	cfg := loadTestConfig(t, smallConfig)
	dir := t.TempDir()
	run(t, cfg, dir, 2)
	path := filepath.Join(dir, RunInfoName)
	var info runInfo
	if err := fsx.ReadJSON(path, &info, formatVersion); err != nil {
		t.Fatal(err)
	}
	v, err := engine.VariantWithRules("chess", "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := eval.DefaultDigest(v)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.DefaultTables["chess"]; got != want || len(info.DefaultTables) != 1 {
		t.Fatalf("default_tables = %v, want chess: %s", info.DefaultTables, want)
	}
	journal := filepath.Join(dir, "chess", journalName)
	before, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}

	info.DefaultTables["chess"] = "sha256:" + strings.Repeat("0", 64)
	if err := fsx.WriteJSON(path, info); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), cfg, dir, RunOptions{Factory: testFactory()})
	if err == nil || !strings.Contains(err.Error(), "another embedded chess table") {
		t.Fatalf("resume with another embedded table: err = %v, want a refusal naming chess", err)
	}
	if after, _ := os.ReadFile(journal); string(after) != string(before) {
		t.Error("the refused resume changed the journal")
	}

	info.DefaultTables = nil
	if err := fsx.WriteJSON(path, info); err != nil {
		t.Fatal(err)
	}
	run(t, cfg, dir, 2)
}

// TestResumedRunIsInProgress: while a stopped run is resumed its old
// summary.json is gone, so that readers (tamerlane tune and values) take
// the games from the journals instead of the outputs of the first part,
// and the outputs are whole again when it finishes.
func TestResumedRunIsInProgress(t *testing.T) {
	cfg := loadTestConfig(t, testConfig)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := Run(ctx, cfg, dir, RunOptions{Workers: 1, Factory: testFactory(), afterPair: func(string, int) { cancel() }}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: err %v", err)
	}
	if InProgress(dir) {
		t.Fatal("a stopped run has no summary.json")
	}
	var mu sync.Mutex
	seen, during := 0, 0
	res, err := Run(context.Background(), cfg, dir, RunOptions{Workers: 1, Factory: testFactory(), afterPair: func(string, int) {
		mu.Lock()
		defer mu.Unlock()
		seen++
		if InProgress(dir) {
			during++
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 || during != seen {
		t.Errorf("the resumed run looked in progress after %d of its %d pairs", during, seen)
	}
	if !res.Summary.Complete || InProgress(dir) {
		t.Errorf("finished run: complete %v, in progress %v", res.Summary.Complete, InProgress(dir))
	}
}

// TestDefaultTablesSkipOutsideEngines: a match side played by an outside
// engine uses no table of this binary, so it records none (a run of two
// outside engines resumes with any build), while an embedded side of the
// same match still records its variant's table.
func TestDefaultTablesSkipOutsideEngines(t *testing.T) {
	outside := &EngineSpec{Cmd: "/opt/fsf"}
	for _, c := range []struct {
		name string
		m    MatchConfig
		want int
	}{
		{"both outside", MatchConfig{Variant: "chess", Pairs: 1, EngineA: outside, EngineB: outside}, 0},
		{"A outside", MatchConfig{Variant: "chess", Pairs: 1, EngineA: outside}, 1},
		{"B outside", MatchConfig{Variant: "chess", Pairs: 1, EngineB: outside}, 1},
		{"both embedded", MatchConfig{Variant: "chess", Pairs: 1}, 1},
	} {
		cfg := &Config{Matches: []MatchConfig{c.m}}
		got, err := cfg.DefaultTables()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got) != c.want {
			t.Errorf("%s: default tables %v, want %d", c.name, got, c.want)
		}
	}
}
