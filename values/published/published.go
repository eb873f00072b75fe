// Package published loads published piece values for chess variants from
// YAML files (one file per variant, normally data/published/*.yaml at the
// repository root) so that tuned values can be compared with them.
//
// # File format
//
// Files are decoded strictly (unknown fields are errors) and validated;
// every error names the file and, where possible, the line.
//
//	variant: tamerlane2            # required, unique across all files
//	name: Tamerlane II             # optional display name
//	description: free text         # optional
//	cited_scale: "Q=9.5"           # optional: the scale people cite the values in, when not P=1, N=1 or R=5
//	pieces:                        # required: every letter used below
//	  - {letter: P, name: pawn}
//	sources:                       # required
//	  - id: cazaux-zillions        # unique within the file
//	    citation: "author, title, where, year"   # required
//	    url: https://...           # optional
//	    kind: engine-guess         # measured | estimate | ranking | engine-guess | formula
//	    note: free text            # optional
//	    provenance: {...}          # optional, kind measured only (below)
//	values:
//	  - {piece: P, value: 0.6, source: cazaux-zillions, scale: "R=5"}
//	  - {piece: G, rank: 2, source: some-ranking, note: "..."}
//	  - {piece: N, value: 2.9, lo: 2.7, hi: 3.1, source: regression, scale: "P=1"}
//
// A value entry carries either a numeric value with a scale, or a rank
// (1 = strongest) without a value. The scale "X=v" says in which units the
// number is expressed: piece X is worth v in them. All numeric entries of
// one source with the same scale form one value system; if that system
// lists X itself, its value must equal v. Each (piece, source, scale) may
// appear once: a source may state a piece in several scales, as a
// measurement does whose interval in one scale is not its interval in
// another rescaled (the reference piece's own uncertainty enters).
//
// A numeric value may carry a 95% interval, lo ≤ value ≤ hi (both or
// neither). A measured source may carry its provenance (Provenance): the
// method, the measurement config and its SHA-256, the games and
// positions, the engine build, the date and the node budget; this is how
// the atlas of this project's own measurements (data/measured) records
// where its figures come from.
//
// Kinds: measured (statistics over games or computer self-play), estimate
// (an expert's or historical author's judgement), ranking (an order without
// numbers), engine-guess (a program's built-in heuristic, such as the
// values Zillions of Games derives from mobility) and formula (a published
// rule that gives a value from a piece's moves, such as H. G. Muller's
// short-range leaper formula, fitted to measurements elsewhere).
//
// # Normalisation
//
// Values are returned in a requested Scale such as PawnOne ("P=1"),
// KnightOne ("N=1") or RookFive ("R=5"). Converting a value needs the
// reference piece's value in the same system; values whose system lacks the
// reference piece are not converted and are skipped by lookups.
package published

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"tamerlane/data"
	"tamerlane/internal/fsx"
	"tamerlane/internal/yamlx"
)

// Kind classifies a source.
type Kind string

// Source kinds.
const (
	Measured    Kind = "measured"
	Estimate    Kind = "estimate"
	Ranking     Kind = "ranking"
	EngineGuess Kind = "engine-guess"
	Formula     Kind = "formula"
)

func (k Kind) valid() bool {
	switch k {
	case Measured, Estimate, Ranking, EngineGuess, Formula:
		return true
	}
	return false
}

// Scale names a unit system as "X=v": piece X is worth v.
type Scale string

// Common reference scales.
const (
	PawnOne   Scale = "P=1"
	KnightOne Scale = "N=1"
	RookFive  Scale = "R=5"
)

// Parse splits the scale into its piece letter and value.
func (s Scale) Parse() (piece string, value float64, err error) {
	p, v, ok := strings.Cut(string(s), "=")
	p = strings.TrimSpace(p)
	if !ok || p == "" {
		return "", 0, fmt.Errorf("scale %q: want PIECE=VALUE", string(s))
	}
	value, err = strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(value > 0) || math.IsInf(value, 0) {
		return "", 0, fmt.Errorf("scale %q: value must be a positive number", string(s))
	}
	return p, value, nil
}

// Piece is a piece letter and its name.
type Piece struct {
	Letter string // letter used in the files, e.g. "N"
	Name   string // e.g. "knight"
}

// Source is a publication or program the values come from.
type Source struct {
	ID       string // short identifier, unique within its file
	Citation string // bibliographic citation
	URL      string // optional link
	Kind     Kind   // how the values were obtained
	Note     string // caveats
	// Provenance records how a measured source was measured (nil: not
	// recorded).
	Provenance *Provenance
}

