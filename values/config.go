package values

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"

	"go.yaml.in/yaml/v3"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/internal/yamlx"
	"tamerlane/selfplay"
	"tamerlane/variantfile"
)

// Config is a values measurement (tamerlane measure -c): self-play games
// for the regression and planned imbalance matches, per variant. It is
// read strictly from YAML by LoadConfig. Example:
//
//	name: values-chess
//	seed: 1
//	nodes: 2000            # per move, both methods
//	max_plies: 400
//	adjudication: {resign: {move_count: 0}}   # play every game out
//	regression: {min_ply: 16, quiet_plies: 2, min_games: 30}
//	variants:
//	  - variant: chess
//	    pairs: 5000          # self-play game pairs for the regression
//	    imbalance: {pieces: [N, B, R, Q], half_width: 0.25, batch_pairs: 50, max_pairs: 2000, pawns: centre}
//	    # optional: an outside UCI engine plays the imbalance matches
//	    #   imbalance: {..., engine: {cmd: /opt/fsf/stockfish, nodes: 20000}}
type Config struct {
	// Name names the measurement (default: the file's base name).
	Name string `yaml:"name"`
	// Seed is the seed of every game (default 1).
	Seed uint64 `yaml:"seed"`
	// Nodes is the node limit per move (default 2000).
	Nodes int64 `yaml:"nodes"`
	// MaxPlies ends longer games as draws (default 400).
	MaxPlies int `yaml:"max_plies"`
	// Adjudication ends the games of both methods early, as self-play
	// does (selfplay.AdjudicationConfig; fields left out keep
	// self-play's defaults: resign at 1000 cp for 3 moves, both sides
	// agreeing; draw within 10 cp for 8 moves from move 40). The scores
	// are our engine's, so an adjudicated result is partly its table's
	// opinion: a measurement that must come from the games alone plays
	// them out with resign: {move_count: 0} (README, "Piece values").
	Adjudication *selfplay.AdjudicationConfig `yaml:"adjudication,omitempty"`
	// Workers is the number of game pairs played at once (0: one per CPU;
	// not part of the hash).
	Workers int `yaml:"workers,omitempty"`
	// Regression selects the samples of the regression.
	Regression RegressionConfig `yaml:"regression"`
	// Variants are measured in order.
	Variants []VariantConfig `yaml:"variants"`

	file string
}

// RegressionConfig selects the samples and the identification threshold.
type RegressionConfig struct {
	// MinPly drops positions before this ply (default 16).
	MinPly int `yaml:"min_ply" json:"min_ply"`
	// QuietPlies is how many plies the material must stay unchanged
	// (default 2).
	QuietPlies int `yaml:"quiet_plies" json:"quiet_plies"`
	// MinGames is the number of games with a non-zero difference a class
	// needs to be identified (default 30).
	MinGames int `yaml:"min_games" json:"min_games"`
	// SharedPieces keeps only positions where both sides have at least
	// this many pieces in common besides the material difference
	// (SampleOptions.SharedPieces; default 0: every position). The chess
	// calibration sets 1, Kaufman's condition.
	SharedPieces int `yaml:"shared_pieces,omitempty" json:"shared_pieces"`
	// Pairs adds a "pair.T" class for every colour-bound piece type
	// (SampleOptions.Pairs; default false). The chess calibration sets
	// it: Kaufman's bishop of 3.25 does not include his pair of 0.5.
	Pairs bool `yaml:"pairs,omitempty" json:"pairs"`
	// ScoredMaxPawns keeps the differences the scored-differences
	// reading uses to those the regression values at this many pawns or
	// fewer (ScoredOptions.MaxPawns; default 2).
	ScoredMaxPawns float64 `yaml:"scored_max_pawns,omitempty" json:"scored_max_pawns"`
}

// CheckMaxPawns checks a scored_max_pawns setting (0: the default): a
// finite number of pawns, at least 0. NaN, which every comparison fails,
// was taken for "not given" and Inf kept every difference.
func CheckMaxPawns(x float64) error {
	if !(x >= 0) || math.IsInf(x, 0) {
		return fmt.Errorf("%v is not a number of pawns (a finite number ≥ 0; 0: the default, 2)", x)
	}
	return nil
}

