package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"tamerlane/data"
	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/internal/yamlx"
)

// Provenance says where a table's numbers come from. Source and Date are
// required; the rest is optional (a tuner records its run, the number of
// positions and the final loss).
type Provenance struct {
	Source    string  // e.g. "hand values" or "texel tuning"
	Date      string  // e.g. "2025-06-01"
	Notes     string  // free text: the references for the numbers
	Run       string  // optional: the tuning run's name
	Positions int64   // optional: positions used to tune (0: not given)
	Loss      float64 // optional: final loss (0: not given)
}

// Weights is an eval table: one number per weight of the variant's
// registry, with its provenance.
type Weights struct {
	Provenance Provenance
	// Values holds the weights in registry order (Registry().Name(i)).
	// Change them only before building an Evaluator: New copies them.
	Values []float64
	reg    *Registry
}

// NewWeights returns an all-zero table for v's variant.
func NewWeights(v *engine.Variant) *Weights {
	r := RegistryOf(v)
	return &Weights{Values: make([]float64, r.Len()), reg: r}
}

// Registry returns the table's registry.
func (w *Weights) Registry() *Registry { return w.reg }

// Variant returns the name of the table's variant.
func (w *Weights) Variant() string { return w.reg.variant }

// Get returns the named weight.
func (w *Weights) Get(name string) (float64, bool) {
	i, ok := w.reg.index[name]
	if !ok {
		return 0, false
	}
	return w.Values[i], true
}

// MaxWeight bounds the magnitude of every weight, in centipawns per unit
// of its feature (100 pawns). The evaluator sums weights times features in
// 64-bit fixed point (2^20 per centipawn, times the phase); under this
// bound the sum cannot overflow, where a weight of 1e12 made a pawn up
// score -30744. Tables outside it are refused at load.
const MaxWeight = 10000

// checkWeight says whether x is a usable weight value.
func checkWeight(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > MaxWeight {
		return fmt.Errorf("value %v out of range: weights must lie within ±%d centipawns", x, MaxWeight)
	}
	return nil
}

// Set sets the named weight; it must be finite and within ±MaxWeight.
func (w *Weights) Set(name string, x float64) error {
	i, ok := w.reg.index[name]
	if !ok {
		return fmt.Errorf("eval: %s has no weight %q", w.reg.variant, name)
	}
	if err := checkWeight(x); err != nil {
		return fmt.Errorf("eval: %s weight %s: %w", w.reg.variant, name, err)
	}
	w.Values[i] = x
	return nil
}

// Clone returns an independent copy.
func (w *Weights) Clone() *Weights {
	c := *w
	c.Values = append([]float64(nil), w.Values...)
	return &c
}

// Default returns the variant's default table, embedded from
// data/weights/<variant>.yaml for a built-in variant; any other variant's
// default is its derived hand table (Derived).
func Default(v *engine.Variant) (*Weights, error) {
	if !isBuiltin(v) {
		return Derived(v), nil
	}
	return embedded(data.Weights, "weights", "default", v)
}

// DefaultDigest returns the digest (Weights.Digest) of the variant's
// embedded default table, the one Default loads: run directories record it
// so that a run resumed by a binary embedding another table is refused
// instead of mixing two players.
func DefaultDigest(v *engine.Variant) (string, error) {
	w, err := Default(v)
	if err != nil {
		return "", err
	}
	return w.Digest(), nil
}

// Digest returns "weights-sha256:" and the hex SHA-256 of what the table
// evaluates: its non-zero weights, by name. Two tables with the same
// digest evaluate every position alike; the provenance, the comments and a
// term added at weight 0 (which changes no evaluation) leave it unchanged.
func (w *Weights) Digest() string {
	return weightsDigest(w.reg.names, w.Values)
}

// weightsDigest is Digest of the weights names[i] = values[i].
func weightsDigest(names []string, values []float64) string {
	var lines []string
	for i, x := range values {
		if x != 0 {
			lines = append(lines, names[i]+" "+strconv.FormatFloat(x, 'g', -1, 64)+"\n")
		}
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "")))
	return "weights-sha256:" + hex.EncodeToString(sum[:])
}

// Hand returns the variant's hand table (data/hand/<variant>.yaml): the
// round-number table written before any tuning, which the embedded
// default replaced once a tuned table was applied. Tests use it where an
// evaluation must not change with the tuned tables. A variant that is not
// built in has its derived hand table (Derived).
func Hand(v *engine.Variant) (*Weights, error) {
	if !isBuiltin(v) {
		return Derived(v), nil
	}
	return embedded(data.Hand, "hand", "hand", v)
}

