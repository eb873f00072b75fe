package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newRunner is a runner on dir for claim tests (no games are played).
func newRunner(cfg *Config, dir string) *runner {
	return &runner{cfg: cfg, dir: dir, opts: Options{Now: fixedNow}, drawn: map[string]string{}}
}

// TestConfigRefreshedOnExtend checks that config.yaml follows the running
// configuration when generations are extended.
func TestConfigRefreshedOnExtend(t *testing.T) {
	dir := t.TempDir()
	one := loadConfig(t, fmt.Sprintf(tinyConfig, 1, "always"))
	if err := newRunner(one, dir).claim(); err != nil {
		t.Fatal(err)
	}
	two := loadConfig(t, fmt.Sprintf(tinyConfig, 2, "always"))
	if err := newRunner(two, dir).claim(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ConfigName))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "generations: 2") {
		t.Errorf("config.yaml is stale after extending to 2 generations:\n%s", b)
	}
}

// TestReclaimUnstartedRun checks that a run directory whose first run
// failed before any work accepts a corrected configuration, and that one
// with a finished step does not.
func TestReclaimUnstartedRun(t *testing.T) {
	dir := t.TempDir()
	first := loadConfig(t, fmt.Sprintf(tinyConfig, 1, "always"))
	if err := newRunner(first, dir).claim(); err != nil {
		t.Fatal(err)
	}
	fixed := loadConfig(t, strings.Replace(fmt.Sprintf(tinyConfig, 1, "always"), "nodes: 150", "nodes: 160", 1))
	if err := newRunner(fixed, dir).claim(); err != nil {
		t.Fatalf("corrected rerun refused: %v", err)
	}
	info, err := ReadInfo(dir)
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := fixed.Hash(); info.ConfigHash != h || info.Kind != "pipeline" {
		t.Errorf("pipeline.json %+v, want the corrected hash and kind pipeline", info)
	}
	os.MkdirAll(GenDir(dir, 1), 0o755)
	os.WriteFile(filepath.Join(GenDir(dir, 1), StepsName), []byte(`{"generation": 1, "steps": [{"step": "selfplay"}]}`), 0o644)
	err = newRunner(first, dir).claim()
	if err == nil || !strings.Contains(err.Error(), "another configuration") {
		t.Errorf("started run accepted another configuration: %v", err)
	}
}

// TestFreeTypoRefused checks that a free prefix matching no weight is an
// error naming the line and field (`free: [materal.]` would fit nothing
// and verify a table against itself).
func TestFreeTypoRefused(t *testing.T) {
	text := strings.Replace(fmt.Sprintf(tinyConfig, 1, "always"), "free: [material.]", "free: [materal.]", 1)
	p := writeConfig(t, text)
	_, err := Load(p)
	if err == nil || !strings.Contains(err.Error(), p+":14: tune.free[0]: prefix \"materal.\" matches no weight") {
		t.Fatalf("err = %v", err)
	}
}
