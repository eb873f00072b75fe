package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"tamerlane/data"
	"tamerlane/internal/fsx"
	"tamerlane/internal/yamlx"
	"tamerlane/selfplay"
	"tamerlane/tune"
	"tamerlane/variantfile"
)

// Accept rules: when a generation's table replaces the current one.
const (
	// AcceptPass accepts only when the SPRT accepted H1 (the new table is
	// better by at least elo1, at the test's error rates).
	AcceptPass = "pass"
	// AcceptNotWorse accepts unless the SPRT accepted H0: a match that
	// reached its pair cap undecided counts as not worse.
	AcceptNotWorse = "not-worse"
	// AcceptAlways accepts every generation's table (the match is still
	// played, when verify.pairs > 0, and reported).
	AcceptAlways = "always"
)

// Config is a pipeline configuration. It is read from YAML by Load or
// Parse (strictly: unknown fields, wrong types and semantic mistakes are
// errors naming the file, the line and the field) and validated there.
//
//	name: default            # names the run (default: the file's base name)
//	generations: 2           # self-play -> tune -> export -> verify -> accept, G times
//	history: 0               # previous generations whose self-play data are tuned on too (-1: all)
//	accept: pass             # pass | not-worse | always
//	tables: {chess: t.yaml}  # generation-0 tables (default: the embedded ones)
//	selfplay:                # selfplay.Config syntax, without tables and matches
//	  nodes: 1500
//	  variants: [{variant: chess, pairs: 40}]
//	tune:                    # tune.Config syntax, without tables
//	  free: [material.]
//	  prior_sd: 40
//	verify:                  # match new (A) against current (B) per variant
//	  pairs: 60              # pair cap (0: no match)
//	  nodes: 1500            # default: selfplay.nodes
//	  sprt: {elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05}
//	  vs_gen0: {pairs: 40}   # measured Elo against generation 0 (default min(50, pairs); 0: off)
//	  anchor:                # optional: the current tables against an outside engine
//	    engine: {cmd: fairy-stockfish, options: {Hash: "16"}, nodes: 20000}
//	    variants: [chess, shako]
//	    pairs: 50
type Config struct {
	// Name names the run: the default output directory runs/<name> and
	// the tuned tables' provenance.
	Name string
	// Generations is the number of generations (default 1). It is not
	// part of the configuration hash: raising it continues a run.
	Generations int
	// History is the number of previous generations whose self-play data
	// are added to a generation's own for tuning (0: none; -1: all).
	History int
	// Accept is the accept rule: AcceptPass (default), AcceptNotWorse or
	// AcceptAlways.
	Accept string
	// Tables maps a variant to its generation-0 table (absolute paths;
	// variants not listed start from the embedded default).
	Tables map[string]string
	// Selfplay is the validated self-play configuration; the pipeline sets
	// every stream's table to the current table and the seed of
	// generation g to Seed+g-1.
	Selfplay *selfplay.Config
	// Tune is the tuning configuration (its variants default to the
	// pipeline's).
	Tune tune.Config
	// Verify configures the verification matches.
	Verify VerifyConfig
	// File is the configuration's file name as given (for errors and the
	// report).
	File string

	source []byte
	src    *yamlx.Source // where the config was read from (nil: built in code)
}

// VerifyConfig configures the verification match of every variant: the
// generation's new table (A) against the current table (B) at the same
// node budget, game pairs from shared openings, stopped by the SPRT
// (pentanomial, normalized Elo by default, as fastchess).
type VerifyConfig struct {
	// Pairs caps the pairs per variant (default 100; 0: no matches, and
	// then only accept: always accepts).
	Pairs int `yaml:"pairs"`
	// Nodes is both players' node limit per move (default: selfplay.nodes).
	Nodes int64 `yaml:"nodes"`
	// SPRT is the test (default elo0 0, elo1 10, alpha = beta = 0.05,
	// model normalized).
	SPRT selfplay.SPRTConfig `yaml:"sprt"`
	// OpeningsFile is a file of start FENs (default: the variant's
	// self-play openings_file, else random walks as in self-play).
	OpeningsFile string `yaml:"openings_file"`
	// VsGen0 configures the measured Elo against generation 0 (see
	// Gen0Config). It is hashed only when it differs from its default,
	// so that runs begun before it existed keep their hash.
	VsGen0 Gen0Config `yaml:"vs_gen0" json:"-"`
	// Anchor, if set, plays the current tables against an outside
	// engine after every generation (see AnchorConfig).
	Anchor *AnchorConfig `yaml:"anchor,omitempty" json:"-"`
}

