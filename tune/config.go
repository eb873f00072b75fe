package tune

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/internal/yamlx"
	"tamerlane/selfplay"
	"tamerlane/tune/choice"
	"tamerlane/tune/texel"
	"tamerlane/variantfile"
)

// Config is the YAML configuration of "tamerlane tune" (all fields
// optional; the zero value gives the defaults).
type Config struct {
	// Variants restricts tuning to these variants (empty: all in the data).
	Variants []string `yaml:"variants"`
	// VariantFiles are variant files (docs/variant-files.md, relative to
	// the config) whose variants the data and Variants may name, besides
	// those the data's run directories recorded.
	VariantFiles []string `yaml:"variant_files,omitempty" json:",omitempty"`
	// MinPly drops positions before this ply (default 0).
	MinPly int `yaml:"min_ply"`
	// KeepInCheck, KeepMates, KeepDuplicates turn the filters off.
	KeepInCheck    bool `yaml:"keep_in_check"`
	KeepMates      bool `yaml:"keep_mates"`
	KeepDuplicates bool `yaml:"keep_duplicates"`
	// Quiet plays out each position's quiescence line (default true).
	Quiet *bool `yaml:"quiet"`
	// Validation is the fraction of games held out (default 0.1).
	Validation *float64 `yaml:"validation"`
	// Seed drives the split and the bootstrap (default 1).
	Seed *uint64 `yaml:"seed"`
	// Lambda blends the search score into the target (default 0).
	Lambda float64 `yaml:"lambda"`
	// PriorSD is the standard deviation in centipawns of a Gaussian prior
	// around the starting table; 0 written in the file fits without a
	// prior. A configuration that sets neither prior_sd nor regularise
	// chooses the prior by the held-out games, as `regularise: {}` does
	// (see Options): a fit without a prior on a few dozen games can push
	// a weight out of range and fail.
	PriorSD float64 `yaml:"prior_sd"`
	// Regularise chooses the prior by the held-out validation error
	// instead: one fit per prior of its grid (see Regularise). Exclusive
	// with prior_sd. It is the default when prior_sd is not set either.
	Regularise *Regularise `yaml:"regularise" json:",omitempty"`
	// MaxIterations bounds L-BFGS (default DefaultMaxIterations).
	MaxIterations int `yaml:"max_iterations"`
	// Bootstrap replicates (default 0: sandwich standard errors).
	Bootstrap int `yaml:"bootstrap"`
	// Free lists name prefixes of the weights to fit, e.g. [material.]
	// (default: all weights).
	Free []string `yaml:"free"`
	// Tables maps a variant to its starting eval table (default: embedded).
	Tables map[string]string `yaml:"tables"`
	// Moves, when present, fits the weights to the moves played in the
	// games (comparison training, package tune/choice) instead of to their
	// results alone; the data must then be self-play run directories.
	Moves *MovesConfig `yaml:"moves" json:",omitempty"`

	src *yamlx.Source // where the config was read from (nil: built in code)
}

// MovesConfig is the moves: section of a tuning configuration (every
// field optional).
type MovesConfig struct {
	// ResultWeight weighs the game-result term against the move-choice
	// term (default choice.DefaultResultWeight).
	ResultWeight *float64 `yaml:"result_weight"`
	// Ridge holds the weights near the starting table, per squared
	// centipawn (default choice.DefaultRidge).
	Ridge *float64 `yaml:"ridge"`
	// Every takes every n-th ply of a game (default DefaultMovesEvery).
	Every int `yaml:"every"`
	// Skip leaves out the first plies after the book (default
	// DefaultMovesSkip).
	Skip *int `yaml:"skip"`
	// Player, "a" or "b", takes only the moves of the stream's first or
	// second player (default: both); Every then counts that player's
	// moves.
	Player string `yaml:"player"`
	// Label, an outside UCI engine with a node, depth or movetime limit,
	// chooses the move to fit in each sampled position instead of the
	// move played (with player: a, the stronger engine's move in the
	// positions our own play reaches).
	Label *selfplay.EngineSpec `yaml:"label"`
}

// options returns the move-choice options with the defaults filled in.
func (m *MovesConfig) options() *MoveOptions {
	if m == nil {
		return nil
	}
	o := &MoveOptions{ResultWeight: choice.DefaultResultWeight, Ridge: choice.DefaultRidge, Every: DefaultMovesEvery, Skip: DefaultMovesSkip}
	if m.ResultWeight != nil {
		o.ResultWeight = *m.ResultWeight
	}
	if m.Ridge != nil {
		o.Ridge = *m.Ridge
	}
	if m.Every != 0 {
		o.Every = m.Every
	}
	if m.Skip != nil {
		o.Skip = *m.Skip
	}
	o.Player = m.Player
	o.Label = m.Label
	return o
}

// Defaults of the tuning configuration.
const (
	// DefaultValidation is the fraction of games held out.
	DefaultValidation = 0.1
	// DefaultSeed drives the split and the bootstrap.
	DefaultSeed = 1
	// DefaultMaxIterations bounds L-BFGS (texel's default).
	DefaultMaxIterations = texel.DefaultMaxIterations
)

