package selfplay

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tamerlane/engine"
)

// TestReadFENsHugeEmptyCount: an openings file (match --openings) with a
// FEN whose empty-square count overflows is refused naming the file and
// line, not played from a position with pieces stacked on one square.
func TestReadFENsHugeEmptyCount(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "openings.txt", "# one good, one bad\n"+engine.MustVariant("chess", nil).StartFEN+"\n"+
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB9223372036854775807Q9223372036854775807BNR w KQkq - 0 1\n")
	_, err := ReadFENs(engine.MustVariant("chess", nil), p)
	if err == nil || !strings.HasPrefix(err.Error(), p+":3: ") || !strings.Contains(err.Error(), "empty-square count") {
		t.Fatalf("err = %v, want %s:3: ... empty-square count ...", err, p)
	}
}

// TestHugeCountsRefused: pairs, workers and the opening walk's size
// beyond their bounds are config errors naming the line and field,
// found at once; a run given too many workers is refused before its
// directory is made. Before, 99999999999999 pairs looped in the stream
// building (deaf to SIGTERM) and a walk of 1e18 plies died making its
// move slice.
func TestHugeCountsRefused(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "run.yaml", "nodes: 100\nworkers: 100000\nopenings: {plies: 1000000000000000000, attempts: 1000000000}\n"+
		"variants: [{variant: chess, pairs: 99999999999999}]\nmatches:\n  - {variant: chess, pairs: 1000001}\n")
	_, err := LoadConfig(p)
	for _, want := range []string{
		p + ":2: workers: must be at most 1024 game pairs at once (got 100000)",
		p + ":3: openings.plies: must be 0 (no walk) to 1000 (got 1000000000000000000)",
		p + ":3: openings.attempts: must be 1 to 100000 (got 1000000000)",
		p + ":4: variants[0].pairs: must be at most 1000000 (got 99999999999999)",
		p + ":6: matches[0].pairs: must be at most 1000000 (got 1000001)",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant it to contain %q", err, want)
		}
	}
	cfg := loadTestConfig(t, smallConfig)
	out := filepath.Join(dir, "out")
	if _, err := Run(context.Background(), cfg, out, RunOptions{Workers: 100000}); err == nil || !strings.Contains(err.Error(), "workers: must be at most 1024 game pairs at once") {
		t.Errorf("Run with 100000 workers: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the run directory was made (%v)", err)
	}
	if _, err := GenerateOpenings(context.Background(), engine.MustVariant("chess", nil), OpeningConfig{Plies: 1001}, PlayerSpec{}, GreedyFactory(), 1, 1); err == nil || !strings.Contains(err.Error(), "plies must be 1 to 1000") {
		t.Errorf("GenerateOpenings of 1001 plies: %v", err)
	}
	if _, err := GenerateOpenings(context.Background(), engine.MustVariant("chess", nil), OpeningConfig{Plies: 2}, PlayerSpec{}, GreedyFactory(), math.MaxInt, 1); err == nil || !strings.Contains(err.Error(), "want 1 to 1000000 openings") {
		t.Errorf("GenerateOpenings of MaxInt openings: %v", err)
	}
}

// TestParseTCRefusesNonFinite: a clock of NaN, Inf or beyond a day, or a
// NaN or negative increment, is an error naming the part at fault. NaN
// and 1e20 seconds overflowed the duration (the match then ran by nodes)
// and a NaN increment came out negative (every game lost on time).
func TestParseTCRefusesNonFinite(t *testing.T) {
	for _, c := range []struct{ tc, want string }{
		{"NaN+0", "SECONDS must be a number from 0.001 to 86400 (a day), not NaN"},
		{"Inf+0", "SECONDS must be a number from 0.001 to 86400 (a day), not Inf"},
		{"1e20+0", "SECONDS must be a number from 0.001 to 86400 (a day), not 1e20"},
		{"1e400", "SECONDS must be a number from 0.001 to 86400 (a day), not 1e400"},
		{"0+1", "SECONDS must be a number from 0.001"},
		{"10+NaN", "INCREMENT must be a number from 0 to 86400 (a day), not NaN"},
		{"10+-0.5", "INCREMENT must be a number from 0 to 86400 (a day), not -0.5"},
		{"10+1e20", "INCREMENT must be a number from 0 to 86400 (a day), not 1e20"},
		{"ten+1", "want SECONDS+INCREMENT"},
	} {
		if _, _, err := ParseTC(c.tc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseTC(%q): %v, want %q", c.tc, err, c.want)
		}
	}
	for _, c := range []struct {
		tc        string
		base, inc time.Duration
	}{{"10+0.1", 10 * time.Second, 100 * time.Millisecond}, {"86400", 24 * time.Hour, 0}, {"0.001+0", time.Millisecond, 0}} {
		if base, inc, err := ParseTC(c.tc); err != nil || base != c.base || inc != c.inc {
			t.Errorf("ParseTC(%q) = %v, %v, %v", c.tc, base, inc, err)
		}
	}
	e := EngineSpec{Cmd: "sh", MoveTime: 1 << 50}
	if err := e.ValidateOffline(); err == nil || !strings.Contains(err.Error(), "movetime and timeout_ms must be at most 86400000 ms") {
		t.Errorf("movetime 2^50 ms: %v", err)
	}
}

// TestGamesOtherRunKind: the games of a directory of another
// kind of run are refused by what it is, not by the first field of its
// config.yaml, which is not a self-play config.
func TestGamesOtherRunKind(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "pipeline.json", "{}\n")
	writeFile(t, dir, "config.yaml", "name: mine\n")
	var err error
	for _, err = range Games(dir) {
	}
	if err == nil || !strings.Contains(err.Error(), dir+" is a pipeline run directory (pipeline.json), not a self-play or match run (run.json)") {
		t.Errorf("Games of a pipeline directory: %v", err)
	}
}