// Gen0Config configures the match, in every generation that changed a
// variant's table, of the new current table (A) against the
// generation-0 table (B): a fixed number of pairs (no SPRT, so that the
// Elo estimate is not biased by an early stop) at verify.nodes, with the
// verification's openings. When the generation's verification match was
// already played against the generation-0 table (no earlier generation
// accepted a table) it is reused instead.
type Gen0Config struct {
	// Pairs is the number of game pairs (default: verify.pairs capped
	// at DefaultGen0Pairs; 0: no match, in code as well).
	Pairs int `yaml:"pairs" json:"pairs"`
}

// AnchorConfig is an outside anchor: after each generation's accept
// step the current tables (A) play an outside UCI engine (B) for a fixed
// number of pairs, on variants the engine knows (Fairy-Stockfish: chess,
// shatranj, shako), our side at verify.nodes and the engine at its own
// limit (else verify.nodes). An engine's crash, illegal move or time
// loss loses that game (recorded as its Termination), never the run.
type AnchorConfig struct {
	// Engine is the outside engine (selfplay.EngineSpec syntax: cmd,
	// args, options, nodes | depth | movetime | tc).
	Engine *selfplay.EngineSpec `yaml:"engine" json:"engine"`
	// Variants are the variants played (default: the pipeline's).
	Variants []string `yaml:"variants" json:"variants"`
	// Pairs is the number of game pairs per variant (default
	// DefaultAnchorPairs).
	Pairs int `yaml:"pairs" json:"pairs"`
}

// fileConfig is the YAML document.
type fileConfig struct {
	Name        string            `yaml:"name"`
	Generations int               `yaml:"generations"`
	History     int               `yaml:"history"`
	Accept      string            `yaml:"accept"`
	Tables      map[string]string `yaml:"tables"`
	Selfplay    yaml.Node         `yaml:"selfplay"`
	Tune        yaml.Node         `yaml:"tune"`
	Verify      VerifyConfig      `yaml:"verify"`
}

// Variants returns the pipeline's variants in configuration order.
func (c *Config) Variants() []string {
	var out []string
	for _, v := range c.Selfplay.Variants {
		out = append(out, v.Variant)
	}
	return out
}

// Load reads and validates a pipeline configuration file, a regular file
// of at most fsx.MaxConfigBytes (what Parse keeps and the run directory
// gets a copy of); variantFiles are as in Parse.
func Load(path string, variantFiles ...string) (*Config, error) {
	b, err := fsx.ReadFile(path, fsx.MaxConfigBytes)
	if err != nil {
		return nil, err
	}
	return Parse(b, path, variantFiles...)
}

// LoadFS reads and validates a configuration from a file system (the
// embedded configs); name is used in errors, relative paths are relative
// to the working directory.
func LoadFS(fsys fs.FS, name string) (*Config, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	return Parse(b, name)
}

