package selfplay

import (
	"fmt"
	"strings"

	"tamerlane/engine"
	"tamerlane/engine/search"
	"tamerlane/internal/fsx"
	"tamerlane/internal/yamlx"
	"tamerlane/variantfile"
)

// Bounds of a configuration's counts, far above any run the project
// makes (its longest streams play a few thousand pairs) and low enough
// that planning a run takes no time and no memory to speak of: a count
// beyond them is a mistake, refused by name before anything is played
// or written.
const (
	// MaxPairs bounds the game pairs of one stream.
	MaxPairs = 1_000_000
	// MaxWorkers bounds the game pairs played at once. Each holds two
	// players, each with its own hash table (tt_mib).
	MaxWorkers = 1024
	// MaxWalkPlies bounds an opening's random walk (openings.plies).
	MaxWalkPlies = 1000
	// MaxAttempts bounds the walks tried for one opening
	// (openings.attempts).
	MaxAttempts = 100_000
)

// CheckWorkers checks a number of game pairs to play at once (0: one per
// CPU) against 0..MaxWorkers.
func CheckWorkers(n int) error {
	switch {
	case n < 0:
		return fmt.Errorf("must not be negative (got %d; 0: one per CPU)", n)
	case n > MaxWorkers:
		return fmt.Errorf("must be at most %d game pairs at once (got %d)", MaxWorkers, n)
	}
	return nil
}

// CheckPairs checks a stream's number of game pairs against 1..MaxPairs.
func CheckPairs(n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("must be positive (got %d)", n)
	case n > MaxPairs:
		return fmt.Errorf("must be at most %d (got %d)", MaxPairs, n)
	}
	return nil
}

// Validate fills in defaults, resolves relative paths and checks the
// configuration: numbers in range, known variants and rule options,
// existing table and opening files with valid FENs, removable imbalance
// pieces, unique stream names, a valid SPRT, outside engines whose
// commands exist. All mistakes are reported together, each naming file,
// line and field.
func (c *Config) Validate() error { return c.validate(true) }

// ValidateOffline checks the configuration as Validate does except
// whether the outside engines' commands exist on this machine: for
// reading the files of a run they played, and for checking a config
// written for another machine.
func (c *Config) ValidateOffline() error { return c.validate(false) }