// Entry is one value or rank from a source.
type Entry struct {
	Piece    string  // piece letter
	HasValue bool    // false for rank-only entries
	Value    float64 // in units of Scale; meaningful when HasValue
	// HasInterval says that Lo and Hi bound a 95% interval of Value (in
	// units of Scale).
	HasInterval bool
	Lo, Hi      float64
	Scale       Scale  // empty for rank-only entries
	Rank        int    // 1 = strongest; 0 when not ranked
	Source      string // source id
	Note        string // caveats for this entry
	Line        int    // line in the file
}

// Table holds the published values of one variant.
type Table struct {
	Variant     string // variant id, e.g. "tamerlane2"
	Name        string // display name
	Description string // free text
	// CitedScale is the scale people cite this variant's values in when
	// it is not one of the standard ones (P=1, N=1, R=5): Capablanca's
	// Archbishop and Chancellor are compared with the Queen, Q=9.5 as in
	// Muller's figures ("": the first standard scale of the entries).
	CitedScale Scale
	File       string   // file name the table was loaded from
	Pieces     []Piece  // declared pieces, in file order
	Sources    []Source // sources, in file order
	Entries    []Entry  // values and ranks, in file order
}

// Value is a published value converted to a requested scale.
type Value struct {
	Piece  string  // piece letter
	Value  float64 // value in the requested scale
	Source Source  // where it was published
	Note   string  // the entry's note
	// HasInterval says that Lo and Hi bound its 95% interval in the
	// requested scale: set when the entry has one and is stated in that
	// scale or converted by a constant (the requested scale's piece is its
	// own system's scale piece), never when the conversion divides by
	// another uncertain value.
	HasInterval bool
	Lo, Hi      float64
}

// Catalog maps variant names to their tables.
type Catalog map[string]*Table

// Source returns the source with the given id.
func (t *Table) Source(id string) (Source, bool) {
	i := slices.IndexFunc(t.Sources, func(s Source) bool { return s.ID == id })
	if i < 0 {
		return Source{}, false
	}
	return t.Sources[i], true
}

// PieceName returns the name of the piece with the given letter.
func (t *Table) PieceName(letter string) (string, bool) {
	i := slices.IndexFunc(t.Pieces, func(p Piece) bool { return p.Letter == letter })
	if i < 0 {
		return "", false
	}
	return t.Pieces[i].Name, true
}

// refValue returns the value of piece ref in the system (source, scale).
func (t *Table) refValue(source string, scale Scale, ref string) (float64, bool) {
	sp, sv, err := scale.Parse()
	if err != nil {
		return 0, false
	}
	if sp == ref {
		return sv, true
	}
	for _, e := range t.Entries {
		if e.HasValue && e.Source == source && e.Scale == scale && e.Piece == ref {
			return e.Value, true
		}
	}
	return 0, false
}

// Values returns every numeric value published for the piece, converted
// to the scale ref, in file order, one per source: the source's entry in
// ref itself when it has one, else its first entry whose system contains
// the reference piece. Values whose system does not contain the
// reference piece are omitted.
func (t *Table) Values(piece string, ref Scale) ([]Value, error) {
	rp, rv, err := ref.Parse()
	if err != nil {
		return nil, err
	}
	var out []Value
	for _, e := range t.Entries {
		if !e.HasValue || e.Piece != piece {
			continue
		}
		if e.Scale != ref && t.hasEntry(piece, e.Source, ref) {
			continue // the source states the piece in ref itself
		}
		base, ok := t.refValue(e.Source, e.Scale, rp)
		if !ok || slices.ContainsFunc(out, func(v Value) bool { return v.Source.ID == e.Source }) {
			continue
		}
		src, _ := t.Source(e.Source)
		v := Value{Piece: piece, Value: e.Value * rv / base, Source: src, Note: e.Note}
		if sp, _, _ := e.Scale.Parse(); e.HasInterval && sp == rp {
			v.HasInterval, v.Lo, v.Hi = true, e.Lo*rv/base, e.Hi*rv/base
		}
		out = append(out, v)
	}
	return out, nil
}

// hasEntry reports whether source states piece's value in scale sc.
func (t *Table) hasEntry(piece, source string, sc Scale) bool {
	return slices.ContainsFunc(t.Entries, func(e Entry) bool {
		return e.HasValue && e.Piece == piece && e.Source == source && e.Scale == sc
	})
}

// Value returns the first value (in file order, which expresses
// preference) published for the piece that can be expressed in the scale
// ref, and its source.
func (t *Table) Value(piece string, ref Scale) (float64, Source, bool) {
	vs, err := t.Values(piece, ref)
	if err != nil || len(vs) == 0 {
		return 0, Source{}, false
	}
	return vs[0].Value, vs[0].Source, true
}

// Value looks up the preferred published value of a piece of a variant in
// the scale ref (see Table.Value).
func (c Catalog) Value(variant, piece string, ref Scale) (float64, Source, bool) {
	t, ok := c[variant]
	if !ok {
		return 0, Source{}, false
	}
	return t.Value(piece, ref)
}

