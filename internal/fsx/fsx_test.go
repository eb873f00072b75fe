package fsx

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileModeAndContent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	if err := WriteFile(p, []byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	// The issue: files written atomically were 0600 (CreateTemp's mode).
	if st.Mode().Perm()&0o044 == 0 {
		t.Errorf("mode %v: not readable by group/others", st.Mode().Perm())
	}
	onlyFile(t, p, "hello\n")
}

// onlyFile checks that p holds want and is the only file of its directory
// (no temporary left behind).
func onlyFile(t *testing.T, p, want string) {
	t.Helper()
	if b, _ := os.ReadFile(p); string(b) != want {
		t.Errorf("%s holds %q, want %q", p, b, want)
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Errorf("leftover files: %v", ents)
	}
}

func TestWriteFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	if err := WriteFile(p, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), p) {
		t.Fatalf("err = %v, want boom naming the file", err)
	}
	onlyFile(t, p, "old")
}

// TestCreateNamesTarget: a file that cannot be created (its directory is
// missing) is named in the error as the caller gave it, not by the
// temporary name, and the error still says why.
func TestCreateNamesTarget(t *testing.T) {
	p := filepath.Join(t.TempDir(), "missing", "a.txt")
	_, err := Create(p)
	if err == nil || !strings.HasPrefix(err.Error(), p+": ") || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want one starting with %s and wrapping fs.ErrNotExist", err, p)
	}
}

func TestJSONRoundTripAndFormat(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.json")
	type doc struct {
		Format string `json:"format"`
		N      int    `json:"n"`
		S      string `json:"s"`
	}
	if err := WriteJSON(p, doc{"f/1", 3, "<a&b>"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if !strings.Contains(string(b), "<a&b>") || !strings.HasSuffix(string(b), "}\n") {
		t.Errorf("file %q: want unescaped HTML and a final newline", b)
	}
	var d doc
	if err := ReadJSON(p, &d, "f/1"); err != nil || d.N != 3 {
		t.Fatalf("ReadJSON = %v, %+v", err, d)
	}
	err := ReadJSON(p, &d, "f/2")
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), `"f/1"`) {
		t.Errorf("wrong format: err = %v", err)
	}
	os.WriteFile(p, []byte("{bad"), 0o644)
	if err := ReadJSON(p, &d, ""); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("bad JSON: err = %v", err)
	}
	if err := ReadJSON(p+"x", &d, ""); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: err = %v", err)
	}
}

func TestCleanTemps(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "s")
	os.MkdirAll(sub, 0o755)
	keep := []string{filepath.Join(dir, "report.md"), filepath.Join(dir, ".lock"), filepath.Join(sub, ".journal.jsonl"), filepath.Join(dir, ".x.tmp")}
	stale := []string{filepath.Join(dir, ".report.md.tmp12345"), filepath.Join(sub, ".games.pgn.tmp999")}
	for _, p := range append(keep, stale...) {
		os.WriteFile(p, nil, 0o644)
	}
	// A real leftover: a File created and never committed (kill -9).
	f, err := Create(filepath.Join(sub, "positions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	stale = append(stale, f.tmp.Name())
	removed, err := CleanTemps(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != len(stale) {
		t.Errorf("removed %v, want %v", removed, stale)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s not removed", p)
		}
	}
	for _, p := range keep {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed", p)
		}
	}
}

func TestCheckKind(t *testing.T) {
	dir := t.TempDir()
	for _, k := range Kinds() {
		if err := CheckKind(dir, k); err != nil {
			t.Errorf("empty dir, kind %s: %v", k, err)
		}
	}
	os.WriteFile(filepath.Join(dir, Marker(KindPipeline)), []byte("{}"), 0o644)
	if err := CheckKind(dir, KindPipeline); err != nil {
		t.Errorf("same kind: %v", err)
	}
	for _, k := range []string{KindSelfplay, KindTune} {
		err := CheckKind(dir, k)
		if err == nil || !strings.Contains(err.Error(), "pipeline run") {
			t.Errorf("kind %s on a pipeline dir: err = %v", k, err)
		}
	}
	os.WriteFile(filepath.Join(dir, Marker(KindTune)), []byte("{}"), 0o644)
	if _, err := DirKind(dir); err == nil {
		t.Error("two markers: no error")
	}
}