// SampleOptions are the sample selection of r.
func (r RegressionConfig) SampleOptions() SampleOptions {
	return SampleOptions{MinPly: r.MinPly, QuietPlies: r.QuietPlies, SharedPieces: r.SharedPieces, Pairs: r.Pairs}
}

// Options are Measure's options for these settings.
func (r RegressionConfig) Options() Options {
	return Options{Samples: r.SampleOptions(), Regression: RegressionOptions{MinGames: r.MinGames},
		Scored: ScoredOptions{MaxPawns: r.ScoredMaxPawns, MinGames: r.MinGames}}
}

// VariantConfig is the measurement of one variant.
type VariantConfig struct {
	// Variant is the variant's name.
	Variant string `yaml:"variant"`
	// VariantFile is a variant file (docs/variant-files.md), relative to
	// the config file, in place of a built-in Variant; the measurement
	// directory records it (variantfile.Record).
	VariantFile string `yaml:"variant_file,omitempty"`
	// Rules are rule options "k=v,k=v" (docs/rules.md 3.8).
	Rules string `yaml:"rules,omitempty"`
	// Pairs is the number of self-play game pairs for the regression (0:
	// no regression games).
	Pairs int `yaml:"pairs"`
	// Engine, if set, plays both sides of the regression's self-play
	// games: an outside UCI engine (selfplay.EngineSpec; e.g.
	// Fairy-Stockfish, a stronger player than ours on chess, shatranj
	// and shako), at the measurement's node limit unless it sets its
	// own, jittered as our engine's (selfplay.Config.NodesJitter). The
	// games are a match of the engine against itself, which the
	// regression reads as its self-play (selfplay.PlayerSpec.SameProgram).
	Engine *selfplay.EngineSpec `yaml:"engine,omitempty"`
	// Imbalance plans the imbalance matches (nil: none).
	Imbalance *ImbalanceConfig `yaml:"imbalance,omitempty"`
	// Adjudication, if set, replaces the measurement's for this
	// variant's games; the fields it leaves out keep the measurement's.
	// Scores are in the variant's table's centipawns, whose scale
	// differs by variant: 1000 cp is about 15 pawns in chess, 10 in
	// Tamerlane II, but one knight in Tamerlane.
	Adjudication *selfplay.AdjudicationConfig `yaml:"adjudication,omitempty"`
}

// ImbalanceConfig is a variant's imbalance section: the planner's
// settings (PlanSettings, whose fields and defaults it shares with
// PlanConfig) and where and by whom its matches are played.
type ImbalanceConfig struct {
	PlanSettings `yaml:",inline"`
	// Pawns says which pawns a match removes, and so which pawn is the
	// unit of the values: "edge" (the default) the first of each
	// player's array from its file a (a-, b-, c-pawn ...), "centre" from
	// the middle files outwards (in chess the d-, e-, c-, f-pawn ...;
	// the classical pawn odds is a centre pawn, the f-pawn).
	Pawns string `yaml:"pawns,omitempty"`
	// Engine, if set, plays both sides of every imbalance match: an
	// outside UCI engine (selfplay.EngineSpec; e.g. Fairy-Stockfish on
	// chess, shatranj and shako), sent the positions with the pieces
	// removed; its forfeits are game results.
	Engine *selfplay.EngineSpec `yaml:"engine,omitempty"`
	// OpeningsFile, if set, is a file of FENs (relative to the config)
	// the matches start from instead of the array, with the pieces taken
	// off each position (selfplay.ImbalanceConfig.OpeningsFile): pair j of
	// every match starts from the file's position j mod n, so the
	// matches share their positions. Pawns are then always bound to
	// files, as Pawns orders them ("P@d": the pawn standing on the
	// d-file), and every match the planner could choose
	// (PlanConfig.CandidateMatches) must be playable from every position:
	// it is checked at load, not rounds into a run.
	OpeningsFile string `yaml:"openings_file,omitempty"`
	// Start are the estimates in pawns the first opponents are chosen
	// from when the measurement has no regression games of its own to
	// take them from (PlanConfig.Start; default: 3 for every piece).
	// Planning only: they choose matches, never enter a value.
	Start map[string]float64 `yaml:"start,omitempty"`
}

