package tune

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNonFiniteConfigRefused: NaN and Inf in the tuning config's numbers
// are errors naming the line and field at validation. NaN failed none of
// the range checks and surfaced after the fit, when tune.json could not
// be written, with the tables already there.
func TestNonFiniteConfigRefused(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"validation: .nan\n", "t.yaml:1: validation: NaN is not in [0, 1)"},
		{"lambda: .nan\n", "t.yaml:1: lambda: NaN is not in [0, 1]"},
		{"prior_sd: .nan\n", "t.yaml:1: prior_sd: NaN is not a prior standard deviation"},
		{"prior_sd: .inf\n", "t.yaml:1: prior_sd: +Inf is not a prior standard deviation"},
		{"validation: -.inf\n", "t.yaml:1: validation: -Inf is not in [0, 1)"},
	} {
		_, err := ParseConfig([]byte(tc.yaml), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

// TestRunRefusesNonFiniteOptions: Run given options that tune.json cannot
// hold fails before it writes anything.
func TestRunRefusesNonFiniteOptions(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tune")
	var opt Options
	opt.Fit.Lambda = math.NaN()
	if _, err := Run(context.Background(), []string{t.TempDir()}, out, opt); err == nil || !strings.Contains(err.Error(), "options") {
		t.Errorf("Run with lambda NaN: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s was made (%v)", out, err)
	}
}
