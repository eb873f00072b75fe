package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"tamerlane/selfplay"
)

// TestDefaults checks what Defaults fills in for a file that leaves
// everything out, and that it keeps what the file sets, zeros included.
func TestDefaults(t *testing.T) {
	minimal := "selfplay:\n  nodes: 321\n  variants: [{variant: chess, pairs: 2}]\n"
	c := loadConfig(t, minimal)
	if c.Name != "tiny" || c.Generations != DefaultGenerations || c.Accept != AcceptPass || c.History != 0 {
		t.Errorf("top level: name %q, generations %d, accept %q, history %d", c.Name, c.Generations, c.Accept, c.History)
	}
	if !slices.Equal(c.Tune.Variants, []string{"chess"}) {
		t.Errorf("tune.variants %v, want the pipeline's", c.Tune.Variants)
	}
	want := VerifyConfig{Pairs: DefaultVerifyPairs, Nodes: 321,
		SPRT:   selfplay.SPRTConfig{Elo0: 0, Elo1: DefaultVerifyElo1, Alpha: selfplay.DefaultSPRTError, Beta: selfplay.DefaultSPRTError, Model: "normalized"},
		VsGen0: Gen0Config{Pairs: DefaultGen0Pairs}}
	if c.Verify != want {
		t.Errorf("verify %+v, want %+v", c.Verify, want)
	}
	// Set values stay, zeros included; elo0 alone does not bring elo1 10.
	c = loadConfig(t, minimal+"generations: 3\naccept: always\nverify: {pairs: 0, nodes: 50, sprt: {elo0: -5, alpha: 0.1}}\n")
	want = VerifyConfig{Pairs: 0, Nodes: 50,
		SPRT: selfplay.SPRTConfig{Elo0: -5, Elo1: 0, Alpha: 0.1, Beta: selfplay.DefaultSPRTError, Model: "normalized"}}
	if c.Generations != 3 || c.Accept != AcceptAlways || c.Verify != want {
		t.Errorf("set values: generations %d, accept %q, verify %+v, want %+v", c.Generations, c.Accept, c.Verify, want)
	}
}

// TestDefaultsAndValidateInCode checks a configuration built in code:
// Defaults fills in the zeros, Validate passes it, and Validate alone
// catches a mistake made after parsing, with the field's line.
func TestDefaultsAndValidateInCode(t *testing.T) {
	sp := selfplay.DefaultConfig()
	sp.Variants = []selfplay.VariantConfig{{Variant: "chess", Pairs: 2}}
	c := &Config{Name: "code", Selfplay: sp}
	c.Defaults()
	if c.Generations != DefaultGenerations || c.Accept != AcceptPass || c.Verify.Pairs != 0 || c.Verify.SPRT.Elo1 != DefaultVerifyElo1 {
		t.Errorf("defaults in code: %+v", c)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("valid config in code: %v", err)
	}
	empty := &Config{Name: "empty"}
	empty.Defaults()
	if err := empty.Validate(); err == nil || !strings.Contains(err.Error(), "selfplay: required") {
		t.Errorf("no selfplay: %v", err)
	}

	path := writeConfig(t, fmt.Sprintf(tinyConfig, 2, "pass"))
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p.Generations, p.History, p.Accept = 0, -2, "never" // history is not in the file: no line
	err = p.Validate()
	for _, w := range []string{path + ":3: generations: must be at least 1", path + ": history: must be -1", path + ":4: accept: unknown rule"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Validate after edits: %v, want %q", err, w)
		}
	}
}
