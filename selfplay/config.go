package selfplay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"tamerlane/engine"
	"tamerlane/selfplay/elo"
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
//	imbalances:
//	  - {name: "N vs C", variant: tamerlane2, first_removes: [N], second_removes: [C], pairs: 20}
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
	// the pair's first game move for move in self-play. 0 disables it.
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
	// Rules are rule options "k=v,k=v" (RULES.md 3.8).
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
// for any pawn in variants without a "P" token. The piece removed is
// chosen deterministically: White's pieces are scanned from rank 1 up and
// each rank from file a; Black's are scanned from its own back rank down,
// each rank from file a when Black's array is White's mirrored across the
// middle rank and from the last file when it is White's rotated by 180
// degrees (the Tamerlane arrays), so that both colours lose the same
// piece of their array. The first match not yet removed goes. Castling
// rights whose rook is removed are dropped.
type ImbalanceConfig struct {
	// Name names the stream (required).
	Name string `yaml:"name"`
	// Variant is the variant's name.
	Variant string `yaml:"variant"`
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
}

// MatchConfig is a stream of player A (first) against player B (second),
// with an optional SPRT stop.
type MatchConfig struct {
	// Name names the stream (default "match-<variant>").
	Name string `yaml:"name,omitempty"`
	// Variant is the variant's name.
	Variant string `yaml:"variant"`
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
	Elo0 float64 `yaml:"elo0"`
	// Elo1 is H1's Elo.
	Elo1 float64 `yaml:"elo1"`
	// Alpha is the type I error (default 0.05).
	Alpha float64 `yaml:"alpha"`
	// Beta is the type II error (default 0.05).
	Beta float64 `yaml:"beta"`
	// Model is elo.ModelNormalized (default) or elo.ModelLogistic.
	Model string `yaml:"model"`
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
// when unknown) and the field's path, e.g. "variants[1].pairs".
type ConfigError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

// Error formats the mistake as "file:line: field: message".
func (e *ConfigError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Source remembers where each field of a YAML configuration file was, so
// that errors name the file, the line and the field. DecodeStrict makes
// one; the pipeline's configuration uses it too.
type Source struct {
	file  string
	dir   string
	lines map[string]int // field path -> line of its key (or item)
	nodes []nodeAt       // every node, for mapping decoder errors to fields
}

type nodeAt struct {
	path  string
	line  int
	key   bool
	kind  yaml.Kind
	value string
}

// LoadConfig reads a YAML configuration strictly and validates it. Errors
// name the file, the line and the field. Relative paths in the file are
// taken relative to the file's directory.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := ParseConfig(data, path)
	if err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

var lineMsg = regexp.MustCompile(`^line (\d+): (.*)$`)

// ParseConfig decodes YAML configuration data strictly (unknown fields,
// wrong types and repeated keys are errors naming file, line and field)
// without validating it; name is the file name used in errors and for
// relative paths.
func ParseConfig(data []byte, name string) (*Config, error) {
	c := &Config{}
	src, err := DecodeStrict(data, name, c)
	if err != nil {
		return nil, err
	}
	c.src = src
	return c, nil
}

// DecodeStrict decodes YAML data into v strictly (unknown fields, wrong
// types and repeated keys are errors) and returns where each field was;
// every error is a *ConfigError naming the file, line and field, several
// joined with errors.Join. name is the file name used in errors and for
// relative paths. Empty data leaves v unchanged.
func DecodeStrict(data []byte, name string, v any) (*Source, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		abs = name
	}
	src := &Source{file: name, dir: filepath.Dir(abs), lines: map[string]int{}}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlSyntaxError(name, err)
	}
	src.index(&root, "")
	if len(root.Content) == 0 {
		return src, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return nil, yamlSyntaxError(name, err)
		}
		var errs []error
		for _, msg := range te.Errors {
			errs = append(errs, src.decodeError(msg))
		}
		return nil, errors.Join(errs...)
	}
	return src, nil
}

// Has reports whether the file set the field at path (e.g. "verify.pairs",
// "variants[0].rules").
func (s *Source) Has(path string) bool {
	if s == nil {
		return false
	}
	_, ok := s.lines[path]
	return ok
}

// ErrAt builds a ConfigError for the field at path, with the line of the
// field or of its nearest ancestor present in the file.
func (s *Source) ErrAt(path, format string, a ...any) *ConfigError {
	e := &ConfigError{Field: path, Msg: fmt.Sprintf(format, a...)}
	if s == nil {
		return e
	}
	e.File = s.file
	for p := path; p != ""; p = parentPath(p) {
		if l, ok := s.lines[p]; ok {
			e.Line = l
			break
		}
	}
	return e
}