// ParseConfig decodes a YAML configuration strictly and validates it;
// errors name the file, the line and the field.
func ParseConfig(data []byte, name string) (*Config, error) {
	return validConfig(yamlx.Parse(data, name))
}

// LoadConfig reads, parses and validates a configuration file; the
// variant files given on the command line (paths relative to the working
// directory) are added to its variant_files.
func LoadConfig(path string, variantFiles ...string) (*Config, error) {
	src, err := yamlx.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := ConfigAt(src, "")
	if err != nil {
		return nil, err
	}
	if err := c.AddVariantFiles(variantFiles...); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// AddVariantFiles adds variant files given on the command line (relative
// to the working directory) to the configuration's variant_files.
func (c *Config) AddVariantFiles(files ...string) error {
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return err
		}
		c.VariantFiles = append(c.VariantFiles, abs)
	}
	return nil
}

// validConfig decodes and validates the file parsed into src; err is the
// error of parsing it.
func validConfig(src *yamlx.Source, err error) (*Config, error) {
	if err != nil {
		return nil, err
	}
	c, err := ConfigAt(src, "")
	if err == nil {
		err = c.Validate()
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// ConfigAt decodes the tuning configuration at path of a file decoded by
// yamlx (the pipeline's tune: section) without validating it.
func ConfigAt(src *yamlx.Source, path string) (c *Config, err error) {
	c = &Config{}
	if c.src, err = src.DecodeAt(path, c); err != nil {
		return nil, err
	}
	return c, nil
}

// Validate checks the configuration: numbers in range, and free prefixes
// that each name at least one weight of the variants tuned (a typo such
// as "materal." would otherwise fit nothing). Every mistake names the
// file, line and field when the configuration came from a file.
func (c *Config) Validate() error {
	var errs []*yamlx.Error
	bad := func(path, format string, a ...any) { errs = append(errs, c.src.ErrAt(path, format, a...)) }
	// The comparisons are written so that NaN fails them: a NaN passed
	// "x < 0 || x >= 1" and failed only after the fit, writing its JSON.
	if c.Validation != nil && !(*c.Validation >= 0 && *c.Validation < 1) {
		bad("validation", "%v is not in [0, 1)", *c.Validation)
	}
	if !(c.Lambda >= 0 && c.Lambda <= 1) {
		bad("lambda", "%v is not in [0, 1]", c.Lambda)
	}
	switch {
	case c.PriorSD < 0:
		bad("prior_sd", "%v is negative", c.PriorSD)
	case !(c.PriorSD >= 0) || math.IsInf(c.PriorSD, 0):
		bad("prior_sd", "%v is not a prior standard deviation in cp (a finite number ≥ 0; 0 means no prior)", c.PriorSD)
	}
	if c.Regularise != nil {
		if c.PriorSD != 0 {
			bad("regularise", "set either prior_sd (a fixed prior) or regularise (a prior chosen by validation), not both")
		}
		if c.Validation != nil && *c.Validation == 0 {
			bad("regularise", "choosing the prior by validation needs held-out games (validation > 0)")
		}
		if r := c.Regularise.Rule; r != "" && r != RuleMin && r != RuleOneSE {
			bad("regularise.rule", "%q is not a rule (want %s or %s)", r, RuleMin, RuleOneSE)
		}
		seen := map[float64]bool{}
		for i, x := range c.Regularise.Grid {
			switch {
			case !(x >= 0) || math.IsInf(x, 0):
				bad(fmt.Sprintf("regularise.grid[%d]", i), "%v is not a prior standard deviation in cp (a number ≥ 0; 0 means no prior)", x)
			case seen[x]:
				bad(fmt.Sprintf("regularise.grid[%d]", i), "%v is repeated", x)
			}
			seen[x] = true
		}
	}
	if m := c.Moves; m != nil {
		if m.ResultWeight != nil && !(*m.ResultWeight >= 0 && !math.IsInf(*m.ResultWeight, 0)) {
			bad("moves.result_weight", "%v is not a weight (a number ≥ 0)", *m.ResultWeight)
		}
		if m.Ridge != nil && !(*m.Ridge >= 0 && !math.IsInf(*m.Ridge, 0)) {
			bad("moves.ridge", "%v is not a penalty (a number ≥ 0)", *m.Ridge)
		}
		if m.Every < 0 {
			bad("moves.every", "must not be negative (got %d)", m.Every)
		}
		if m.Skip != nil && *m.Skip < 0 {
			bad("moves.skip", "must not be negative (got %d)", *m.Skip)
		}
		if m.Player != "" && m.Player != "a" && m.Player != "b" {
			bad("moves.player", "must be a (the first player of each stream) or b (the second), not %q", m.Player)
		}
		if l := m.Label; l != nil {
			if err := l.ValidateOffline(); err != nil {
				bad("moves.label", "%v", err)
			} else if l.TC != "" || l.Nodes == 0 && l.Depth == 0 && l.MoveTime == 0 {
				bad("moves.label", "needs a per-move limit (nodes, depth or movetime), not a clock")
			}
		}
		for _, f := range []struct {
			name, why string
			set       bool
		}{{"prior_sd", "it has its own penalty, moves.ridge", c.PriorSD != 0}, {"regularise", "it has its own penalty, moves.ridge", c.Regularise != nil},
			{"lambda", "its targets are the moves and the results", c.Lambda != 0}, {"bootstrap", "it computes no standard errors", c.Bootstrap != 0},
			{"quiet", "it always resolves each move by the quiescence line", c.Quiet != nil && !*c.Quiet},
			{"keep_in_check", "it leaves out positions in check", c.KeepInCheck}} {
			if f.set {
				bad(f.name, "is not used by the move-choice fit (moves:): %s", f.why)
			}
		}
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"min_ply", c.MinPly}, {"max_iterations", c.MaxIterations}, {"bootstrap", c.Bootstrap}} {
		if f.v < 0 {
			bad(f.name, "must not be negative (got %d)", f.v)
		}
	}
	files := map[string]*engine.Variant{}
	var fileNames []string
	for i, f := range c.VariantFiles {
		v, err := variantfile.Load(c.src.Resolve(f))
		if err != nil {
			bad(fmt.Sprintf("variant_files[%d]", i), "%v", err)
			continue
		}
		files[v.Name] = v
		fileNames = append(fileNames, v.Name)
	}
	variants := c.Variants
	if len(variants) == 0 {
		variants = append(engine.VariantNames(), fileNames...)
	}
	var regs []*eval.Registry
	for i, name := range variants {
		v, ok := files[name]
		if !ok {
			var err error
			if v, err = engine.NewVariant(name, nil); err != nil {
				bad(fmt.Sprintf("variants[%d]", i), "%v", err)
				continue
			}
		}
		regs = append(regs, eval.RegistryOf(v))
	}
	for i, p := range c.Free {
		if !matchesWeight(regs, p) {
			bad(fmt.Sprintf("free[%d]", i), "prefix %q matches no weight of %s (names look like material.P, mobility.N, tempo)", p, strings.Join(variants, ", "))
		}
	}
	return yamlx.Join(errs)
}

// matchesWeight reports whether a weight name of any registry starts with
// prefix.
func matchesWeight(regs []*eval.Registry, prefix string) bool {
	for _, r := range regs {
		for i := 0; i < r.Len(); i++ {
			if strings.HasPrefix(r.Name(i), prefix) {
				return true
			}
		}
	}
	return false
}

// Options turns the configuration into tuning options; quiet is the
// quiescence function used when the configuration asks for quiet positions.
func (c *Config) Options(quiet QuietFunc) Options {
	o := Options{}
	o.Load = LoadOptions{Variants: c.Variants, MinPly: c.MinPly, KeepInCheck: c.KeepInCheck, KeepMates: c.KeepMates,
		KeepDuplicates: c.KeepDuplicates, ValidFraction: DefaultValidation, Seed: DefaultSeed}
	for _, f := range c.VariantFiles {
		o.Load.VariantFiles = append(o.Load.VariantFiles, c.src.Resolve(f))
	}
	if c.Quiet == nil || *c.Quiet {
		o.Load.Quiet = quiet
	}
	if c.Validation != nil {
		o.Load.ValidFraction = *c.Validation
	}
	if c.Seed != nil {
		o.Load.Seed = *c.Seed
	}
	reg, byDefault := c.regularise(o.Load.ValidFraction)
	o.Fit = FitOptions{Lambda: c.Lambda, PriorSD: c.PriorSD, Grid: reg.grid(), Rule: reg.rule(), DefaultGrid: byDefault,
		MaxIterations: c.MaxIterations, Bootstrap: c.Bootstrap, Seed: o.Load.Seed, Free: c.Free}
	if len(c.Tables) > 0 {
		o.Start = c.StartTable
	}
	o.Moves = c.Moves.options()
	return o
}

// regularise returns the regularisation the fit uses and whether it is
// the default one: the configured section, else, when the configuration
// sets no prior (no prior_sd in the file, none in code), holds games out
// (validFraction > 0) and fits results rather than moves, the section
// `regularise: {}` gives (DefaultGrid, RuleOneSE).
func (c *Config) regularise(validFraction float64) (*Regularise, bool) {
	if c.Regularise != nil || c.PriorSD != 0 || c.src.Has("prior_sd") || c.Moves != nil || validFraction <= 0 {
		return c.Regularise, false
	}
	return &Regularise{}, true
}

// StartTable loads a variant's starting table: the one the configuration
// names (relative to the configuration file's directory), else the
// embedded default.
func (c *Config) StartTable(v *engine.Variant) (*eval.Weights, error) {
	p, ok := c.Tables[v.Name]
	if !ok {
		return eval.Default(v)
	}
	return eval.LoadFile(v, c.src.Resolve(p))
}