// Parse decodes and validates a pipeline configuration; name is the file
// name used in errors, and relative paths are relative to its directory.
// It decodes strictly (yamlx), then calls Defaults and Validate. Every
// error is a *selfplay.ConfigError ("file:line: field: message"), several
// joined with errors.Join in line order. Each of variantFiles (variant
// files given on the command line) is the variant_file of the self-play
// streams that name its variant without one (variantfile.Supply).
func Parse(b []byte, name string, variantFiles ...string) (*Config, error) {
	var fc fileConfig
	src, err := yamlx.Decode(b, name, &fc)
	if err != nil {
		return nil, err
	}
	c := &Config{Name: fc.Name, Generations: fc.Generations, History: fc.History, Accept: fc.Accept,
		Tables: fc.Tables, Verify: fc.Verify, File: name, source: append([]byte(nil), b...), src: src}
	// The sections are decoded by their own packages from the file's
	// nodes, so that their errors carry the file's lines and full paths.
	var errs []error
	if fc.Selfplay.Kind != 0 {
		if c.Selfplay, err = selfplay.ConfigAt(src, "selfplay"); err != nil {
			errs = append(errs, yamlx.Flatten(err)...)
		}
	}
	tc, err := tune.ConfigAt(src, "tune")
	if err != nil {
		errs = append(errs, yamlx.Flatten(err)...)
	} else {
		c.Tune = *tc
	}
	if len(errs) > 0 {
		sortErrors(errs)
		return nil, errors.Join(errs...)
	}
	for _, f := range variantFiles {
		if err := c.supplyVariantFile(f); err != nil {
			return nil, err
		}
	}
	c.Defaults()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// matchSpec returns the verification match of one variant: table a
// against table b, stopped by the SPRT.
func (c *Config) matchSpec(v selfplay.VariantConfig, a, b string, gen int) selfplay.MatchSpec {
	spec := c.pairSpec(v, a, b, gen, c.Verify.Pairs)
	sprt := c.Verify.SPRT
	spec.NameB, spec.SPRT = "current", &sprt
	return spec
}

// pairSpec returns a match of one variant in generation gen between
// table a ("gen-00g") and table b (the caller names it): pairs game pairs at verify.nodes from
// the verification's openings, with the self-play settings (openings,
// adjudication, maximum length, hash), no data set and no SPRT.
func (c *Config) pairSpec(v selfplay.VariantConfig, a, b string, gen, pairs int) selfplay.MatchSpec {
	base := *c.Selfplay
	base.Variants, base.Imbalances, base.Matches = nil, nil, nil
	base.Dataset.PositionsPerGame = 0
	openings := c.Verify.OpeningsFile
	if openings == "" {
		openings = v.OpeningsFile
	}
	return selfplay.MatchSpec{
		Variant: v.Variant, Rules: v.Rules, VariantFile: v.VariantFile, A: a, B: b,
		NameA: fmt.Sprintf("gen-%03d", gen),
		Pairs: pairs, Nodes: c.Verify.Nodes, Seed: c.seed(gen),
		OpeningsFile: openings, Base: &base,
	}
}

// seed returns the run seed of generation gen.
func (c *Config) seed(gen int) uint64 { return c.Selfplay.Seed + uint64(gen-1) }

// Hash returns the digest that identifies a run directory's
// configuration: everything that decides the results except Generations
// (so that a finished run can be extended) and the number of workers,
// with the generation-0 tables and opening files by content.
func (c *Config) Hash() (string, error) {
	sp := *c.Selfplay
	sp.Workers = 0
	sph, err := sp.Hash()
	if err != nil {
		return "", err
	}
	tables := map[string]string{}
	for _, v := range c.Variants() {
		b, err := c.initialTable(v)
		if err != nil {
			return "", err
		}
		tables[v] = digest(b)
	}
	vf := c.Verify
	if vf.OpeningsFile != "" {
		b, err := fsx.ReadFile(vf.OpeningsFile, fsx.MaxListBytes)
		if err != nil {
			return "", err
		}
		vf.OpeningsFile = digest(b)
	}
	doc := struct {
		Format   string            `json:"format"`
		Name     string            `json:"name"`
		History  int               `json:"history"`
		Accept   string            `json:"accept"`
		Tables   map[string]string `json:"tables"`
		Selfplay string            `json:"selfplay"`
		Tune     tune.Config       `json:"tune"`
		Verify   VerifyConfig      `json:"verify"`
		VsGen0   *Gen0Config       `json:"vs_gen0,omitempty"`
		Anchor   *AnchorConfig     `json:"anchor,omitempty"`
	}{Format, c.Name, c.History, c.Accept, tables, sph, c.Tune, vf, nil, vf.Anchor}
	if vf.VsGen0.Pairs != defaultGen0Pairs(vf.Pairs) {
		doc.VsGen0 = &vf.VsGen0
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	return digest(b)[len("sha256:"):], nil
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// initialTable returns the bytes of a variant's generation-0 table.
func (c *Config) initialTable(variant string) ([]byte, error) {
	if p, ok := c.Tables[variant]; ok {
		return fsx.ReadFile(p, fsx.MaxConfigBytes)
	}
	if b, err := fs.ReadFile(data.Weights, "weights/"+variant+".yaml"); err == nil || variantfile.IsBuiltinName(variant) {
		return b, err
	}
	v, err := c.variant(variant)
	if err != nil {
		return nil, err
	}
	return derivedTable(v)
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func sortErrors(errs []error) {
	line := func(e error) int {
		var ce *selfplay.ConfigError
		if errors.As(e, &ce) {
			return ce.Line
		}
		return 0
	}
	sort.SliceStable(errs, func(i, j int) bool { return line(errs[i]) < line(errs[j]) })
}

// remapMatch maps the errors of a verification match's selfplay config
// to the verify section.
func remapMatch(src *selfplay.Source, err error) error {
	return yamlx.Remap(err, func(ce *selfplay.ConfigError) error {
		f := ce.Field
		switch {
		case strings.HasPrefix(f, "matches[0]."):
			f = "verify." + strings.TrimPrefix(f, "matches[0].")
		case f == "nodes":
			f = "verify.nodes"
		default:
			f = "selfplay." + f
		}
		return src.ErrAt(f, "%s", ce.Msg)
	})
}