// LoadConfig reads and validates a measurement config; errors name the
// file, line and field. A variant file given on the command line
// (variantFile, "": none) is the variant_file of every variant the config
// names by that file's variant's name without one of its own.
func LoadConfig(path, variantFile string) (*Config, error) {
	b, err := fsx.ReadFile(path, fsx.MaxConfigBytes)
	if err != nil {
		return nil, err
	}
	return parseConfig(b, path, true, variantFile)
}

// LoadRunConfig reads the config of a measurement directory as LoadConfig
// does, except that the outside engines and openings files it names need
// not exist on this machine: reading a measurement's files needs none of
// them; its variant files are the copies the directory recorded.
func LoadRunConfig(path string) (*Config, error) {
	b, err := fsx.ReadFile(path, fsx.MaxConfigBytes)
	if err != nil {
		return nil, err
	}
	return parseConfig(b, path, false, "")
}

// ParseConfig parses and validates a measurement config; name is the file
// name used in errors.
func ParseConfig(b []byte, name string) (*Config, error) { return parseConfig(b, name, true, "") }

func parseConfig(b []byte, name string, local bool, variantFile string) (*Config, error) {
	adj := selfplay.DefaultConfig().Adjudication
	c := Config{Adjudication: &adj} // the file's adjudication fields overwrite the defaults
	src, err := yamlx.Decode(b, name, &c)
	if err != nil {
		return nil, err
	}
	if c.Adjudication == nil { // "adjudication:" left empty
		c.Adjudication = &adj
	}
	// A variant's adjudication is its fields over the measurement's.
	for i := range c.Variants {
		path := fmt.Sprintf("variants[%d].adjudication", i)
		if src.Has(path) {
			a := *c.Adjudication
			if _, err := src.DecodeAt(path, &a); err != nil {
				return nil, err
			}
			c.Variants[i].Adjudication = &a
		}
	}
	for i, v := range c.Variants {
		if v.Imbalance != nil {
			v.Imbalance.OpeningsFile = src.Resolve(v.Imbalance.OpeningsFile)
		}
		c.Variants[i].VariantFile = src.Resolve(v.VariantFile)
		if !local {
			c.Variants[i].VariantFile = recordedOr(filepath.Dir(name), v.Variant, c.Variants[i].VariantFile)
		}
	}
	c.file = name
	if err := c.supplyVariantFile(variantFile); err != nil {
		return nil, err
	}
	if c.Name == "" {
		base := filepath.Base(name)
		c.Name = base[:len(base)-len(filepath.Ext(base))]
	}
	if err := c.validate(src, local); err != nil {
		return nil, err
	}
	return &c, nil
}

