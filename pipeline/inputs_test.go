package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHugeCountsRefused: a pipeline config with more pairs or
// generations than can be meant is refused naming each line and field,
// and Run given too many workers fails before it makes the directory
// (run created it, then hung building 99999999999999 pairs).
func TestHugeCountsRefused(t *testing.T) {
	text := fmt.Sprintf(tinyConfig, 1000000, "always")
	text = strings.Replace(text, "pairs: 3}", "pairs: 99999999999999}", 1)
	text = strings.Replace(text, "  pairs: 4\n", "  pairs: 99999999999999\n  vs_gen0: {pairs: 1000001}\n", 1)
	p := writeConfig(t, text)
	_, err := Load(p)
	for _, want := range []string{
		p + ":3: generations: must be at least 1 and at most 1000 (got 1000000)",
		p + ":12: selfplay.variants[0].pairs: must be at most 1000000 (got 99999999999999)",
		p + ":17: verify.pairs: must not be negative nor more than 1000000 (got 99999999999999)",
		p + ":18: verify.vs_gen0.pairs: must not be negative nor more than 1000000 (got 1000001; 0: no match against generation 0)",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant it to contain %q", err, want)
		}
	}
	cfg := loadConfig(t, fmt.Sprintf(tinyConfig, 1, "always"))
	dir := filepath.Join(t.TempDir(), "run")
	opts := testOptions(true)
	opts.Workers = 100000
	if _, err := Run(context.Background(), cfg, dir, opts); err == nil || !strings.Contains(err.Error(), "workers: must be at most 1024 game pairs at once") {
		t.Errorf("Run with 100000 workers: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the run directory was made (%v)", err)
	}
}
