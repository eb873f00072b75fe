package selfplay

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"tamerlane/engine/eval"
	"tamerlane/internal/fsx"
	"tamerlane/internal/yamlx"
	"tamerlane/selfplay/elo"
	"tamerlane/variantfile"
)

// Config describes a self-play run. It is read from YAML by LoadConfig
// (strictly: unknown fields are errors) or built in code; Validate checks
// it and fills in defaults. Every field's YAML name is given in its tag.
//
// Example:
//
//	seed: 7
//	nodes: 5000              # per move (or depth: N)
//	nodes_jitter: 0.1        # per-move node limit drawn from nodes·[0.9, 1.1]
//	max_plies: 400           # longer games are drawn
//	openings: {plies: 8, max_score: 150, score_nodes: 500, material: true}
//	adjudication:
//	  draw: {move_number: 40, move_count: 8, score: 10}
//	  resign: {move_count: 3, score: 1000, two_sided: true}
//	dataset: {positions_per_game: 10, skip_plies: 16, skip_in_check: true}
//	variants:
//	  - {variant: tamerlane, pairs: 500}
//	  - {variant: tamerlane2, rules: "", pairs: 200, table: tables/t2.yaml}
//	  - {variant_file: ../variants/capablanca.yaml, pairs: 100}
//	imbalances:
//	  - {name: "N vs C", variant: tamerlane2, first_removes: [N], second_removes: [C], pairs: 20}
//	  - {name: "R odds", variant: chess, first_removes: [R], pairs: 20,
//	     engine: {cmd: fairy-stockfish, nodes: 20000}}
//	matches:
//	  - {name: new-vs-old, variant: tamerlane, a: new.yaml, b: old.yaml, pairs: 1000,
//	     sprt: {elo0: 0, elo1: 5}}
type Config struct {
	// Seed is the run seed; every game's seed derives from it, the
	// stream's name and the pair index.
	Seed uint64 `yaml:"seed"`
	// Workers is the number of game pairs played at once (0: one per
	// CPU). It does not change any result and is not part of the
	// configuration hash.
	Workers int `yaml:"workers,omitempty"`
	// Nodes is the node limit per move (default 5000 when neither nodes
	// nor depth is given).
	Nodes int64 `yaml:"nodes"`
	// Depth is the depth limit per move (0: none).
	Depth int `yaml:"depth"`
	// NodesJitter varies the node limit of every move by up to this
	// fraction (default 0.1): the limit is drawn uniformly from
	// nodes·[1-j, 1+j] with the player's seed, which differs between the
	// two games of a pair. Without it a deterministic player would repeat
	// the pair's first game move for move in self-play. It applies to the
	// node limits of outside engines too (EngineSpec). 0 disables it.
	NodesJitter float64 `yaml:"nodes_jitter"`
	// TTMiB is each searcher's hash table size in MiB (default 4: ample
	// for self-play node budgets, and small enough that two workers do not
	// evict each other from the shared cache).
	TTMiB int `yaml:"tt_mib"`
	// MaxPlies ends a game as a draw ("max plies") once it has this many
	// plies, opening moves included (default 400).
	MaxPlies int `yaml:"max_plies"`
	// Openings says how the openings are made.
	Openings OpeningConfig `yaml:"openings"`
	// Adjudication ends hopeless or dead games early.
	Adjudication AdjudicationConfig `yaml:"adjudication"`
	// Dataset says which positions are sampled for the training data.
	Dataset DatasetConfig `yaml:"dataset"`
	// Variants are self-play streams: the same player on both sides.
	Variants []VariantConfig `yaml:"variants,omitempty"`
	// Imbalances are material-imbalance streams.
	Imbalances []ImbalanceConfig `yaml:"imbalances,omitempty"`
	// Matches are streams of player A against player B.
	Matches []MatchConfig `yaml:"matches,omitempty"`
	// Shard restricts the run to the pairs with index % Count == Index.
	// It is not part of the configuration hash.
	Shard Shard `yaml:"shard,omitempty"`

	src *Source // where the config was read from (nil: built in code)
	// defaulted is set once the defaults are filled in, so that a field
	// changed in code after the first Validate is not reset to its default.
	defaulted bool
}

