package published

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func loadReal(t *testing.T) Catalog {
	t.Helper()
	cat, err := LoadFS(os.DirFS("../../data/published"))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

func TestRealFiles(t *testing.T) {
	cat := loadReal(t)
	for _, v := range []string{"chess", "tamerlane2", "shatranj", "tamerlane", "capablanca"} {
		tb, ok := cat[v]
		if !ok {
			t.Fatalf("variant %q missing", v)
		}
		if tb.File != v+".yaml" {
			t.Errorf("%s loaded from %q", v, tb.File)
		}
		for _, s := range tb.Sources {
			if s.Citation == "" || !s.Kind.valid() {
				t.Errorf("%s: source %+v incomplete", v, s)
			}
		}
		for _, e := range tb.Entries {
			if e.Line == 0 {
				t.Errorf("%s: entry %+v has no line", v, e)
			}
		}
	}
	cases := []struct {
		variant, piece string
		ref            Scale
		want           float64
		source         string
	}{
		{"chess", "N", PawnOne, 3.25, "kaufman1999"},
		{"chess", "Q", PawnOne, 9.75, "kaufman1999"},
		{"chess", "B", KnightOne, 1, "kaufman1999"},
		{"chess", "Q", RookFive, 9.75, "kaufman1999"},
		{"chess", "P", RookFive, 1, "kaufman1999"},
		{"tamerlane2", "A", RookFive, 7.7, "cazaux-zillions"},
		{"tamerlane2", "P", PawnOne, 1, "cazaux-zillions"},
		{"tamerlane2", "Q", PawnOne, 8.2 / 0.6, "cazaux-zillions"},
		{"tamerlane2", "S", KnightOne, 4.4 / 2.5, "cazaux-zillions"},
		{"shatranj", "Q", PawnOne, 1.5, "muller-ferz-fide"},
		{"capablanca", "A", PawnOne, 8.75, "muller-capablanca"},
		{"capablanca", "C", PawnOne, 9, "muller-capablanca"},
		{"capablanca", "Q", KnightOne, 9.5 / 3, "muller-capablanca"},
		{"shatranj", "Q", KnightOne, 1.5 / 3.25, "muller-ferz-fide"},
		{"shatranj", "B", KnightOne, 2 / 5.25, "murray1913"},
		{"tamerlane", "F", PawnOne, 1.5, "muller-ferz-wazir-fide"},
		{"tamerlane", "W", PawnOne, 1.25, "muller-ferz-wazir-fide"},
	}
	for _, c := range cases {
		v, src, ok := cat.Value(c.variant, c.piece, c.ref)
		if !ok || !near(v, c.want) || src.ID != c.source {
			t.Errorf("Value(%s, %s, %s) = %v, %q, %v; want %v from %q", c.variant, c.piece, c.ref, v, src.ID, ok, c.want, c.source)
		}
	}
	// Capablanca's Archbishop: Muller's, then Fairy-Stockfish's two, each
	// in its own pawn's units.
	if vs, err := cat["capablanca"].Values("A", PawnOne); err != nil || len(vs) != 3 ||
		!near(vs[0].Value, 8.75) || !near(vs[1].Value, 2200.0/126) || !near(vs[2].Value, 2200.0/208) {
		t.Errorf("capablanca archbishop values: %+v, %v", vs, err)
	}
	// Murray's shatranj ratios as reported: Ferz ≈ 0.57 N, Alfil ≈ 0.38 N.
	vs, err := cat["shatranj"].Values("Q", KnightOne)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 || vs[1].Source.ID != "murray1913" || math.Abs(vs[1].Value-0.57) > 0.005 {
		t.Errorf("shatranj ferz values in knights: %+v", vs)
	}
	if b, _, _ := cat.Value("shatranj", "B", KnightOne); math.Abs(b-0.38) > 0.005 {
		t.Errorf("alfil = %v knights, want ≈ 0.38", b)
	}
	// The shatranj-pawn estimate has no Rook or Knight in its system.
	if vs, _ := cat["shatranj"].Values("Q", RookFive); len(vs) != 0 {
		t.Errorf("ferz in rook units: %+v, want none", vs)
	}
	// Historical Tamerlane: no numbers for the riders and the camel; the
	// alfil and dabbaba movers only by Muller's leaper formula (4 targets:
	// 1.1·4·(30 + 5/8·4) cP).
	for _, p := range []string{"G", "T", "C", "R"} {
		if _, _, ok := cat.Value("tamerlane", p, PawnOne); ok {
			t.Errorf("tamerlane %s has a value; none is published", p)
		}
	}
	for _, p := range []string{"E", "D"} {
		v, src, ok := cat.Value("tamerlane", p, PawnOne)
		if !ok || src.ID != "muller-leaper-formula" || src.Kind != Formula || !near(v, 1.1*4*(30+5.0/8*4)/100) {
			t.Errorf("tamerlane %s = %v from %q (%v), want 1.43 from the leaper formula", p, v, src.ID, ok)
		}
	}
	if _, _, ok := cat.Value("nonesuch", "P", PawnOne); ok {
		t.Error("unknown variant found")
	}
	if src, ok := cat["tamerlane2"].Source("cazaux-zillions"); !ok || src.Kind != EngineGuess {
		t.Errorf("Zillions source kind = %q", src.Kind)
	}
}

const good = `variant: test
pieces:
  - {letter: P, name: pawn}
  - {letter: X, name: thing}
sources:
  - {id: s1, citation: someone, kind: ranking}
  - {id: s2, citation: someone else, kind: measured}
values:
  - {piece: X, rank: 1, source: s1}
  - {piece: X, value: 2.5, source: s2, scale: "P=1"}
`

func TestParse(t *testing.T) {
	tb, err := Parse("t.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Entries) != 2 || tb.Entries[0].Rank != 1 || tb.Entries[0].HasValue || !tb.Entries[1].HasValue || tb.Entries[1].Line != 10 {
		t.Errorf("entries %+v", tb.Entries)
	}
	if v, _, ok := tb.Value("X", Scale("X=1")); !ok || v != 1 {
		t.Errorf("X in X units = %v, %v", v, ok)
	}
	if _, _, ok := tb.Value("X", RookFive); ok {
		t.Error("converted to a scale whose piece the system lacks")
	}
	if tb.CitedScale != "" {
		t.Errorf("cited scale %q, none given", tb.CitedScale)
	}
	tb, err = Parse("t.yaml", []byte(strings.Replace(good, "variant: test", "variant: test\ncited_scale: \"X=2\"", 1)))
	if err != nil || tb.CitedScale != "X=2" {
		t.Errorf("cited_scale X=2: %v, %+v", err, tb)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, old, new, want string
	}{
		{"unknown field", "  - {id: s1, citation: someone, kind: ranking}", "  - {id: s1, citation: someone, kind: ranking, year: 1}", `t.yaml:6: sources[0].year: unknown field "year"`},
		{"unknown top-level field", "variant: test", "variant: test\nauthor: me", `t.yaml:2: author: unknown field "author"`},
		{"unknown source", "source: s2, scale", "source: s3, scale", `t.yaml:10: unknown source "s3"`},
		{"undeclared piece", "{piece: X, rank", "{piece: Y, rank", `t.yaml:9: undeclared piece "Y"`},
		{"value and rank", "{piece: X, rank: 1, source: s1}", "{piece: X, rank: 1, value: 2, source: s1}", "t.yaml:9: entry needs exactly one of value and rank"},
		{"bad kind", "kind: measured", "kind: guess", `t.yaml:7: source "s2": kind "guess"`},
		{"bad scale", `scale: "P=1"`, `scale: "P"`, `t.yaml:10: scale "P": want PIECE=VALUE`},
		{"scale of unknown piece", `scale: "P=1"`, `scale: "Z=1"`, `t.yaml:10: scale "Z=1" refers to undeclared piece "Z"`},
		{"negative value", "value: 2.5", "value: -2.5", "t.yaml:10: value -2.5"},
		{"duplicate entry", "{piece: X, rank: 1, source: s1}", "{piece: X, rank: 1, source: s1}\n  - {piece: X, rank: 2, source: s1}", `t.yaml:10: piece "X" from source "s1" listed twice`},
		{"no citation", "citation: someone else", "citation: ''", `t.yaml:7: source "s2" has no citation`},
		{"type error", "rank: 1", "rank: first", `t.yaml:9: values[0].rank: wrong type: want int`},
		{"missing variant", "variant: test", "name: x", "t.yaml:1: missing variant"},
		{"contradicting scale", "{piece: X, value: 2.5, source: s2, scale: \"P=1\"}", "{piece: X, value: 2.5, source: s2, scale: \"P=1\"}\n  - {piece: P, value: 1.1, source: s2, scale: \"P=1\"}", "t.yaml:11: P = 1.1 contradicts scale"},
		{"two documents", "variant: test", "variant: test\n---\nvariant: other", "only one YAML document"},
		{"cited scale of an undeclared piece", "variant: test", "variant: test\ncited_scale: \"Q=9.5\"", `t.yaml:2: scale "Q=9.5": piece "Q" is not declared`},
		{"bad cited scale", "variant: test", "variant: test\ncited_scale: \"X\"", `t.yaml:2: scale "X": want PIECE=VALUE`},
	}
	for _, c := range cases {
		if !strings.Contains(good, c.old) {
			t.Fatalf("%s: fixture lacks %q", c.name, c.old)
		}
		_, err := Parse("t.yaml", []byte(strings.Replace(good, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
	if _, err := Parse("e.yaml", nil); err == nil || !strings.Contains(err.Error(), "e.yaml: empty") {
		t.Errorf("empty file: %v", err)
	}
}

func TestLoadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"a.yaml":     {Data: []byte(good)},
		"notes.txt":  {Data: []byte("ignored")},
		"b.yaml":     {Data: []byte(strings.Replace(good, "variant: test", "variant: other", 1))},
		"sub/c.yaml": {Data: []byte("not: [valid")},
	}
	cat, err := LoadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat) != 2 || cat["test"].File != "a.yaml" || cat["other"].File != "b.yaml" {
		t.Errorf("catalog %v", cat)
	}
	fsys["c.yaml"] = &fstest.MapFile{Data: []byte(good)}
	if _, err := LoadFS(fsys); err == nil || !strings.Contains(err.Error(), `c.yaml: variant "test" already defined in a.yaml`) {
		t.Errorf("duplicate variant: %v", err)
	}
	if _, err := LoadFS(fstest.MapFS{}); err == nil {
		t.Error("empty directory accepted")
	}
	if _, err := Load("../../data/published"); err != nil {
		t.Errorf("Load: %v", err)
	}
}

// TestLoadRefusesUnreadable: Load refuses a catalogue file that is too
// large or not a regular file, naming it, instead of reading it whole.
func TestLoadRefusesUnreadable(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err != nil {
		t.Fatalf("Load: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte(good+"#"+strings.Repeat("x", 5<<20)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), big+" is 5.0 MiB, more than the 4.0 MiB") {
		t.Errorf("a 5 MiB file: %v", err)
	}
	os.Remove(big)
	sub := filepath.Join(dir, "sub.yaml")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), sub+" is a directory, not a regular file") {
		t.Errorf("a directory named *.yaml: %v", err)
	}
}