// validate fills in defaults and checks c; local: whether the outside
// engines' commands and the openings files must exist on this machine
// (and the files suit the matches).
func (c *Config) validate(src *yamlx.Source, local bool) error {
	if c.Seed == 0 && !src.Has("seed") {
		c.Seed = 1
	}
	if c.Nodes == 0 {
		c.Nodes = 2000
	}
	if c.MaxPlies == 0 {
		c.MaxPlies = 400
	}
	var errs []error
	bad := func(path, format string, a ...any) { errs = append(errs, src.ErrAt(path, format, a...)) }
	if c.Nodes < 0 {
		bad("nodes", "must be positive")
	}
	if c.MaxPlies < 0 {
		bad("max_plies", "must not be negative")
	}
	if err := selfplay.CheckWorkers(c.Workers); err != nil {
		bad("workers", "%v", err)
	}
	c.adjudication(-1).Check(func(field, format string, a ...any) { bad("adjudication."+field, format, a...) })
	r := c.Regression
	if r.MinPly < 0 || r.QuietPlies < 0 || r.MinGames < 0 || r.SharedPieces < 0 || r.ScoredMaxPawns < 0 {
		bad("regression", "min_ply, quiet_plies, min_games, shared_pieces and scored_max_pawns must not be negative")
	} else if err := CheckMaxPawns(r.ScoredMaxPawns); err != nil {
		bad("regression.scored_max_pawns", "%v", err)
	}
	if len(c.Variants) == 0 {
		bad("variants", "required: at least one variant")
	}
	seen := map[string]bool{}
	for i, v := range c.Variants {
		p := fmt.Sprintf("variants[%d]", i)
		ev, field, err := v.resolve()
		if err != nil {
			bad(p+"."+field, "%v", err)
			continue
		}
		c.Variants[i].Variant, v.Variant = ev.Name, ev.Name
		if seen[v.Variant] {
			bad(p+".variant", "variant %q is listed twice", v.Variant)
		}
		seen[v.Variant] = true
		if v.Pairs < 0 || v.Pairs > selfplay.MaxPairs {
			bad(p+".pairs", "must not be negative nor more than %d (got %d)", selfplay.MaxPairs, v.Pairs)
		}
		if v.Adjudication != nil {
			v.Adjudication.Check(func(field, format string, a ...any) { bad(p+".adjudication."+field, format, a...) })
		}
		if e := v.Engine; e != nil {
			if v.Pairs == 0 {
				bad(p+".engine", "plays the regression's games, but pairs is 0")
			}
			if err := engineCheck(e, local); err != nil {
				bad(p+".engine", "%v", err)
			}
		}
		if v.Imbalance != nil {
			before := len(errs)
			pc := c.plan(i)
			if err := pc.Validate(); err != nil {
				bad(p+".imbalance", "%v", err)
			}
			if pw := v.Imbalance.Pawns; pw != "" && pw != PawnsEdge && pw != PawnsCentre {
				bad(p+".imbalance.pawns", "%q: want %q or %q", pw, PawnsEdge, PawnsCentre)
			}
			if e := v.Imbalance.Engine; e != nil {
				if err := engineCheck(e, local); err != nil {
					bad(p+".imbalance.engine", "%v", err)
				}
			}
			cls := NewClasses(ev, false)
			for j, x := range v.Imbalance.Pieces {
				if cls.Index(x) <= 0 {
					bad(fmt.Sprintf("%s.imbalance.pieces[%d]", p, j), "%q is not a non-royal, non-pawn piece of %s (pieces: %v)", x, v.Variant, cls.Names[1:])
				}
			}
			for _, x := range slices.Sorted(maps.Keys(v.Imbalance.Start)) {
				if y := v.Imbalance.Start[x]; !slices.Contains(v.Imbalance.Pieces, x) || !(y > 0) || math.IsInf(y, 0) {
					bad(fmt.Sprintf("%s.imbalance.start.%s", p, x), "want a positive estimate of a piece of imbalance.pieces")
				}
			}
			for _, x := range slices.Sorted(maps.Keys(v.Imbalance.Replace)) {
				y := v.Imbalance.Replace[x]
				field := fmt.Sprintf("%s.imbalance.replace.%s", p, x)
				switch {
				case !slices.Contains(v.Imbalance.Pieces, x):
					bad(field, "%q is not among imbalance.pieces", x)
				case y == x || !slices.Contains(v.Imbalance.Pieces, y) || v.Imbalance.Replace[y] != "":
					bad(field, "%q must be another piece of imbalance.pieces, itself measured without a replacement", y)
				}
			}
			// The planner's matches are checked against the positions only
			// once the plan itself is valid.
			if v.Imbalance.OpeningsFile != "" && local && len(errs) == before {
				if err := c.checkOpenings(i, ev); err != nil {
					bad(p+".imbalance.openings_file", "%v", err)
				}
			}
		} else if v.Pairs == 0 {
			bad(p, "neither pairs nor imbalance: nothing to measure")
		}
	}
	return errors.Join(errs...)
}

// checkOpenings checks that every match the planner of variant i may
// choose can start from every position of its openings file.
func (c *Config) checkOpenings(i int, v *engine.Variant) error {
	im := c.Variants[i].Imbalance
	var ims []selfplay.ImbalanceRemoves
	for _, m := range c.plan(i).CandidateMatches() {
		ims = append(ims, selfplay.ImbalanceRemoves{Name: m.Name,
			First: im.boundPawns(v, m.FirstRemoves), Second: im.boundPawns(v, m.SecondRemoves)})
	}
	return selfplay.CheckImbalanceOpenings(v, im.OpeningsFile, ims)
}

