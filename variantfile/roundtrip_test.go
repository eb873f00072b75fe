package variantfile

import (
	"math/rand/v2"
	"strings"
	"testing"

	"tamerlane/engine"
)

// renamed exports the built-in variant name and reads it back under
// another name, so that the file's own data, not the built-in table,
// builds the variant.
func renamed(t *testing.T, name string) (builtin, loaded *engine.Variant) {
	t.Helper()
	builtin = engine.MustVariant(name, nil)
	data, err := Export(builtin)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "\nname: "+name+"\n", "\nname: file-"+name+"\n", 1)
	if text == string(data) {
		t.Fatalf("%s: no name line in the export:\n%s", name, data)
	}
	loaded, err = Read([]byte(text), name+".yaml")
	if err != nil {
		t.Fatalf("%s: reading the export back: %v\n%s", name, err, text)
	}
	if loaded.Name != "file-"+name {
		t.Fatalf("%s: read back as %s", name, loaded.Name)
	}
	return builtin, loaded
}

// randomFENs plays a few seeded random games on v and returns positions
// met on the way (the start position first).
func randomFENs(v *engine.Variant, n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 1))
	fens := []string{v.StartFEN}
	for len(fens) < n {
		p := engine.NewPosition(v)
		plies := 4 + rng.IntN(30)
		for i := 0; i < plies; i++ {
			if res, _ := p.Outcome(); res != engine.Ongoing {
				break
			}
			var ml engine.MoveList
			p.GenerateLegal(&ml)
			ms := ml.Slice()
			p.Make(ms[rng.IntN(len(ms))])
		}
		fens = append(fens, p.FEN())
	}
	return fens
}

// TestRoundTripPerft exports every built-in variant, reads it back under
// another name and compares perft counts from the start and from random
// positions.
func TestRoundTripPerft(t *testing.T) {
	for _, name := range engine.VariantNames() {
		t.Run(name, func(t *testing.T) {
			builtin, loaded := renamed(t, name)
			for i, fen := range randomFENs(builtin, 4, uint64(len(name))) {
				depth := 3
				if testing.Short() && i > 0 {
					depth = 2
				}
				a, err := engine.ParseFEN(builtin, fen)
				if err != nil {
					t.Fatal(err)
				}
				b, err := engine.ParseFEN(loaded, fen)
				if err != nil {
					t.Fatalf("%s: the file's variant refuses %s: %v", name, fen, err)
				}
				if na, nb := a.Perft(depth), b.Perft(depth); na != nb {
					t.Errorf("%s: perft(%d) of %s: built-in %d, from the file %d", name, depth, fen, na, nb)
				}
				if b.FEN() != fen {
					t.Errorf("%s: FEN %s reads back as %s", name, fen, b.FEN())
				}
			}
		})
	}
}

// TestBuiltinNameIsTheBuiltin: a file that is a built-in's export reads
// as that built-in; changed, it must take another name.
func TestBuiltinNameIsTheBuiltin(t *testing.T) {
	v := engine.MustVariant("shako", nil)
	data, err := Export(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(data, "shako.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "shako" || got.Options.String() != v.Options.String() {
		t.Errorf("read %s (%s)", got.Name, got.Options)
	}
	changed := strings.Replace(string(data), "move_rule: 100", "move_rule: 50", 1)
	if changed == string(data) {
		t.Fatal("no move_rule in the export")
	}
	if _, err := Read([]byte(changed), "shako.yaml"); err == nil || !strings.Contains(err.Error(), "shako.yaml:") || !strings.Contains(err.Error(), "another name") {
		t.Errorf("a changed shako: got %v", err)
	}
}

// TestExportPromotionZone exports Grand chess read from its file and reads
// it back: the export keeps the promotion zone and only_captured, and the
// variant read back counts the same perft where promotions happen.
func TestExportPromotionZone(t *testing.T) {
	v, err := Load("../configs/variants/grand.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data, err := Export(v)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "zone: 3") || !strings.Contains(string(data), "only_captured: true") {
		t.Fatalf("the export lost the promotion zone or only_captured:\n%s", data)
	}
	back, err := Read(data, "grand-export.yaml")
	if err != nil {
		t.Fatalf("reading the export back: %v\n%s", err, data)
	}
	const fen = "8n1/2PP6/5P4/10/10/9k/10/8p1/6pp2/KR8 w - - 0 1"
	a, err := engine.ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	b, err := engine.ParseFEN(back, fen)
	if err != nil {
		t.Fatal(err)
	}
	if na, nb := a.Perft(3), b.Perft(3); na != nb {
		t.Errorf("perft(3) of %s: from the file %d, from its export %d", fen, na, nb)
	}
}