// OpeningConfig says how random-walk openings are made: Plies random legal
// moves from the stream's start position, drawn with the pair's seed,
// kept only if the game is not over, the material balance is unchanged
// (Material) and a quick search (ScoreNodes nodes, the stream's first
// player) scores the result within MaxScore centipawns of the start
// position's score, both from White's view. Up to Attempts walks are
// tried; if none passes, the pair starts from the start position.
type OpeningConfig struct {
	// Plies is the length of the random walk (default 8; 0: no walk).
	Plies int `yaml:"plies"`
	// MaxScore is the score window in centipawns (default 150; 0: no
	// score check).
	MaxScore int `yaml:"max_score"`
	// ScoreNodes is the node limit of the quick search (default 500).
	ScoreNodes int64 `yaml:"score_nodes"`
	// Material requires that the walk leaves every piece type's count
	// difference between the sides as at the start (default true).
	Material bool `yaml:"material"`
	// Attempts bounds the number of walks tried per opening (default 64).
	Attempts int `yaml:"attempts"`
}

// AdjudicationConfig ends games early, as cutechess-cli and fastchess do.
type AdjudicationConfig struct {
	// Draw adjudication.
	Draw DrawAdjudication `yaml:"draw"`
	// Resign adjudication.
	Resign ResignAdjudication `yaml:"resign"`
}

// Check reports each out-of-range field of a through report, which is
// given the field's path below the adjudication ("resign.score").
func (a *AdjudicationConfig) Check(report func(field, format string, args ...any)) {
	nonNeg := func(field string, v int) {
		if v < 0 {
			report(field, "must not be negative (got %d)", v)
		}
	}
	nonNeg("draw.move_number", a.Draw.MoveNumber)
	nonNeg("draw.move_count", a.Draw.MoveCount)
	nonNeg("draw.score", a.Draw.Score)
	nonNeg("resign.move_count", a.Resign.MoveCount)
	if a.Resign.MoveCount > 0 && a.Resign.Score < 1 {
		report("resign.score", "must be positive (got %d)", a.Resign.Score)
	}
}

// DrawAdjudication declares a draw once the game has reached move
// MoveNumber and both players' scores have stayed within ±Score for
// MoveCount consecutive moves each (2·MoveCount plies); a capture, a pawn
// move or a promotion resets the count.
type DrawAdjudication struct {
	// MoveNumber is the first full move at which a draw may be declared
	// (default 40).
	MoveNumber int `yaml:"move_number"`
	// MoveCount is the number of moves per side (default 8; 0 disables).
	MoveCount int `yaml:"move_count"`
	// Score is the bound in centipawns (default 10).
	Score int `yaml:"score"`
}

// ResignAdjudication declares a loss for a player whose score has been at
// most -Score for MoveCount consecutive moves of its own; with TwoSided
// the opponent's latest score must also have been at least +Score each
// time.
type ResignAdjudication struct {
	// MoveCount is the number of the player's moves (default 3; 0
	// disables).
	MoveCount int `yaml:"move_count"`
	// Score is the bound in centipawns (default 1000).
	Score int `yaml:"score"`
	// TwoSided requires the opponent's agreement (default true).
	TwoSided bool `yaml:"two_sided"`
}

// DatasetConfig says which positions of each game go into the data set.
// Candidates are the positions in which a player searched (never the
// random-walk opening), at least SkipPlies plies from the game's start,
// and not in check if SkipInCheck; PositionsPerGame of them are drawn
// with the game's seed.
type DatasetConfig struct {
	// PositionsPerGame is the number of positions per game (default 10;
	// 0: no data set). A game with fewer candidates gives them all.
	PositionsPerGame int `yaml:"positions_per_game"`
	// SkipPlies skips the first plies of every game (default 16).
	SkipPlies int `yaml:"skip_plies"`
	// SkipInCheck skips positions where the side to move is in check
	// (default true).
	SkipInCheck bool `yaml:"skip_in_check"`
}

// VariantConfig is a self-play stream: one player against itself.
type VariantConfig struct {
	// Name names the stream and its directory (default: the variant).
	Name string `yaml:"name,omitempty"`
	// Variant is the variant's name (engine.VariantNames).
	Variant string `yaml:"variant"`
	// VariantFile is a variant file (docs/variant-files.md), relative to
	// the config file, in place of a built-in Variant.
	VariantFile string `yaml:"variant_file,omitempty"`
	// Rules are rule options "k=v,k=v" (docs/rules.md 3.8).
	Rules string `yaml:"rules,omitempty"`
	// Pairs is the number of game pairs.
	Pairs int `yaml:"pairs"`
	// Table is the evaluation table's path, relative to the config file
	// ("": the embedded default).
	Table string `yaml:"table,omitempty"`
	// OpeningsFile, if set, is a file of FENs, one per line (blank lines
	// and lines starting with '#' ignored); pair i starts from line
	// i mod n instead of a random walk.
	OpeningsFile string `yaml:"openings_file,omitempty"`
}

