package paired

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareOtherRunKind: a pipeline, tuning or measurement directory
// given to Compare is refused by what it is, naming the match runs it
// wants; its config.yaml, of another kind, was reported as "config.yaml:1:
// name: unknown field".
func TestCompareOtherRunKind(t *testing.T) {
	for _, c := range []struct{ marker, config, want string }{
		{"pipeline.json", "name: mine\n", "is a pipeline run directory (pipeline.json), not a match run: give the directories of match runs (run.json"},
		{"tune.json", "", "is a tune run directory (tune.json), not a match run"},
		{"measure.json", "seed: 1\n", "is a measure run directory (measure.json), not a match run"},
	} {
		dir := t.TempDir()
		for name, text := range map[string]string{c.marker: "{}\n", "config.yaml": c.config} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := Compare([]string{dir}, []string{dir})
		if err == nil || !strings.Contains(err.Error(), dir+" "+c.want) || strings.Contains(err.Error(), "unknown field") {
			t.Errorf("%s: %v, want %q", c.marker, err, c.want)
		}
		if c.marker == "pipeline.json" && (err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "gen-NNN", "match", "VARIANT"))) {
			t.Errorf("pipeline: %v does not point to its matches", err)
		}
	}
}