func yamlSyntaxError(name string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := lineMsg.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &ConfigError{File: name, Line: line, Msg: m[2]}
	}
	return &ConfigError{File: name, Msg: msg}
}

// index records the path and line of every node.
func (s *Source) index(n *yaml.Node, path string) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			s.index(c, path)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			if _, dup := s.lines[p]; !dup {
				s.lines[p] = k.Line
			}
			s.nodes = append(s.nodes, nodeAt{path: p, line: k.Line, key: true, kind: k.Kind, value: k.Value})
			s.nodes = append(s.nodes, nodeAt{path: p, line: v.Line, kind: v.Kind, value: v.Value})
			s.index(v, p)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			s.lines[p] = c.Line
			s.nodes = append(s.nodes, nodeAt{path: p, line: c.Line, kind: c.Kind, value: c.Value})
			s.index(c, p)
		}
	}
}

var (
	reUnknown = regexp.MustCompile("^field (.*) not found in type (.*)$")
	reType    = regexp.MustCompile("^cannot unmarshal (!!\\w+)(?: `(.*)`)? into (.*)$")
	reDupKey  = regexp.MustCompile(`^mapping key "(.*)" already defined at line (\d+)$`)
)

// decodeError turns one of the decoder's "line N: ..." messages into a
// ConfigError naming the field.
func (s *Source) decodeError(msg string) error {
	m := lineMsg.FindStringSubmatch(msg)
	if m == nil {
		return &ConfigError{File: s.file, Msg: msg}
	}
	line, _ := strconv.Atoi(m[1])
	rest := m[2]
	find := func(key bool, match func(nodeAt) bool) string {
		for _, n := range s.nodes {
			if n.line == line && n.key == key && match(n) {
				return n.path
			}
		}
		return ""
	}
	e := &ConfigError{File: s.file, Line: line, Msg: rest}
	switch {
	case reUnknown.MatchString(rest):
		mm := reUnknown.FindStringSubmatch(rest)
		e.Field = find(true, func(n nodeAt) bool { return n.value == mm[1] })
		e.Msg = "unknown field " + strconv.Quote(mm[1])
	case reType.MatchString(rest):
		mm := reType.FindStringSubmatch(rest)
		val := strings.TrimSuffix(mm[2], "...")
		e.Field = find(false, func(n nodeAt) bool {
			switch mm[1] {
			case "!!seq":
				return n.kind == yaml.SequenceNode
			case "!!map":
				return n.kind == yaml.MappingNode
			}
			return n.kind == yaml.ScalarNode && strings.HasPrefix(n.value, val)
		})
		want := mm[3]
		if i := strings.LastIndex(want, "."); i >= 0 {
			want = want[i+1:]
		}
		if strings.HasPrefix(mm[3], "[]") {
			want = "a list"
		} else if strings.HasPrefix(mm[3], "map[") || strings.HasSuffix(want, "Config") || strings.HasSuffix(want, "Adjudication") || want == "Shard" {
			want = "a mapping"
		}
		got := mm[1]
		if mm[2] != "" {
			got += " " + strconv.Quote(mm[2])
		}
		e.Msg = fmt.Sprintf("wrong type: want %s, got %s", want, got)
	case reDupKey.MatchString(rest):
		mm := reDupKey.FindStringSubmatch(rest)
		e.Field = find(true, func(n nodeAt) bool { return n.value == mm[1] })
		e.Msg = fmt.Sprintf("field %q given twice (first at line %s)", mm[1], mm[2])
	}
	return e
}

// has reports whether the config file set the field at path.
func (c *Config) has(path string) bool { return c.src.Has(path) }

// errAt builds a ConfigError for the field at path (see Source.ErrAt).
func (c *Config) errAt(path, format string, a ...any) *ConfigError {
	return c.src.ErrAt(path, format, a...)
}

func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