// embedded loads v's table from dir/<variant>.yaml of an embedded file
// system of package data; kind names the table in the error.
func embedded(fsys fs.FS, dir, kind string, v *engine.Variant) (*Weights, error) {
	path := dir + "/" + v.Name + ".yaml"
	b, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, fmt.Errorf("eval: no %s table for %s: %w", kind, v.Name, err)
	}
	return Load(v, bytes.NewReader(b), "data/"+path)
}

// LoadOrDefault loads the table at path, or the variant's embedded
// default table when path is empty: how every command and player resolves
// a --weights flag or a config's table.
func LoadOrDefault(v *engine.Variant, path string) (*Weights, error) {
	if path == "" {
		return Default(v)
	}
	return LoadFile(v, path)
}

// LoadFile loads a table from a file (see Load). The file must be a
// regular file of at most fsx.MaxConfigBytes: a named pipe or a device
// is refused before it is opened, not read until memory runs out.
func LoadFile(v *engine.Variant, path string) (*Weights, error) {
	b, err := fsx.ReadFile(path, fsx.MaxConfigBytes)
	if err != nil {
		return nil, err
	}
	return Load(v, bytes.NewReader(b), path)
}

// Load reads a table for v's variant in the schema that Write produces:
//
//	variant: chess
//	provenance:
//	  source: hand values
//	  date: "2025-06-01"
//	  notes: ...
//	weights:
//	  material.P.mg: 100
//	  ...
//
// It decodes through the project's strict YAML decoder (internal/yamlx):
// unknown keys, repeated keys, unknown or missing weight names, a
// different variant, values that are not numbers or lie outside
// ±MaxWeight, and a provenance without source or date are errors of the
// form "file:line: field: reason" (the file is name), all of them joined
// in line order.
func Load(v *engine.Variant, r io.Reader, name string) (*Weights, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var doc tableFile
	at, err := yamlx.Decode(src, name, &doc)
	if err != nil {
		return nil, err
	}
	if !at.Has("variant") {
		return nil, at.ErrAt("variant", "missing: the table's variant")
	}
	if doc.Variant != v.Name {
		return nil, at.ErrAt("variant", "table is for variant %q, want %q", doc.Variant, v.Name)
	}
	w := NewWeights(v)
	var errs []*yamlx.Error
	bad := func(path, format string, a ...any) { errs = append(errs, at.ErrAt(path, format, a...)) }
	p := doc.Provenance
	switch {
	case !at.Has("provenance"):
		bad("provenance", "missing: the table's source and date")
	case p.Source == "":
		bad("provenance.source", "missing: where the numbers come from")
	case p.Date == "":
		bad("provenance.date", "missing: when the numbers were made")
	}
	if p.Positions < 0 {
		bad("provenance.positions", "want a non-negative count, got %d", p.Positions)
	}
	if math.IsNaN(p.Loss) || math.IsInf(p.Loss, 0) {
		bad("provenance.loss", "want a finite number, got %v", p.Loss)
	}
	w.Provenance = p
	reg := w.reg
	for k, x := range doc.Weights {
		field := "weights." + k
		i, ok := reg.index[k]
		switch {
		case !ok:
			bad(field, "unknown weight %q for variant %s", k, reg.variant)
		case x == nil:
			bad(field, "no value: want a number")
		default:
			if err := checkWeight(*x); err != nil {
				bad(field, "%v", err)
			}
			w.Values[i] = *x
		}
	}
	var missing []string
	for _, name := range reg.names {
		if _, ok := doc.Weights[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		more := ""
		if len(missing) > 5 {
			more = fmt.Sprintf(" and %d more", len(missing)-5)
			missing = missing[:5]
		}
		bad("weights", "missing weight %s%s", strings.Join(missing, ", "), more)
	}
	if err := yamlx.Join(errs); err != nil {
		return nil, err
	}
	return w, nil
}

// tableFile is the schema of a table file, for yamlx. A weight's value
// is a pointer so that an empty one ("material.P.mg:") is told apart
// from 0.
type tableFile struct {
	Variant    string              `yaml:"variant"`
	Provenance Provenance          `yaml:"provenance"`
	Weights    map[string]*float64 `yaml:"weights"`
}

// Write writes the table in the schema Load reads, weights in registry
// order, each group headed by a comment, numbers in their shortest exact
// form so that Load reproduces them bit for bit.
func (w *Weights) Write(out io.Writer) error {
	r := w.reg
	if len(w.Values) != r.Len() {
		return fmt.Errorf("eval: table has %d values, %s has %d weights", len(w.Values), r.variant, r.Len())
	}
	for i, x := range w.Values {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("eval: weight %s is %v", r.names[i], x)
		}
	}
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	num := func(x float64) *yaml.Node {
		tag := "!!float"
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			tag, s = "!!int", strconv.FormatFloat(x, 'f', -1, 64)
		} else if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s}
	}
	prov := &yaml.Node{Kind: yaml.MappingNode}
	addPair := func(m *yaml.Node, k string, v *yaml.Node) *yaml.Node {
		kn := str(k)
		m.Content = append(m.Content, kn, v)
		return kn
	}
	p := w.Provenance
	addPair(prov, "source", str(p.Source))
	addPair(prov, "date", str(p.Date))
	if p.Notes != "" {
		n := str(p.Notes)
		if strings.Contains(p.Notes, "\n") {
			n.Style = yaml.LiteralStyle
		}
		addPair(prov, "notes", n)
	}
	if p.Run != "" {
		addPair(prov, "run", str(p.Run))
	}
	if p.Positions != 0 {
		addPair(prov, "positions", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(p.Positions, 10)})
	}
	if p.Loss != 0 {
		addPair(prov, "loss", num(p.Loss))
	}
	ws := &yaml.Node{Kind: yaml.MappingNode}
	lastKind := termKind(255)
	for i, name := range r.names {
		k := addPair(ws, name, num(w.Values[i]))
		tm := r.terms[i/2]
		if tm.kind != lastKind {
			k.HeadComment = kindComment[tm.kind]
			lastKind = tm.kind
		}
		if i%2 == 0 {
			if tm.piece != "" {
				k.LineComment = tm.piece
			} else {
				k.LineComment = tm.doc
			}
		}
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	vk := addPair(root, "variant", str(r.variant))
	vk.HeadComment = fmt.Sprintf("Evaluation table for %s. Written by (*eval.Weights).Write; read by eval.Load,\n"+
		"which is strict: every weight of the registry must be given exactly once.\n"+
		"Every weight is in centipawns (White's point of view) per unit of its feature;\n"+
		"the .mg weight counts in the middlegame and the .eg weight in the endgame, tapered\n"+
		"by the game phase (package tamerlane/engine/eval).", r.variant)
	addPair(root, "provenance", prov)
	addPair(root, "weights", ws)
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := out.Write(buf.Bytes())
	return err
}

