package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/eval"
)

// checkApplied checks a table Apply wrote to path from run dir: the run's
// current weights, and a provenance that names the run, its directory,
// config hash and date, the generation and the verification result.
func checkApplied(t *testing.T, dir, path string, a Applied) {
	t.Helper()
	v := engine.MustVariant(a.Variant, nil)
	got, err := eval.LoadFile(v, path)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := eval.LoadFile(v, filepath.Join(dir, TablesDir, a.Variant+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := eval.Diff(cur, got); len(d) != 0 {
		t.Fatalf("the destination's weights differ from the run's current table: %v", d)
	}
	gen0, err := eval.LoadFile(v, filepath.Join(GenDir(dir, 0), TablesDir, a.Variant+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := eval.Diff(gen0, got); len(d) == 0 {
		t.Fatal("the destination still holds the generation-0 weights")
	}
	info, err := ReadInfo(dir)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	p := got.Provenance
	if p.Source != "texel tuning" || p.Run != info.Name+"/gen-001" || p.Date == "" || p != a.Provenance {
		t.Errorf("provenance %+v (reported %+v)", p, a.Provenance)
	}
	for _, want := range []string{"Fitted by tamerlane tune", `pipeline run "` + info.Name + `"`, "directory " + abs, "config hash " + info.ConfigHash,
		"created " + info.Created, "generation 1.", "Verification against the previous table:", "Elo ", "SPRT nElo [-10, 10] LLR "} {
		if !strings.Contains(p.Notes, want) {
			t.Errorf("provenance notes lack %q:\n%s", want, p.Notes)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "config hash "+info.ConfigHash) {
		t.Errorf("the file does not carry the provenance note (%v)", err)
	}
}