// resolve makes a path from the config file absolute.
func (c *Config) resolve(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if c.src != nil {
		return filepath.Join(c.src.dir, p)
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// Defaults.
const (
	defaultNodes       = 5000
	defaultTTMiB       = 4
	defaultNodesJitter = 0.1
	defaultMaxPlies    = 400
	defaultWalkPlies   = 8
	defaultMaxScore    = 150
	defaultScoreNodes  = 500
	defaultAttempts    = 64
)

// setDefaults fills in the fields the file (or code) left out. A config
// built in code has its zero values replaced where zero is not meaningful.
func (c *Config) setDefaults() {
	unset := func(path string, zero bool) bool {
		if c.src != nil {
			return !c.has(path)
		}
		return zero
	}
	if unset("nodes", c.Nodes == 0) && unset("depth", c.Depth == 0) && c.Nodes == 0 && c.Depth == 0 {
		c.Nodes = defaultNodes
	}
	if c.src != nil && !c.has("nodes_jitter") {
		c.NodesJitter = defaultNodesJitter
	}
	if unset("tt_mib", c.TTMiB == 0) {
		c.TTMiB = defaultTTMiB
	}
	if unset("max_plies", c.MaxPlies == 0) {
		c.MaxPlies = defaultMaxPlies
	}
	o := &c.Openings
	if c.src != nil {
		if !c.has("openings.plies") {
			o.Plies = defaultWalkPlies
		}
		if !c.has("openings.max_score") {
			o.MaxScore = defaultMaxScore
		}
		if !c.has("openings.material") {
			o.Material = true
		}
	}
	if unset("openings.score_nodes", o.ScoreNodes == 0) {
		o.ScoreNodes = defaultScoreNodes
	}
	if unset("openings.attempts", o.Attempts == 0) {
		o.Attempts = defaultAttempts
	}
	if c.src != nil {
		a := &c.Adjudication
		if !c.has("adjudication.draw.move_number") {
			a.Draw.MoveNumber = 40
		}
		if !c.has("adjudication.draw.move_count") {
			a.Draw.MoveCount = 8
		}
		if !c.has("adjudication.draw.score") {
			a.Draw.Score = 10
		}
		if !c.has("adjudication.resign.move_count") {
			a.Resign.MoveCount = 3
		}
		if !c.has("adjudication.resign.score") {
			a.Resign.Score = 1000
		}
		if !c.has("adjudication.resign.two_sided") {
			a.Resign.TwoSided = true
		}
		d := &c.Dataset
		if !c.has("dataset.positions_per_game") {
			d.PositionsPerGame = 10
		}
		if !c.has("dataset.skip_plies") {
			d.SkipPlies = 16
		}
		if !c.has("dataset.skip_in_check") {
			d.SkipInCheck = true
		}
	}
	for i := range c.Matches {
		if s := c.Matches[i].SPRT; s != nil {
			p := fmt.Sprintf("matches[%d].sprt.", i)
			if unset(p+"alpha", s.Alpha == 0) {
				s.Alpha = 0.05
			}
			if unset(p+"beta", s.Beta == 0) {
				s.Beta = 0.05
			}
			if s.Model == "" {
				s.Model = string(elo.ModelNormalized)
			}
		}
	}
}

// DefaultConfig returns a configuration with every default set and no
// streams, for building runs in code.
func DefaultConfig() *Config {
	c := &Config{src: &Source{lines: map[string]int{}}}
	c.setDefaults()
	c.src = nil
	return c
}

// Validate fills in defaults, resolves relative paths and checks the
// configuration: numbers in range, known variants and rule options,
// existing table and opening files with valid FENs, removable imbalance
// pieces, unique stream names, a valid SPRT. All mistakes are reported
// together, each naming file, line and field.
func (c *Config) Validate() error {
	c.setDefaults()
	var errs []*ConfigError
	bad := func(path, format string, a ...any) { errs = append(errs, c.errAt(path, format, a...)) }
	nonNeg := func(path string, v int64) {
		if v < 0 {
			bad(path, "must not be negative (got %d)", v)
		}
	}
	nonNeg("workers", int64(c.Workers))
	nonNeg("nodes", c.Nodes)
	nonNeg("depth", int64(c.Depth))
	if c.Nodes == 0 && c.Depth == 0 {
		bad("nodes", "set a node limit (nodes) or a depth limit (depth): time limits are not reproducible")
	}
	if !(c.NodesJitter >= 0 && c.NodesJitter < 1) {
		bad("nodes_jitter", "must be in [0, 1) (got %v)", c.NodesJitter)
	}
	if c.TTMiB < 1 {
		bad("tt_mib", "must be at least 1 (got %d)", c.TTMiB)
	}
	if c.MaxPlies < 1 {
		bad("max_plies", "must be at least 1 (got %d)", c.MaxPlies)
	}
	nonNeg("openings.plies", int64(c.Openings.Plies))
	nonNeg("openings.max_score", int64(c.Openings.MaxScore))
	if c.Openings.ScoreNodes < 1 {
		bad("openings.score_nodes", "must be at least 1 (got %d)", c.Openings.ScoreNodes)
	}
	if c.Openings.Attempts < 1 {
		bad("openings.attempts", "must be at least 1 (got %d)", c.Openings.Attempts)
	}
	nonNeg("adjudication.draw.move_number", int64(c.Adjudication.Draw.MoveNumber))
	nonNeg("adjudication.draw.move_count", int64(c.Adjudication.Draw.MoveCount))
	nonNeg("adjudication.draw.score", int64(c.Adjudication.Draw.Score))
	nonNeg("adjudication.resign.move_count", int64(c.Adjudication.Resign.MoveCount))
	if c.Adjudication.Resign.MoveCount > 0 && c.Adjudication.Resign.Score < 1 {
		bad("adjudication.resign.score", "must be positive (got %d)", c.Adjudication.Resign.Score)
	}
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
	variant := func(path, name, rules string) *engine.Variant {
		if name == "" {
			bad(path+".variant", "required (one of %s)", strings.Join(engine.VariantNames(), ", "))
			return nil
		}
		known := false
		for _, n := range engine.VariantNames() {
			known = known || n == name
		}
		if !known {
			bad(path+".variant", "unknown variant %q (known: %s)", name, strings.Join(engine.VariantNames(), ", "))
			return nil
		}
		opts, err := engine.ParseOptions(rules)
		if err != nil {
			bad(path+".rules", "%v", err)
			return nil
		}
		v, err := engine.NewVariant(name, opts)
		if err != nil {
			bad(path+".rules", "%v", err)
			return nil
		}
		return v
	}
	pairs := func(path string, n int) {
		if n <= 0 {
			bad(path+".pairs", "must be positive (got %d)", n)
		}
	}
	file := func(path string, p *string) {
		if *p == "" {
			return
		}
		*p = c.resolve(*p)
		st, err := os.Stat(*p)
		switch {
		case err != nil:
			bad(path, "%v", err)
		case st.IsDir():
			bad(path, "%s is a directory", *p)
		}
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
		if _, err := readOpenings(v, *p); err != nil {
			bad(path, "%v", err)
		}
	}
	for i := range c.Variants {
		e := &c.Variants[i]
		path := fmt.Sprintf("variants[%d]", i)
		v := variant(path, e.Variant, e.Rules)
		pairs(path, e.Pairs)
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
		path := fmt.Sprintf("imbalances[%d]", i)
		if e.Name == "" {
			bad(path+".name", "required")
		}
		v := variant(path, e.Variant, e.Rules)
		pairs(path, e.Pairs)
		file(path+".table", &e.Table)
		if len(e.FirstRemoves) == 0 && len(e.SecondRemoves) == 0 {
			bad(path, "first_removes and second_removes are both empty")
		}
		if v != nil {
			for g := 0; g < 2; g++ {
				if _, err := imbalanceFEN(v, e.FirstRemoves, e.SecondRemoves, g == 1); err != nil {
					bad(path+"."+err.field, "%v", err.err)
					break
				}
			}
		}
		claim(path, e.Name)
	}
	for i := range c.Matches {
		e := &c.Matches[i]
		path := fmt.Sprintf("matches[%d]", i)
		v := variant(path, e.Variant, e.Rules)
		pairs(path, e.Pairs)
		file(path+".a", &e.A)
		file(path+".b", &e.B)
		if err := e.EngineA.check(); err != nil {
			bad(path+".a_engine", "%v", err)
		}
		if err := e.EngineB.check(); err != nil {
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
	if len(errs) == 0 {
		return nil
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return errors.Join(out...)
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
	digest := func(p *string) error {
		if *p == "" {
			return nil
		}
		data, err := os.ReadFile(*p)
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
	for i := range cp.Variants {
		errs = append(errs, digest(&cp.Variants[i].Table), digest(&cp.Variants[i].OpeningsFile))
	}
	for i := range cp.Imbalances {
		errs = append(errs, digest(&cp.Imbalances[i].Table))
	}
	for i := range cp.Matches {
		errs = append(errs, digest(&cp.Matches[i].A), digest(&cp.Matches[i].B), digest(&cp.Matches[i].OpeningsFile))
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

// formatVersion names the journal and output formats; it is part of the
// configuration hash.
const formatVersion = "tamerlane-selfplay/1"