// plan returns the planner configuration of variant i.
func (c *Config) plan(i int) PlanConfig {
	v := c.Variants[i]
	im := v.Imbalance
	ps := im.PlanSettings
	ps.Pieces, ps.Replace = slices.Clone(ps.Pieces), maps.Clone(ps.Replace)
	return PlanConfig{Variant: v.Variant, Rules: v.Rules, PlanSettings: ps, Start: maps.Clone(im.Start)}
}

// Hash is the digest of everything that decides the games and the plan,
// an openings file by its contents, not its path.
func (c *Config) Hash() (string, error) {
	cp := *c
	cp.Workers = 0
	cp.Variants = slices.Clone(c.Variants)
	for i, v := range cp.Variants {
		if v.VariantFile != "" {
			b, err := fsx.ReadFile(v.VariantFile, fsx.MaxConfigBytes)
			if err != nil {
				return "", fmt.Errorf("variants[%d].variant_file: %v", i, err)
			}
			sum := sha256.Sum256(b)
			cp.Variants[i].VariantFile = "sha256:" + hex.EncodeToString(sum[:])
		}
		if v.Imbalance == nil || v.Imbalance.OpeningsFile == "" {
			continue
		}
		im := *v.Imbalance
		b, err := fsx.ReadFile(im.OpeningsFile, fsx.MaxListBytes)
		if err != nil {
			return "", fmt.Errorf("variants[%d].imbalance.openings_file: %v", i, err)
		}
		sum := sha256.Sum256(b)
		im.OpeningsFile = "sha256:" + hex.EncodeToString(sum[:])
		cp.Variants[i].Imbalance = &im
	}
	if cp.Adjudication != nil && *cp.Adjudication == selfplay.DefaultConfig().Adjudication {
		cp.Adjudication = nil // hashes as before the field existed
	}
	b, err := yaml.Marshal(&cp)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(append([]byte(formatVersion+"\n"), b...))
	return hex.EncodeToString(sum[:]), nil
}

// adjudication returns the adjudication of variant i's games (i < 0: the
// measurement's): the variant's if it sets one, else the measurement's,
// else self-play's default.
func (c *Config) adjudication(i int) *selfplay.AdjudicationConfig {
	if i >= 0 && c.Variants[i].Adjudication != nil {
		return c.Variants[i].Adjudication
	}
	if c.Adjudication == nil {
		adj := selfplay.DefaultConfig().Adjudication
		return &adj
	}
	return c.Adjudication
}

// formatVersion names the run directory format of a measurement.
const formatVersion = "tamerlane-values/1"

// selfplayConfig is the self-play run of variant i's regression games.
func (c *Config) selfplayConfig(i int) *selfplay.Config {
	sc := selfplay.DefaultConfig()
	sc.Seed, sc.Nodes, sc.MaxPlies = c.Seed, c.Nodes, c.MaxPlies
	sc.Adjudication = *c.adjudication(i)
	v := c.Variants[i]
	if v.Engine != nil {
		sc.Matches = []selfplay.MatchConfig{{Name: v.Variant, Variant: v.Variant, VariantFile: v.VariantFile, Rules: v.Rules, Pairs: v.Pairs,
			EngineA: v.Engine, EngineB: v.Engine}}
		return sc
	}
	sc.Variants = []selfplay.VariantConfig{{Variant: v.Variant, VariantFile: v.VariantFile, Rules: v.Rules, Pairs: v.Pairs}}
	return sc
}

// cfgYAML is the config as written to the run's config.yaml.
func cfgYAML(c *Config) ([]byte, error) { return yaml.Marshal(c) }

// The pawns an imbalance match removes (ImbalanceConfig.Pawns).
const (
	PawnsEdge   = "edge"
	PawnsCentre = "centre"
)

