package variantfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
)

// minimal returns a small variant built field by field, uncompiled.
func minimal() *engine.Variant {
	return &engine.Variant{Name: "mini", Files: 4, Ranks: 4, RightsField: engine.RightsNone,
		Pieces: []engine.PieceDef{{},
			{Name: "King", Token: "K", Royal: true, King: true, Moves: []engine.Component{{Kind: engine.Leap, DF: 1}, {Kind: engine.Leap, DF: -1}}},
			{Name: "Rook", Token: "R", Moves: []engine.Component{{Kind: engine.Slide, DF: 1, Min: 1}}}},
		StartFEN: "k3/4/4/K2R w - - 0 1"}
}

// TestNewCustomVariantRefuses: engine.NewCustomVariant refuses, without
// a panic, what the mailbox cannot hold, whoever built the variant.
func TestNewCustomVariantRefuses(t *testing.T) {
	if err := engine.NewCustomVariant(minimal()); err != nil {
		t.Fatalf("the minimal variant: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(v *engine.Variant)
		want string
	}{
		{"leap of four", func(v *engine.Variant) { v.Pieces[2].Moves[0] = engine.Component{Kind: engine.Leap, DF: 4} }, "at most 3 squares"},
		{"no step", func(v *engine.Variant) { v.Pieces[2].Moves[0].DF = 0 }, "a step of (0,0)"},
		{"board too wide", func(v *engine.Variant) { v.Files = 12 }, "board 12x4"},
		{"bad token", func(v *engine.Variant) { v.Pieces[2].Token = "r" }, "capital letters"},
		{"castling off the board", func(v *engine.Variant) {
			v.Rights = []engine.RightDef{{Char: 'K', Color: engine.White}}
			v.Castling = []engine.CastlingRule{{Color: engine.White, KingFrom: engine.SquareAt(0, 0), KingTo: engine.SquareAt(9, 0), RookFrom: engine.SquareAt(3, 0), RookTo: engine.SquareAt(1, 0)}}
		}, "not on the board"},
		{"castling without its right", func(v *engine.Variant) {
			v.Castling = []engine.CastlingRule{{Color: engine.White, KingFrom: engine.SquareAt(0, 0), KingTo: engine.SquareAt(2, 0), RookFrom: engine.SquareAt(3, 0), RookTo: engine.SquareAt(1, 0), Right: 3}}
		}, "no right of its side"},
		{"citadel inside", func(v *engine.Variant) { v.Citadels = []engine.Citadel{{Square: engine.SquareAt(1, 1)}} }, "citadel b2"},
		{"two kings", func(v *engine.Variant) { v.StartFEN = "k3/4/4/K1KR w - - 0 1" }, "2 royal pieces"},
		{"promotion to nothing", func(v *engine.Variant) {
			v.Pieces[2].Promo, v.Pieces[2].To = engine.PromoteOnLastRank, []string{"Q"}
		}, "unknown token"},
	} {
		v := minimal()
		tc.edit(v)
		err := engine.NewCustomVariant(v)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	v := minimal()
	if err := engine.NewCustomVariant(v); err != nil {
		t.Fatal(err)
	}
	if err := engine.NewCustomVariant(v); err == nil || !strings.Contains(err.Error(), "already compiled") {
		t.Errorf("compiling twice: %v", err)
	}
	if n := engine.NewPosition(v).Perft(2); n != 1 {
		t.Errorf("perft(2) %d, want 1 (Ka1-b1, the Rook on d1 rides only rightward, off the board; then Ka4-b4)", n)
	}
}

// TestResolveAndRecord: Resolve takes a built-in by name or a file, and
// refuses rules with a file and a name the file does not define; Record
// copies a file into a run directory, accepts it again unchanged, and
// refuses a changed file or a tampered copy, naming the files.
func TestResolveAndRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(path, []byte(tiny), 0o644); err != nil {
		t.Fatal(err)
	}
	if v, err := Resolve("", "", path); err != nil || v.Name != "tiny" {
		t.Fatalf("resolve the file: %v, %v", v, err)
	}
	if v, err := Resolve("chess", "", ""); err != nil || v.Name != "chess" {
		t.Fatalf("resolve chess: %v, %v", v, err)
	}
	for _, tc := range []struct{ name, rules, want string }{
		{"chess", "", `variant "chess", but the variant file`},
		{"", "swap=off", "sets its rules itself"},
	} {
		if _, err := Resolve(tc.name, tc.rules, path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resolve %q %q: %v, want %q", tc.name, tc.rules, err, tc.want)
		}
	}
	run := filepath.Join(dir, "run")
	copyPath, err := Record(run, path)
	if err != nil || copyPath != Recorded(run, "tiny") {
		t.Fatalf("record: %s, %v", copyPath, err)
	}
	if _, err := Record(run, path); err != nil {
		t.Errorf("the same file again: %v", err)
	}
	if _, err := Record(run, copyPath); err != nil {
		t.Errorf("the recorded copy itself: %v", err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(tiny, "name: tiny", "name: tiny\ntitle: Tiny", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Record(run, path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), copyPath) {
		t.Errorf("a changed file: %v", err)
	}
	if err := os.WriteFile(copyPath, []byte(tiny+"# edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Record(run, copyPath); err == nil || !strings.Contains(err.Error(), copyPath+".sha256") {
		t.Errorf("a tampered copy: %v", err)
	}
}
