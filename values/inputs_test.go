package values

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHugeCountsRefused: a measurement's workers and pairs beyond what
// can be meant are config errors naming the field, and Run given too many
// workers fails before it makes the measurement directory.
func TestHugeCountsRefused(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"workers: 100000\nvariants:\n  - {variant: chess, pairs: 2}\n", "x.yaml:1: workers: must be at most 1024 game pairs at once (got 100000)"},
		{"variants:\n  - {variant: chess, pairs: 99999999999999}\n", "x.yaml:2: variants[0].pairs: must not be negative nor more than 1000000 (got 99999999999999)"},
		{"variants:\n  - {variant: chess, imbalance: {pieces: [N], max_pairs: 99999999999999}}\n", "max_pairs and check_pairs must not be more than 1000000"},
	} {
		_, err := ParseConfig([]byte(c.text), "x.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	cfg, err := ParseConfig([]byte("variants:\n  - {variant: chess, pairs: 2}\n"), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "m")
	if err := Run(context.Background(), cfg, dir, RunOptions{Workers: 100000}); err == nil || !strings.Contains(err.Error(), "workers: must be at most 1024 game pairs at once") {
		t.Errorf("Run with 100000 workers: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the measurement directory was made (%v)", err)
	}
}

// TestNonFiniteConfigRefused: NaN and Inf in a measurement's numbers are
// errors naming the field.
func TestNonFiniteConfigRefused(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"regression: {scored_max_pawns: .nan}\nvariants:\n  - {variant: chess, pairs: 2}\n", "x.yaml:1: regression.scored_max_pawns: NaN is not a number of pawns"},
		{"regression: {scored_max_pawns: .inf}\nvariants:\n  - {variant: chess, pairs: 2}\n", "x.yaml:1: regression.scored_max_pawns: +Inf is not a number of pawns"},
		{"variants:\n  - {variant: chess, imbalance: {pieces: [N], start: {N: .inf}}}\n", "variants[0].imbalance.start.N: want a positive estimate"},
		{"variants:\n  - {variant: chess, imbalance: {pieces: [N], half_width: .nan}}\n", "half_width NaN is not a finite number ≥ 0"},
	} {
		_, err := ParseConfig([]byte(c.text), "x.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}
