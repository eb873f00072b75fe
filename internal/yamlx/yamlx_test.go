package yamlx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type inner struct {
	Pairs int     `yaml:"pairs"`
	Rate  float64 `yaml:"rate"`
}

type outer struct {
	Name  string           `yaml:"name"`
	Items []inner          `yaml:"items"`
	Sub   *inner           `yaml:"sub"`
	Map   map[string]inner `yaml:"map"`
	Flag  bool             `yaml:"flag"`
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"name: x\nnmae: y\n", `f.yaml:2: nmae: unknown field "nmae"`},
		{"items:\n  - pairs: 1\n  - pairz: 2\n", `f.yaml:3: items[1].pairz: unknown field "pairz"`},
		{"sub:\n  rate: fast\n", `f.yaml:2: sub.rate: wrong type: want float64, got !!str "fast"`},
		{"map:\n  a: {pairs: many}\n", `f.yaml:2: map.a.pairs: wrong type: want int`},
		{"items: 3\n", "f.yaml:1: items: wrong type: want a list, got !!int"},
		{"sub: [1]\n", "f.yaml:1: sub: wrong type: want a mapping, got !!seq"},
		{"name: a\nname: b\n", `f.yaml:2: name: field "name" given twice (first at line 1)`},
		{"flag: maybe\n", "f.yaml:1: flag: wrong type: want bool"},
		{"sub:\n  pairs: 2.5\n", `f.yaml:2: sub.pairs: wrong type: want int, got !!float "2.5"`},
		{"name: [1\n", "f.yaml:1: did not find"},
	} {
		var o outer
		_, err := Decode([]byte(c.text), "f.yaml", &o)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want prefix %q", c.text, err, c.want)
		}
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Errorf("%q: %T is not an *Error", c.text, err)
		}
	}
	// Several mistakes at once, in line order.
	var o outer
	_, err := Decode([]byte("flag: 3\nname: ok\nbad: 1\n"), "f.yaml", &o)
	if err == nil || !strings.HasPrefix(err.Error(), "f.yaml:1: flag") || !strings.Contains(err.Error(), "\nf.yaml:3: bad") {
		t.Errorf("several: %v", err)
	}
}

func TestDecodeAndSource(t *testing.T) {
	text := "name: run\nsection:\n  pairs: 3\n  rate: 0.5\nitems:\n  - {pairs: 1}\n"
	var doc struct {
		Name    string `yaml:"name"`
		Section any    `yaml:"section"`
		Items   []inner
	}
	src, err := Decode([]byte(text), "dir/f.yaml", &doc)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Name != "run" || len(doc.Items) != 1 || doc.Items[0].Pairs != 1 {
		t.Errorf("decoded %+v", doc)
	}
	if !src.Has("section.rate") || src.Has("section.missing") || src.Line("items[0].pairs") != 6 {
		t.Errorf("Has/Line wrong")
	}
	var in inner
	sub, err := src.DecodeAt("section", &in)
	if err != nil || in.Pairs != 3 || in.Rate != 0.5 {
		t.Fatalf("DecodeAt: %+v %v", in, err)
	}
	if !sub.Has("pairs") || sub.Has("name") {
		t.Error("sub source does not see relative paths")
	}
	if e := sub.ErrAt("pairs", "too many (%d)", 3); e.Error() != "dir/f.yaml:3: section.pairs: too many (3)" {
		t.Errorf("ErrAt = %q", e)
	}
	if e := sub.ErrAt("absent", "x"); e.Line != 2 {
		t.Errorf("ErrAt of an absent field takes its parent's line: %d", e.Line)
	}
	var bad struct {
		Section struct {
			Pairs string `yaml:"pairs"`
		} `yaml:"section"`
	}
	_, err = src.DecodeAt("section", &bad.Section)
	if err == nil || !strings.HasPrefix(err.Error(), `dir/f.yaml:4: section.rate: unknown field "rate"`) {
		t.Errorf("DecodeAt strictness: %v", err)
	}
	if _, err := Decode(nil, "e.yaml", &doc); err != nil {
		t.Errorf("empty file: %v", err)
	}
}

// TestReadFileAndResolve checks that ReadFile names the file in its
// errors and that Resolve takes relative paths from the file's directory.
func TestReadFileAndResolve(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	if _, err := ReadFile(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if err := os.WriteFile(path, []byte("name: x\nnmae: y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var o outer
	if _, err := src.DecodeAt("", &o); err == nil || !strings.HasPrefix(err.Error(), path+":2: nmae: ") {
		t.Errorf("decode: %v", err)
	}
	if got := src.Resolve("t.yaml"); got != filepath.Join(dir, "t.yaml") {
		t.Errorf("Resolve = %q", got)
	}
	if got := src.Resolve("/abs/t.yaml"); got != "/abs/t.yaml" {
		t.Errorf("Resolve of an absolute path = %q", got)
	}
	var none *Source
	if got := none.Resolve("t.yaml"); !filepath.IsAbs(got) || filepath.Base(got) != "t.yaml" {
		t.Errorf("Resolve without a file = %q, want it under the working directory", got)
	}
}

// TestRemap: every *Error joined in an error, at any depth, is rewritten;
// other errors pass unchanged, and nil stays nil.
func TestRemap(t *testing.T) {
	plain := errors.New("plain")
	err := errors.Join(&Error{File: "f.yaml", Line: 3, Field: "a", Msg: "bad a"},
		errors.Join(plain, fmt.Errorf("wrapped: %w", &Error{Field: "b", Msg: "bad b"})))
	if n := len(Flatten(err)); n != 3 {
		t.Fatalf("Flatten: %d errors, want 3", n)
	}
	got := Remap(err, func(e *Error) error { return &Error{Field: "--" + e.Field, Msg: e.Msg} })
	if want := "--a: bad a\nplain\n--b: bad b"; got.Error() != want {
		t.Errorf("Remap: %q, want %q", got.Error(), want)
	}
	if !errors.Is(got, plain) {
		t.Error("Remap lost the plain error")
	}
	if Remap(nil, func(e *Error) error { return e }) != nil {
		t.Error("Remap(nil) is not nil")
	}
}
