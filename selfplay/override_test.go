package selfplay

import (
	"os"
	"path/filepath"
	"testing"
)

// TestApplyOverrides checks the command-line overrides: limits, every
// stream's pairs and rules, and a table relative to the working directory
// for self-play and imbalance streams but not matches.
func TestApplyOverrides(t *testing.T) {
	cfg := loadTestConfig(t, testConfig+"matches:\n  - {variant: chess, a: '', b: '', pairs: 2}\n")
	nodes, pairs, rules, table := int64(77), 5, "", "t.yaml"
	if err := cfg.Apply(Overrides{Nodes: &nodes, Pairs: &pairs, Rules: &rules, Table: &table}); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	abs := filepath.Join(wd, "t.yaml")
	if cfg.Nodes != 77 || cfg.Depth != 0 {
		t.Errorf("limits %d/%d", cfg.Nodes, cfg.Depth)
	}
	for _, v := range cfg.Variants {
		if v.Pairs != 5 || v.Table != abs {
			t.Errorf("variant %+v", v)
		}
	}
	for _, m := range cfg.Imbalances {
		if m.Pairs != 5 || m.Table != abs {
			t.Errorf("imbalance %+v", m)
		}
	}
	if m := cfg.Matches[0]; m.Pairs != 5 || m.A != "" || m.B != "" {
		t.Errorf("match %+v", m)
	}
	depth := 3
	if err := cfg.Apply(Overrides{Depth: &depth}); err != nil || cfg.Nodes != 0 || cfg.Depth != 3 {
		t.Errorf("depth only: %d/%d %v", cfg.Nodes, cfg.Depth, err)
	}
}