// engineVariant returns the variant with its rule options, or its
// variant file's.
func (v *VariantConfig) engineVariant() (*engine.Variant, error) {
	ev, _, err := v.resolve()
	return ev, err
}

// resolve builds the variant (variantfile.Resolve) and names the field an
// error belongs to.
func (v *VariantConfig) resolve() (*engine.Variant, string, error) {
	if v.VariantFile != "" {
		ev, err := variantfile.Resolve(v.Variant, v.Rules, v.VariantFile)
		return ev, "variant_file", err
	}
	opts, err := engine.ParseOptions(v.Rules)
	if err != nil {
		return nil, "rules", err
	}
	ev, err := engine.NewVariant(v.Variant, opts)
	return ev, "variant", err
}

// supplyVariantFile makes file (a variant file given on the command line;
// "": none) the variant file of every variant the config names by the
// file's variant's name without a file of its own (variantfile.Supply).
func (c *Config) supplyVariantFile(file string) error {
	if file == "" {
		return nil
	}
	var uses []variantfile.Use
	for i := range c.Variants {
		uses = append(uses, variantfile.Use{Variant: c.Variants[i].Variant, File: &c.Variants[i].VariantFile})
	}
	return variantfile.Supply(file, c.file, uses...)
}

// recordedOr returns the copy of variant name's file that the
// measurement directory dir recorded, if there is one, else file.
func recordedOr(dir, name, file string) string {
	if p, ok := variantfile.RecordedFile(dir, name); ok && file != "" {
		return p
	}
	return file
}

// boundPawns returns the removes a match's side plays with: its pawns
// bound to files from the middle outwards with Pawns "centre"
// (centrePawns), from file a with an openings file (edgePawns, where a
// plain "P" would be whatever pawn the scan meets first), else as they
// are (the array's scan takes the a-, b-, c-pawn).
func (im *ImbalanceConfig) boundPawns(v *engine.Variant, removes []string) []string {
	switch {
	case im.Pawns == PawnsCentre:
		return centrePawns(v, removes)
	case im.OpeningsFile != "":
		return edgePawns(v, removes)
	}
	return removes
}

// pawnFiles returns the files with a pawn in v's start array, in order.
func pawnFiles(v *engine.Variant) []int {
	var files []int
	start := engine.NewPosition(v)
	for f := 0; f < v.Files; f++ {
		for r := 0; r < v.Ranks; r++ {
			if pc := start.At(engine.SquareAt(f, r)); pc != engine.Empty && pc.Color() == engine.White && v.Def(pc.Type()).Pawn {
				files = append(files, f)
				break
			}
		}
	}
	return files
}

// bindPawns returns removes with the k-th "P" bound to files[k] ("P@d").
// Other removes are kept, and so are pawns beyond the files.
func bindPawns(removes []string, files []int) []string {
	out := make([]string, 0, len(removes))
	k := 0
	for _, x := range removes {
		if x == "P" && k < len(files) {
			x = fmt.Sprintf("P@%c", 'a'+files[k])
			k++
		}
		out = append(out, x)
	}
	return out
}

// edgePawns returns removes with every "P" bound to a file of the
// player's array from file a (in chess a, b, c, ...), skipping files
// without a pawn in the start array.
func edgePawns(v *engine.Variant, removes []string) []string {
	return bindPawns(removes, pawnFiles(v))
}

// centrePawns returns removes with every "P" bound to a file of the
// player's array, from the middle files outwards (ties: the lower file
// first; in chess d, e, c, f, b, g, a, h), skipping files without a pawn
// in the start array. Other removes are kept.
func centrePawns(v *engine.Variant, removes []string) []string {
	files := pawnFiles(v)
	mid := float64(v.Files-1) / 2
	slices.SortStableFunc(files, func(a, b int) int {
		return cmp.Compare(math.Abs(float64(a)-mid), math.Abs(float64(b)-mid))
	})
	return bindPawns(removes, files)
}

// engineCheck validates an outside engine's spec, its command's presence
// only when lookPath is set.
func engineCheck(e *selfplay.EngineSpec, lookPath bool) error {
	if lookPath {
		return e.Validate()
	}
	return e.ValidateOffline()
}