// ImbalanceConfig is a material-imbalance stream: the first player plays
// without the pieces FirstRemoves names, the second without those
// SecondRemoves names, with the colours alternating within each pair
// (first player White in the pair's first game, Black in its second).
//
// A remove is a FEN token of the variant in any case ("N", "PR"), or "P"
// for any pawn in variants without a "P" token, optionally with "@" and
// the file of the player's array it stands on ("P@f": the f-pawn, the
// classical pawn odds), optionally followed by ">" and the token of a
// non-royal piece put in its place ("R>A", "R@a>A": a Rook replaced by an
// Eagle, to measure a piece that appears only by promotion; the fits of
// package values/imbalance count the player as lacking the Rook and having
// an extra Eagle). The piece removed is
// chosen deterministically: White's pieces are scanned from rank 1 up and
// each rank from file a; Black's are scanned from its own back rank down,
// each rank from file a when Black's array is White's mirrored across the
// middle rank and from the last file when it is White's rotated by 180
// degrees (the Tamerlane arrays), so that both colours lose the same
// piece of their array. The first match not yet removed goes. Castling
// rights whose rook is removed are dropped.
//
// Engine makes both sides an outside UCI engine (e.g. a stronger one,
// whose play measures the imbalance better than ours); FirstEngine and
// SecondEngine set one side each and take precedence over Engine. The
// engine is sent the game as "position fen <start with the pieces
// removed> moves ...", so it must know the variant (Fairy-Stockfish:
// chess, shatranj, shako); our rules referee every move. An engine's
// crash, illegal move or time loss loses the game (Termination "engine
// crash", "illegal move", "time forfeit"), as in match streams; it does
// not stop the run. The random-walk openings are still drawn and scored
// by our engine with the stream's table.
//
// OpeningsFile, if set, replaces the variant's start array and the walk:
// pair i starts from position i mod n of the file (its n FENs in order;
// OpeningsOffset shifts them) with the pieces removed
// from that position (scanned as above; "P@d" is then a pawn standing on
// the d-file), so that material can be taken off in the middle of a game.
// Every line must have the pieces to remove in both games of a pair.
type ImbalanceConfig struct {
	// Name names the stream (required).
	Name string `yaml:"name"`
	// Variant is the variant's name.
	Variant string `yaml:"variant"`
	// VariantFile is as in VariantConfig.
	VariantFile string `yaml:"variant_file,omitempty"`
	// Rules are rule options.
	Rules string `yaml:"rules,omitempty"`
	// FirstRemoves are the pieces the first player does without.
	FirstRemoves []string `yaml:"first_removes,omitempty"`
	// SecondRemoves are the pieces the second player does without.
	SecondRemoves []string `yaml:"second_removes,omitempty"`
	// Pairs is the number of game pairs.
	Pairs int `yaml:"pairs"`
	// Table is the evaluation table both players use.
	Table string `yaml:"table,omitempty"`
	// Engine makes both sides an outside UCI engine (see EngineSpec).
	Engine *EngineSpec `yaml:"engine,omitempty"`
	// FirstEngine makes the first side an outside engine (overrides Engine).
	FirstEngine *EngineSpec `yaml:"first_engine,omitempty"`
	// SecondEngine makes the second side an outside engine (overrides Engine).
	SecondEngine *EngineSpec `yaml:"second_engine,omitempty"`
	// OpeningsFile is a file of FENs the pairs start from, with the
	// pieces removed (see above; "": the start array and a walk).
	OpeningsFile string `yaml:"openings_file,omitempty"`
	// OpeningsOffset shifts the positions of OpeningsFile: pair i starts
	// from position (OpeningsOffset + i) mod n, so that a match played in
	// rounds of separate runs goes on through the file instead of
	// starting each round from its first line (default 0).
	OpeningsOffset int `yaml:"openings_offset,omitempty"`
}

// engines returns the outside engines of the first and second side (nil:
// our engine with the stream's table).
func (m *ImbalanceConfig) engines() (first, second *EngineSpec) {
	first, second = m.Engine, m.Engine
	if m.FirstEngine != nil {
		first = m.FirstEngine
	}
	if m.SecondEngine != nil {
		second = m.SecondEngine
	}
	return first, second
}

