package pipeline

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"tamerlane/engine/eval"
	"tamerlane/internal/fsx"
	"tamerlane/internal/yamlx"
	"tamerlane/selfplay"
	"tamerlane/selfplay/elo"
)

// Defaults of a pipeline configuration.
const (
	// DefaultGenerations is the number of generations of a run.
	DefaultGenerations = 1
	// DefaultVerifyPairs caps the pairs of a verification match.
	DefaultVerifyPairs = 100
	// DefaultVerifyElo1 is the SPRT's elo1 when neither bound is given
	// (elo0 is then 0).
	DefaultVerifyElo1 = 10
	// MaxGenerations bounds the generations of a run: each is a
	// directory, a self-play run, a fit and its matches.
	MaxGenerations = 1000
)

// Defaults fills in what the configuration left out: the name (the file's
// base name), generations, the accept rule, the tuned variants (the
// pipeline's), the verification pairs, nodes (self-play's) and SPRT, the
// vs_gen0 pairs (min(DefaultGen0Pairs, verify.pairs)), the anchor's pairs
// and variants, and
// the self-play section's own defaults; relative table and openings paths
// become absolute (relative to the file's directory, else the working
// directory). A field counts as left out when the file did not set it,
// or, for a configuration built in code, when it is zero and zero is not
// meaningful (verify.pairs 0 means no matches there). Parse calls it.
func (c *Config) Defaults() {
	unset := func(path string, zero bool) bool {
		if c.src != nil {
			return !c.src.Has(path)
		}
		return zero
	}
	if c.Name == "" && c.File != "" {
		c.Name = strings.TrimSuffix(filepath.Base(c.File), filepath.Ext(c.File))
	}
	if unset("generations", c.Generations == 0) {
		c.Generations = DefaultGenerations
	}
	if c.Accept == "" {
		c.Accept = AcceptPass
	}
	if c.Selfplay != nil {
		c.Selfplay.Defaults()
		c.nameFileVariants()
	}
	if len(c.Tune.Variants) == 0 && c.Selfplay != nil {
		c.Tune.Variants = c.Variants()
	}
	for v, file := range c.Tables {
		c.Tables[v] = c.resolve(file)
	}
	vf := &c.Verify
	if c.src != nil && !c.src.Has("verify.pairs") {
		vf.Pairs = DefaultVerifyPairs
	}
	if vf.Nodes == 0 && c.Selfplay != nil {
		vf.Nodes = c.Selfplay.Nodes
	}
	s := &vf.SPRT
	if unset("verify.sprt.elo0", s.Elo0 == 0) && unset("verify.sprt.elo1", s.Elo1 == 0) {
		s.Elo0, s.Elo1 = 0, DefaultVerifyElo1
	}
	s.Defaults(func(field string, zero bool) bool { return unset("verify.sprt."+field, zero) })
	vf.OpeningsFile = c.resolve(vf.OpeningsFile)
	if c.src != nil && !c.src.Has("verify.vs_gen0.pairs") {
		vf.VsGen0.Pairs = defaultGen0Pairs(vf.Pairs)
	}
	c.anchorDefaults()
}

// resolve makes a path of the configuration absolute.
func (c *Config) resolve(p string) string { return c.src.Resolve(p) }

