package tune

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDatasetSourcesOfAMeasurement checks that a piece-value measurement
// directory stands for its regression self-play runs.
func TestDatasetSourcesOfAMeasurement(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("measure.json", "{}")
	if _, err := datasetSources([]string{dir}); err == nil || !strings.Contains(err.Error(), "no self-play run") {
		t.Fatalf("measurement without self-play: error %v, want one saying so", err)
	}
	write("shatranj/selfplay/shatranj/positions.jsonl", "")
	write("chess/selfplay/chess/positions.jsonl", "")
	write("chess/imbalance/round-000/chess/positions.jsonl", "")
	got, err := datasetSources([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, s := range got {
		rel, _ := filepath.Rel(dir, s.path)
		paths = append(paths, rel)
	}
	want := "chess/selfplay/chess/positions.jsonl shatranj/selfplay/shatranj/positions.jsonl"
	if strings.Join(paths, " ") != want {
		t.Errorf("sources %v, want %s", paths, want)
	}
}