var kindComment = map[termKind]string{
	kMaterial:   "Material: per piece on the board (White's minus Black's).",
	kMobility:   "Mobility: per square a piece can move to or capture on (pseudo-legal, approximate).",
	kCenter:     "Centrality: per step a piece stands away from the nearest edges (files plus ranks).",
	kAdvance:    "Advancement: per rank a piece stands from its own first rank.",
	kPassed:     "Passed pawns: per (relative rank)^2 of a pawn with no enemy pawn ahead on its own or an adjacent file.",
	kDoubled:    "Pawn structure.",
	kAttacked:   "Royal safety.",
	kExtraRoyal: "Extra royals.",
	kTempo:      "Side to move.",
	kZone:       "Attacks on the enemy royal's 3x3 neighbourhood, by attacker type.",
	kPassedGo:   "Passed pawns by ranks to go to promotion.",
	kPair:       "Pairs: colour-bound pieces on both colours of squares.",
	kOpenFile:   "Rook-like pieces (a forward capturing slide) on open and half-open files.",
	kThreat:     "Threats: pieces attacked by a cheaper piece.",
	kDanger:     "Royal danger: attacks on a royal's neighbourhood by several pieces at once.",
	kShield:     "Royal cover: friendly pawns in front of a royal, files beside it without them.",
	kCramped:    "Cramped pieces: mobility below a quarter of the piece's moves on an empty board.",
	kPassedPath: "Passed pawns near promotion: the royals' distances to the square in front, and whether it is empty.",
	kPawnChain:  "Pawn chains: pawns defended by a pawn, pawns side by side.",
	kChecks:     "Safe checks: squares from which a piece could check an enemy royal, unattacked by the enemy.",
	kUnsafe:     "Unsafe mobility: the part of a piece's mobility on squares an enemy pawn attacks.",
	kFileTable:  "Placement by file: per piece on a file, counted from the nearer edge (the edge file is the baseline).",
	kRankTable:  "Placement by rank: per piece on a rank, counted from its own side (the first rank is the baseline).",
}

// WriteFile writes the table to path atomically (see package fsx): a
// reader sees the old or the new complete table, never half of one.
func (w *Weights) WriteFile(path string) error {
	return fsx.Write(path, w.Write)
}

// Diff lists the weights that differ between two tables of one variant, as
// "name: a -> b" lines sorted by name (for logs and tests).
func Diff(a, b *Weights) ([]string, error) {
	if a.reg.variant != b.reg.variant {
		return nil, errors.New("eval: tables of different variants")
	}
	var out []string
	for i := range a.Values {
		if a.Values[i] != b.Values[i] {
			out = append(out, fmt.Sprintf("%s: %v -> %v", a.reg.names[i], a.Values[i], b.Values[i]))
		}
	}
	sort.Strings(out)
	return out, nil
}