// Validate checks the configuration after Defaults: the top-level
// numbers and rule, the self-play section (one stream per variant, no
// tables, matches or shard of its own, then selfplay's own Validate), the
// generation-0 tables (loaded), the tuning section (tune's own Validate,
// its variants among the pipeline's), and the verification (pairs, nodes,
// SPRT, openings file, vs_gen0 pairs, the anchor, each variant's match as
// selfplay would play it).
// Every mistake names the file, line and field when the configuration
// came from a file; all are joined in line order.
func (c *Config) Validate() error {
	var errs []error
	bad := func(path, format string, a ...any) { errs = append(errs, c.src.ErrAt(path, format, a...)) }
	if !validName(c.Name) {
		bad("name", "%q: use letters, digits, '.', '_' and '-' only, not starting with '.'", c.Name)
	}
	if c.Generations < 1 || c.Generations > MaxGenerations {
		bad("generations", "must be at least 1 and at most %d (got %d)", MaxGenerations, c.Generations)
	}
	if c.History < -1 {
		bad("history", "must be -1 (all), 0 or positive (got %d)", c.History)
	}
	switch c.Accept {
	case AcceptPass, AcceptNotWorse, AcceptAlways:
	default:
		bad("accept", "unknown rule %q (want %s, %s or %s)", c.Accept, AcceptPass, AcceptNotWorse, AcceptAlways)
	}
	sp := c.Selfplay
	if sp == nil {
		bad("selfplay", "required: the self-play streams (selfplay.Config syntax)")
		return joinSorted(errs)
	}
	spErrs := len(errs)
	seen := map[string]bool{}
	for i, v := range sp.Variants {
		p := fmt.Sprintf("selfplay.variants[%d]", i)
		if seen[v.Variant] {
			bad(p+".variant", "variant %q is listed twice: the pipeline keeps one table per variant", v.Variant)
		}
		seen[v.Variant] = true
		if v.Table != "" {
			bad(p+".table", "set by the pipeline (the current table); give generation-0 tables in the top-level tables:")
		}
	}
	for i, m := range sp.Imbalances {
		p := fmt.Sprintf("selfplay.imbalances[%d]", i)
		if m.Table != "" {
			bad(p+".table", "set by the pipeline (the current table of the variant)")
		}
		if m.Variant != "" && !seen[m.Variant] {
			bad(p+".variant", "variant %q is not among selfplay.variants: imbalances are played with a pipeline variant's current table", m.Variant)
		}
	}
	if len(sp.Matches) > 0 {
		bad("selfplay.matches", "not allowed: the pipeline's matches are configured in verify:")
	}
	if sp.Shard.Count > 1 || c.src.Has("selfplay.shard") {
		bad("selfplay.shard", "a pipeline cannot be sharded")
	}
	if len(sp.Variants) == 0 {
		bad("selfplay.variants", "required: at least one variant to play and tune")
	}
	if len(errs) == spErrs {
		if err := sp.Validate(); err != nil {
			errs = append(errs, yamlx.Flatten(err)...)
		}
	}

	for _, v := range slices.Sorted(mapKeys(c.Tables)) {
		p := "tables." + v
		if !seen[v] {
			bad(p, "variant %q is not among selfplay.variants", v)
			continue
		}
		ev, err := c.variant(v)
		if err == nil {
			_, err = eval.LoadFile(ev, c.Tables[v])
		}
		if err != nil {
			bad(p, "%v", err)
		}
	}

	t := &c.Tune
	// The tuning knows the variants of the streams' variant files.
	t.VariantFiles = append(t.VariantFiles, c.variantFiles()...)
	if err := t.Validate(); err != nil {
		errs = append(errs, yamlx.Flatten(err)...)
	}
	for i, v := range t.Variants {
		if !seen[v] {
			bad(fmt.Sprintf("tune.variants[%d]", i), "variant %q is not among selfplay.variants", v)
		}
	}
	if len(t.Tables) > 0 {
		bad("tune.tables", "set by the pipeline (tuning starts from the current table); give generation-0 tables in the top-level tables:")
	}

	vf := &c.Verify
	if vf.Pairs < 0 || vf.Pairs > selfplay.MaxPairs {
		bad("verify.pairs", "must not be negative nor more than %d (got %d)", selfplay.MaxPairs, vf.Pairs)
	}
	if vf.Nodes < 0 {
		bad("verify.nodes", "must not be negative (got %d)", vf.Nodes)
	}
	if vf.VsGen0.Pairs < 0 || vf.VsGen0.Pairs > selfplay.MaxPairs {
		bad("verify.vs_gen0.pairs", "must not be negative nor more than %d (got %d; 0: no match against generation 0)", selfplay.MaxPairs, vf.VsGen0.Pairs)
	}
	c.validateAnchor(seen, bad)
	s := vf.SPRT
	if err := (elo.SPRT{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, Model: elo.Model(s.Model)}).Validate(); err != nil {
		bad("verify.sprt", "%s", strings.TrimPrefix(err.Error(), "elo: "))
	}
	if vf.OpeningsFile != "" {
		if err := fsx.CheckRegular(vf.OpeningsFile); err != nil {
			bad("verify.openings_file", "%v", err)
		}
	}
	if len(errs) == 0 && vf.Pairs > 0 {
		// Let selfplay check each variant's match (openings FENs, SPRT).
		for _, v := range sp.Variants {
			spec := c.matchSpec(v, "", "", 1)
			mc := spec.Config()
			if err := mc.Validate(); err != nil {
				errs = append(errs, remapMatch(c.src, err))
				break
			}
		}
	}
	return joinSorted(errs)
}

// joinSorted joins errors in line order (nil when there are none).
func joinSorted(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	sortErrors(errs)
	return errors.Join(errs...)
}

// validName reports whether s can name a directory: letters, digits,
// '.', '_' and '-', not starting with '.'.
func validName(s string) bool {
	if s == "" || s[0] == '.' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