// MatchConfig is a stream of player A (first) against player B (second),
// with an optional SPRT stop.
type MatchConfig struct {
	// Name names the stream (default "match-<variant>").
	Name string `yaml:"name,omitempty"`
	// Variant is the variant's name.
	Variant string `yaml:"variant"`
	// VariantFile is as in VariantConfig.
	VariantFile string `yaml:"variant_file,omitempty"`
	// Rules are rule options.
	Rules string `yaml:"rules,omitempty"`
	// A is player A's evaluation table ("": the default).
	A string `yaml:"a"`
	// B is player B's evaluation table ("": the default).
	B string `yaml:"b"`
	// NameA and NameB are the players' names in the PGN (default: the
	// tables' base names, or "default").
	NameA string `yaml:"a_name,omitempty"`
	// NameB is player B's name.
	NameB string `yaml:"b_name,omitempty"`
	// Pairs is the maximum number of game pairs.
	Pairs int `yaml:"pairs"`
	// OpeningsFile is as in VariantConfig.
	OpeningsFile string `yaml:"openings_file,omitempty"`
	// SPRT stops the match early.
	SPRT *SPRTConfig `yaml:"sprt,omitempty"`
	// EngineA and EngineB make a side an outside UCI engine (its table
	// is then ignored); see EngineSpec.
	EngineA *EngineSpec `yaml:"a_engine,omitempty"`
	// EngineB is player B's outside engine.
	EngineB *EngineSpec `yaml:"b_engine,omitempty"`
}

// SPRTConfig is a sequential probability ratio test of H0: Elo = Elo0
// against H1: Elo = Elo1 (normalized Elo, pentanomial, as fastchess).
type SPRTConfig struct {
	// Elo0 is H0's Elo.
	Elo0 float64 `yaml:"elo0" json:"elo0"`
	// Elo1 is H1's Elo.
	Elo1 float64 `yaml:"elo1" json:"elo1"`
	// Alpha is the type I error (default 0.05).
	Alpha float64 `yaml:"alpha" json:"alpha"`
	// Beta is the type II error (default 0.05).
	Beta float64 `yaml:"beta" json:"beta"`
	// Model is elo.ModelNormalized (default) or elo.ModelLogistic.
	Model string `yaml:"model" json:"model,omitempty"`
}

// Shard is one part of a run split over several machines.
type Shard struct {
	// Index is this shard's number, 0 <= Index < Count.
	Index int `yaml:"index"`
	// Count is the number of shards (0 or 1: no sharding).
	Count int `yaml:"count"`
}