// Embedded returns the published values embedded in the binary
// (data/published): the one catalogue the commands and the pipeline use.
func Embedded() (Catalog, error) {
	sub, err := fs.Sub(data.Published, "published")
	if err != nil {
		return nil, err
	}
	return LoadFS(sub)
}

// EmbeddedMeasured returns the atlas of this project's own measurements
// embedded in the binary (data/measured, one file per variant in this
// package's format, with intervals and provenance): empty while no
// variant has been measured.
func EmbeddedMeasured() (Catalog, error) {
	sub, err := fs.Sub(data.Measured, "measured")
	if err != nil {
		return nil, err
	}
	names, err := fs.Glob(sub, "*.yaml")
	if err != nil || len(names) == 0 {
		return Catalog{}, err
	}
	return LoadFS(sub)
}

// LoadFile reads one file of this format, such as an atlas file
// (data/measured/<variant>.yaml), as Load reads each of its files.
func LoadFile(path string) (*Table, error) {
	b, err := fsx.ReadFile(path, fsx.MaxConfigBytes)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Load reads every *.yaml file in dir (see LoadFS). Each must be a
// regular file of at most fsx.MaxConfigBytes (a named pipe or a device
// is refused, not read).
func Load(dir string) (Catalog, error) {
	return load(os.DirFS(dir), func(name string) ([]byte, error) {
		return fsx.ReadFile(filepath.Join(dir, name), fsx.MaxConfigBytes)
	})
}

// LoadFS reads every *.yaml file at the root of fsys, e.g. an embed.FS or
// os.DirFS. Variant names must be unique across files.
func LoadFS(fsys fs.FS) (Catalog, error) {
	return load(fsys, func(name string) ([]byte, error) { return fs.ReadFile(fsys, name) })
}

// load reads, with read, every *.yaml file at the root of fsys.
func load(fsys fs.FS, read func(name string) ([]byte, error)) (Catalog, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, errors.New("published: no *.yaml files")
	}
	cat := make(Catalog, len(names))
	for _, name := range names {
		data, err := read(name)
		if err != nil {
			return nil, err
		}
		t, err := Parse(name, data)
		if err != nil {
			return nil, err
		}
		if prev, dup := cat[t.Variant]; dup {
			return nil, fmt.Errorf("%s: variant %q already defined in %s", name, t.Variant, prev.File)
		}
		cat[t.Variant] = t
	}
	return cat, nil
}

// File-level YAML types; Parse converts them into the exported ones.
type filePiece struct {
	Letter string `yaml:"letter"`
	Name   string `yaml:"name"`
}

type fileSource struct {
	ID         string      `yaml:"id"`
	Citation   string      `yaml:"citation"`
	URL        string      `yaml:"url,omitempty"`
	Kind       Kind        `yaml:"kind"`
	Note       string      `yaml:"note,omitempty"`
	Provenance *Provenance `yaml:"provenance,omitempty"`
}

type fileValue struct {
	Piece  string   `yaml:"piece"`
	Value  *float64 `yaml:"value,omitempty"`
	Lo     *float64 `yaml:"lo,omitempty"`
	Hi     *float64 `yaml:"hi,omitempty"`
	Rank   *int     `yaml:"rank,omitempty"`
	Source string   `yaml:"source"`
	Scale  Scale    `yaml:"scale,omitempty"`
	Note   string   `yaml:"note,omitempty"`
}

type fileDoc struct {
	Variant     string       `yaml:"variant"`
	Name        string       `yaml:"name,omitempty"`
	Description string       `yaml:"description,omitempty"`
	CitedScale  Scale        `yaml:"cited_scale,omitempty"`
	Pieces      []filePiece  `yaml:"pieces"`
	Sources     []fileSource `yaml:"sources"`
	Values      []fileValue  `yaml:"values"`
}