func (c *Config) validate(lookPath bool) error {
	c.Defaults()
	var errs []*ConfigError
	bad := func(path, format string, a ...any) { errs = append(errs, c.errAt(path, format, a...)) }
	nonNeg := func(path string, v int64) {
		if v < 0 {
			bad(path, "must not be negative (got %d)", v)
		}
	}
	if err := CheckWorkers(c.Workers); err != nil {
		bad("workers", "%v", err)
	}
	nonNeg("nodes", c.Nodes)
	nonNeg("depth", int64(c.Depth))
	if c.Nodes == 0 && c.Depth == 0 {
		bad("nodes", "set a node limit (nodes) or a depth limit (depth): time limits are not reproducible")
	}
	if !(c.NodesJitter >= 0 && c.NodesJitter < 1) {
		bad("nodes_jitter", "must be in [0, 1) (got %v)", c.NodesJitter)
	}
	if search.ValidateHashMiB(c.TTMiB) != nil {
		bad("tt_mib", "must be at least 1 and at most %d (MiB per searcher; got %d)", search.MaxHashMiB, c.TTMiB)
	}
	if c.MaxPlies < 1 {
		bad("max_plies", "must be at least 1 (got %d)", c.MaxPlies)
	}
	if c.Openings.Plies < 0 || c.Openings.Plies > MaxWalkPlies {
		bad("openings.plies", "must be 0 (no walk) to %d (got %d)", MaxWalkPlies, c.Openings.Plies)
	}
	nonNeg("openings.max_score", int64(c.Openings.MaxScore))
	if c.Openings.ScoreNodes < 1 {
		bad("openings.score_nodes", "must be at least 1 (got %d)", c.Openings.ScoreNodes)
	}
	if c.Openings.Attempts < 1 || c.Openings.Attempts > MaxAttempts {
		bad("openings.attempts", "must be 1 to %d (got %d)", MaxAttempts, c.Openings.Attempts)
	}
	c.Adjudication.Check(func(field, format string, a ...any) { bad("adjudication."+field, format, a...) })
	nonNeg("dataset.positions_per_game", int64(c.Dataset.PositionsPerGame))
	nonNeg("dataset.skip_plies", int64(c.Dataset.SkipPlies))
	if c.Shard.Count < 0 || c.Shard.Count > 0 && (c.Shard.Index < 0 || c.Shard.Index >= c.Shard.Count) {
		bad("shard", "want 0 <= index < count (got %d/%d)", c.Shard.Index, c.Shard.Count)
	}

	names := map[string]string{} // directory name -> field path
	claim := func(path, name string) {
		if name == "" {
			return
		}
		d := streamDir(name)
		if prev, dup := names[d]; dup {
			bad(path, "stream name %q is used twice (also by %s)", name, prev)
			return
		}
		names[d] = path
	}
	pairs := func(path string, n int) {
		if err := CheckPairs(n); err != nil {
			bad(path+".pairs", "%v", err)
		}
	}
	file := func(path string, p *string) {
		if *p == "" {
			return
		}
		*p = c.resolve(*p)
		// Refuse a directory, a named pipe or a device now, by name.
		if err := fsx.CheckRegular(*p); err != nil {
			bad(path, "%v", err)
		}
	}
	// variant builds a stream's variant: from its variant file (whose
	// variant then names the stream's variant), or the built-in name
	// under the rule options.
	variant := func(path string, name *string, rules string, vfile *string) *engine.Variant {
		if *vfile != "" {
			before := len(errs)
			file(path+".variant_file", vfile)
			if len(errs) > before {
				return nil
			}
			v, err := variantfile.Resolve(*name, rules, *vfile)
			if err != nil {
				bad(path+".variant_file", "%v", err)
				return nil
			}
			*name = v.Name
			return v
		}
		if *name == "" {
			bad(path+".variant", "required (one of %s), or a variant_file", strings.Join(engine.VariantNames(), ", "))
			return nil
		}
		known := false
		for _, n := range engine.VariantNames() {
			known = known || n == *name
		}
		if !known {
			bad(path+".variant", "unknown variant %q (known: %s; or give a variant_file)", *name, strings.Join(engine.VariantNames(), ", "))
			return nil
		}
		opts, err := engine.ParseOptions(rules)
		if err != nil {
			bad(path+".rules", "%v", err)
			return nil
		}
		v, err := engine.NewVariant(*name, opts)
		if err != nil {
			bad(path+".rules", "%v", err)
			return nil
		}
		return v
	}
	openings := func(path string, v *engine.Variant, p *string) {
		if *p == "" {
			return
		}
		before := len(errs)
		file(path, p)
		if len(errs) > before || v == nil {
			return
		}
		if _, err := ReadFENs(v, *p); err != nil {
			bad(path, "%v", err)
		}
	}
	// stream checks what every stream has: a variant under its rules and
	// a positive number of pairs; it returns the stream's path.
	stream := func(list string, i int, name *string, rules string, vfile *string, n int) (string, *engine.Variant) {
		path := fmt.Sprintf("%s[%d]", list, i)
		pairs(path, n)
		return path, variant(path, name, rules, vfile)
	}
	for i := range c.Variants {
		e := &c.Variants[i]
		path, v := stream("variants", i, &e.Variant, e.Rules, &e.VariantFile, e.Pairs)
		file(path+".table", &e.Table)
		openings(path+".openings_file", v, &e.OpeningsFile)
		name := e.Name
		if name == "" {
			name = e.Variant
		}
		claim(path, name)
	}
	for i := range c.Imbalances {
		e := &c.Imbalances[i]
		path, v := stream("imbalances", i, &e.Variant, e.Rules, &e.VariantFile, e.Pairs)
		if e.Name == "" {
			bad(path+".name", "required")
		}
		file(path+".table", &e.Table)
		for _, es := range []struct {
			field string
			spec  *EngineSpec
		}{{"engine", e.Engine}, {"first_engine", e.FirstEngine}, {"second_engine", e.SecondEngine}} {
			if err := es.spec.check(lookPath); err != nil {
				bad(path+"."+es.field, "%v", err)
			}
		}
		if len(e.FirstRemoves) == 0 && len(e.SecondRemoves) == 0 {
			bad(path, "first_removes and second_removes are both empty")
		}
		switch {
		case e.OpeningsOffset < 0:
			bad(path+".openings_offset", "must not be negative")
		case e.OpeningsOffset > 0 && e.OpeningsFile == "":
			bad(path+".openings_offset", "shifts the positions of an openings_file, but none is given")
		}
		switch before := len(errs); {
		case e.OpeningsFile != "":
			// The pieces are removed from the file's positions, not the array.
			file(path+".openings_file", &e.OpeningsFile)
			if len(errs) == before && v != nil {
				if _, err := imbalanceOpenings(v, e.OpeningsFile, e.FirstRemoves, e.SecondRemoves); err != nil {
					bad(path+".openings_file", "%v", err)
				}
			}
		case v != nil:
			for g := 0; g < 2; g++ {
				if _, err := imbalanceFEN(v, nil, e.FirstRemoves, e.SecondRemoves, g == 1); err != nil {
					bad(path+"."+err.field, "%v", err.err)
					break
				}
			}
		}
		claim(path, e.Name)
	}
	for i := range c.Matches {
		e := &c.Matches[i]
		path, v := stream("matches", i, &e.Variant, e.Rules, &e.VariantFile, e.Pairs)
		file(path+".a", &e.A)
		file(path+".b", &e.B)
		if err := e.EngineA.check(lookPath); err != nil {
			bad(path+".a_engine", "%v", err)
		}
		if err := e.EngineB.check(lookPath); err != nil {
			bad(path+".b_engine", "%v", err)
		}
		openings(path+".openings_file", v, &e.OpeningsFile)
		if e.SPRT != nil {
			s := e.SPRT.sprt()
			if err := s.Validate(); err != nil {
				bad(path+".sprt", "%v", strings.TrimPrefix(err.Error(), "elo: "))
			}
			if c.Shard.Count > 1 {
				bad(path+".sprt", "an SPRT cannot be sharded: it decides on the pairs in order")
			}
		}
		claim(path, e.name())
	}
	if len(c.Variants)+len(c.Imbalances)+len(c.Matches) == 0 {
		bad("variants", "nothing to play: no variants, imbalances or matches")
	}
	return yamlx.Join(errs)
}