// String returns "i/n".
func (s Shard) String() string {
	if s.Count <= 1 {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Has reports whether pair index i belongs to the shard.
func (s Shard) Has(i int) bool { return s.Count <= 1 || i%s.Count == s.Index }

// ParseShard parses "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 <= i < n", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// ConfigError is one mistake in a configuration: the file and line (0
// when unknown) and the field's path, e.g. "variants[1].pairs". It is the
// strict decoder's error (package yamlx).
type ConfigError = yamlx.Error

// Source remembers where each field of a YAML configuration file was, so
// that errors name the file, the line and the field (package yamlx).
type Source = yamlx.Source

// LoadConfig reads a YAML configuration strictly and validates it. Errors
// name the file, the line and the field. Relative paths in the file are
// taken relative to the file's directory.
func LoadConfig(path string) (*Config, error) {
	c, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// readConfig reads and decodes a configuration file (see ParseConfig)
// without validating it.
func readConfig(path string) (*Config, error) {
	src, err := yamlx.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ConfigAt(src, "")
}

// ParseConfig decodes YAML configuration data strictly (unknown fields,
// wrong types and repeated keys are errors naming file, line and field)
// without validating it; name is the file name used in errors and for
// relative paths.
func ParseConfig(data []byte, name string) (*Config, error) {
	src, err := yamlx.Parse(data, name)
	if err != nil {
		return nil, err
	}
	return ConfigAt(src, "")
}

// ConfigAt decodes the self-play configuration at path of a file already
// decoded by yamlx (the pipeline's selfplay: section) without validating
// it; its errors carry the file's lines and the full field paths.
func ConfigAt(src *yamlx.Source, path string) (c *Config, err error) {
	c = &Config{}
	if c.src, err = src.DecodeAt(path, c); err != nil {
		return nil, err
	}
	return c, nil
}

// has reports whether the config file set the field at path.
func (c *Config) has(path string) bool { return c.src.Has(path) }

// errAt builds a ConfigError for the field at path (see Source.ErrAt).
func (c *Config) errAt(path, format string, a ...any) *ConfigError {
	return c.src.ErrAt(path, format, a...)
}

// resolve makes a path from the config file absolute.
func (c *Config) resolve(p string) string { return c.src.Resolve(p) }

// sameProgram reports whether the match's two sides are the same program
// (PlayerSpec.SameProgram).
func (m *MatchConfig) sameProgram() bool {
	return PlayerSpec{Table: m.A, Engine: m.EngineA}.SameProgram(PlayerSpec{Table: m.B, Engine: m.EngineB})
}

func (m *MatchConfig) name() string {
	if m.Name != "" {
		return m.Name
	}
	return "match-" + m.Variant
}

func (s *SPRTConfig) sprt() elo.SPRT {
	return elo.SPRT{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, Model: elo.Model(s.Model)}
}

// streamDir maps a stream name to its directory name: lower case, with
// every run of characters other than letters, digits, '.', '_' and '-'
// replaced by '-'.
func streamDir(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		dash = false
		b.WriteRune(r)
	}
	s := strings.Trim(b.String(), "-.")
	if s == "" {
		s = "stream"
	}
	return s
}

// Marshal returns the configuration as YAML, as written to a run
// directory's config.yaml.
func (c *Config) Marshal() ([]byte, error) {
	cp := *c
	cp.Workers = 0
	return yaml.Marshal(&cp)
}

// Hash returns a digest of everything that decides the games: the
// configuration without Workers and Shard, with every referenced file
// (evaluation tables, opening files) replaced by the SHA-256 of its
// contents, so that runs on machines with different paths agree.
func (c *Config) Hash() (string, error) {
	cp := *c
	cp.Workers = 0
	cp.Shard = Shard{}
	digest := func(p *string, limit int64) error {
		if *p == "" {
			return nil
		}
		data, err := fsx.ReadFile(*p, limit)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		*p = "sha256:" + hex.EncodeToString(sum[:])
		return nil
	}
	cp.Variants = append([]VariantConfig(nil), c.Variants...)
	cp.Imbalances = append([]ImbalanceConfig(nil), c.Imbalances...)
	cp.Matches = append([]MatchConfig(nil), c.Matches...)
	var errs []error
	const table, list = fsx.MaxConfigBytes, fsx.MaxListBytes
	for i := range cp.Variants {
		e := &cp.Variants[i]
		errs = append(errs, digest(&e.Table, table), digest(&e.OpeningsFile, list), digest(&e.VariantFile, table))
	}
	for i := range cp.Imbalances {
		e := &cp.Imbalances[i]
		errs = append(errs, digest(&e.Table, table), digest(&e.OpeningsFile, list), digest(&e.VariantFile, table))
	}
	for i := range cp.Matches {
		e := &cp.Matches[i]
		errs = append(errs, digest(&e.A, table), digest(&e.B, table), digest(&e.OpeningsFile, list), digest(&e.VariantFile, table))
	}
	if err := errors.Join(errs...); err != nil {
		return "", err
	}
	data, err := yaml.Marshal(&cp)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(append([]byte(formatVersion+"\n"), data...))
	return hex.EncodeToString(sum[:]), nil
}

// DefaultTables returns, for every variant one of the streams plays with
// the embedded default table (no table file given, and not a match side
// an outside engine plays), the digest of that
// table in this binary (eval.DefaultDigest). The configuration hash cannot
// hold it (the file is compiled in, not named), so run.json records it
// and a resume by a binary embedding another table is refused.
func (c *Config) DefaultTables() (map[string]string, error) {
	out := map[string]string{}
	add := func(name, rules, file, table string) error {
		if table != "" {
			return nil
		}
		v, err := variantfile.Resolve(name, rules, file)
		if err != nil {
			return err
		}
		if _, ok := out[v.Name]; ok {
			return nil
		}
		d, err := eval.DefaultDigest(v)
		if err != nil {
			return err
		}
		out[v.Name] = d
		return nil
	}
	var errs []error
	for _, e := range c.Variants {
		errs = append(errs, add(e.Variant, e.Rules, e.VariantFile, e.Table))
	}
	for _, e := range c.Imbalances {
		errs = append(errs, add(e.Variant, e.Rules, e.VariantFile, e.Table))
	}
	for _, e := range c.Matches {
		// A side an outside engine plays uses no table of this binary
		// (nor do the match's openings: its first player scores them).
		if e.EngineA == nil {
			errs = append(errs, add(e.Variant, e.Rules, e.VariantFile, e.A))
		}
		if e.EngineB == nil {
			errs = append(errs, add(e.Variant, e.Rules, e.VariantFile, e.B))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// formatVersion names the journal and output formats; it is part of the
// configuration hash.
const formatVersion = "tamerlane-selfplay/1"
