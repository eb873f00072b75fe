package values

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/selfplay"
	"tamerlane/variantfile"
)

// TestRunRecordsBuild: a measurement records the build that plays it
// once however often it resumes, and the path of its config.
func TestRunRecordsBuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	cfgPath := runTinyFile(t, dir)
	runTinyFile(t, dir) // resumes: nothing left to play, the same build
	builds, err := ReadBuilds(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(builds) != 1 || builds[0].Go == "" || len(builds[0].Executable) != 64 || builds[0].Recorded == "" {
		t.Fatalf("builds %+v, want the test binary's, once", builds)
	}
	if name := builds[0].Name(); !strings.HasPrefix(name, "executable sha256:") && name != builds[0].Revision {
		t.Errorf("build name %q", name)
	}
	var ri runInfo
	b, _ := os.ReadFile(filepath.Join(dir, "measure.json"))
	if err := json.Unmarshal(b, &ri); err != nil || ri.ConfigFile != cfgPath {
		t.Errorf("measure.json %s: config_file %q, want %q", b, ri.ConfigFile, cfgPath)
	}
	// Another build resuming the run adds its own record.
	other := Build{Revision: "abc", Go: "go1", Recorded: "2999-01-01T00:00:00Z"}
	if err := os.WriteFile(filepath.Join(dir, BuildsDir, other.buildFile()), []byte(`{"revision":"abc","go":"go1","recorded":"2999-01-01T00:00:00Z"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if builds, _ := ReadBuilds(dir); len(builds) != 2 || builds[1].Name() != "abc" {
		t.Errorf("builds %+v, want the recorded one, then abc", builds)
	}
	if got := (Build{Revision: "abc", Modified: true}).Name(); got != "abc+modified" {
		t.Errorf("a modified tree's build is named %q", got)
	}
}

// runTinyFile plays the tiny measurement from a config file (so that the
// run records its path) into dir and returns the config's path.
func runTinyFile(t *testing.T, dir string) string {
	t.Helper()
	cfgPath := filepath.Join(t.TempDir(), "tiny.yaml")
	if err := os.WriteFile(cfgPath, []byte(tinyMeasure), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(cfgPath, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), cfg, dir, RunOptions{Workers: 2, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	return cfgPath
}

// TestResumedOldRunBuilds: a run played before runs recorded their
// builds and resumed by a build that records them names the unrecorded
// one first; its atlas needs the first build named and then names both.
func TestResumedOldRunBuilds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	cfgPath := runTinyFile(t, dir)
	os.RemoveAll(filepath.Join(dir, BuildsDir))
	runTinyFile(t, dir) // resumed by this build
	builds, err := ReadBuilds(dir)
	if err != nil || len(builds) != 2 || !builds[0].Unrecorded || builds[1].Unrecorded || builds[0].Name() != "unrecorded build" {
		t.Fatalf("builds %+v (%v), want the unrecorded one, then this", builds, err)
	}
	if _, err := ReadRunProvenance(dir, cfgPath, ""); err == nil || !strings.Contains(err.Error(), "name the build that played first") {
		t.Errorf("no build named: %v", err)
	}
	p, err := ReadRunProvenance(dir, cfgPath, "4f9d8fb")
	if err != nil || p.Engine != "4f9d8fb, "+builds[1].Name() {
		t.Errorf("engine %q (%v), want the named build, then this one", p.Engine, err)
	}
}

// TestRecordBuildUnrecorded: a run directory with a variant's games and no
// build recorded gets an unrecorded entry first; one that holds only the
// copies of its variant files (written before the first build is
// recorded) has played nothing and gets none.
func TestRecordBuildUnrecorded(t *testing.T) {
	for _, c := range []struct {
		sub        string
		unrecorded bool
	}{{variantfile.RecordDir, false}, {"chess", true}} {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, c.sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := recordBuild(dir); err != nil {
			t.Fatal(err)
		}
		builds, err := ReadBuilds(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(builds) > 0 && builds[0].Unrecorded; got != c.unrecorded {
			t.Errorf("with %s/: unrecorded first %v, want %v (%+v)", c.sub, got, c.unrecorded, builds)
		}
	}
}