// Parse decodes and validates one YAML document; name is used in errors
// and stored as Table.File.
func Parse(name string, data []byte) (*Table, error) {
	// One document only: the strict decoder reads the first.
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first, extra yaml.Node
	if err := dec.Decode(&first); errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file", name)
	}
	if err := dec.Decode(&extra); err == nil {
		return nil, fmt.Errorf("%s:%d: only one YAML document is allowed", name, extra.Line)
	}
	var doc fileDoc
	src, err := yamlx.Decode(data, name, &doc)
	if err != nil {
		return nil, err
	}
	errf := func(section string, i int, format string, args ...any) error {
		path := section
		if i >= 0 {
			path = fmt.Sprintf("%s[%d]", section, i)
		}
		return fmt.Errorf("%s:%d: %s", name, max(src.Line(path), 1), fmt.Sprintf(format, args...))
	}

	t := &Table{Variant: doc.Variant, Name: doc.Name, Description: doc.Description, CitedScale: doc.CitedScale, File: path.Base(name)}
	if strings.TrimSpace(doc.Variant) == "" {
		return nil, errf("variant", -1, "missing variant")
	}
	if len(doc.Pieces) == 0 {
		return nil, errf("pieces", -1, "no pieces declared")
	}
	for i, p := range doc.Pieces {
		if p.Letter == "" || p.Name == "" {
			return nil, errf("pieces", i, "piece needs a letter and a name")
		}
		if _, dup := t.PieceName(p.Letter); dup {
			return nil, errf("pieces", i, "piece letter %q declared twice", p.Letter)
		}
		t.Pieces = append(t.Pieces, Piece(p))
	}
	if doc.CitedScale != "" {
		sp, _, err := doc.CitedScale.Parse()
		if err != nil {
			return nil, errf("cited_scale", -1, "%v", err)
		}
		if _, ok := t.PieceName(sp); !ok {
			return nil, errf("cited_scale", -1, "scale %q: piece %q is not declared", doc.CitedScale, sp)
		}
	}
	if len(doc.Sources) == 0 {
		return nil, errf("sources", -1, "no sources")
	}
	for i, s := range doc.Sources {
		switch {
		case s.ID == "":
			return nil, errf("sources", i, "source without id")
		case strings.TrimSpace(s.Citation) == "":
			return nil, errf("sources", i, "source %q has no citation", s.ID)
		case !s.Kind.valid():
			return nil, errf("sources", i, "source %q: kind %q is not one of measured, estimate, ranking, engine-guess, formula", s.ID, s.Kind)
		}
		if _, dup := t.Source(s.ID); dup {
			return nil, errf("sources", i, "source id %q declared twice", s.ID)
		}
		if s.Provenance != nil {
			if s.Kind != Measured {
				return nil, errf("sources", i, "source %q: provenance is for measured sources, not %s", s.ID, s.Kind)
			}
			if err := s.Provenance.check(); err != nil {
				return nil, errf("sources", i, "source %q: provenance: %v", s.ID, err)
			}
		}
		t.Sources = append(t.Sources, Source(s))
	}
	type key struct {
		piece, source string
		scale         Scale
	}
	seen := map[key]bool{}
	for i, v := range doc.Values {
		if _, ok := t.PieceName(v.Piece); !ok {
			return nil, errf("values", i, "undeclared piece %q", v.Piece)
		}
		if _, ok := t.Source(v.Source); !ok {
			return nil, errf("values", i, "unknown source %q", v.Source)
		}
		if seen[key{v.Piece, v.Source, v.Scale}] {
			return nil, errf("values", i, "piece %q from source %q listed twice", v.Piece, v.Source)
		}
		seen[key{v.Piece, v.Source, v.Scale}] = true
		e := Entry{Piece: v.Piece, Source: v.Source, Note: v.Note, Scale: v.Scale}
		e.Line = src.Line(fmt.Sprintf("values[%d]", i))
		switch {
		case (v.Value == nil) == (v.Rank == nil):
			return nil, errf("values", i, "entry needs exactly one of value and rank")
		case v.Rank != nil:
			if *v.Rank < 1 {
				return nil, errf("values", i, "rank %d, want ≥ 1", *v.Rank)
			}
			if v.Scale != "" {
				return nil, errf("values", i, "a rank-only entry takes no scale")
			}
			e.Rank = *v.Rank
		default:
			if !(*v.Value > 0) || math.IsInf(*v.Value, 0) {
				return nil, errf("values", i, "value %v, want a positive number", *v.Value)
			}
			sp, _, err := v.Scale.Parse()
			if err != nil {
				return nil, errf("values", i, "%v", err)
			}
			if _, ok := t.PieceName(sp); !ok {
				return nil, errf("values", i, "scale %q refers to undeclared piece %q", v.Scale, sp)
			}
			e.HasValue, e.Value = true, *v.Value
		}
		if v.Lo != nil || v.Hi != nil {
			if err := checkInterval(v.Value, v.Lo, v.Hi); err != nil {
				return nil, errf("values", i, "%v", err)
			}
			e.HasInterval, e.Lo, e.Hi = true, *v.Lo, *v.Hi
		}
		t.Entries = append(t.Entries, e)
	}
	// A system listing its own scale piece must agree with the scale.
	for _, e := range t.Entries {
		if !e.HasValue {
			continue
		}
		sp, sv, _ := e.Scale.Parse()
		if e.Piece == sp && e.Value != sv {
			return nil, fmt.Errorf("%s:%d: %s = %v contradicts scale %q of source %q", name, e.Line, e.Piece, e.Value, e.Scale, e.Source)
		}
	}
	return t, nil
}
