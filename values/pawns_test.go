package values

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/selfplay"
)

func TestCentrePawns(t *testing.T) {
	for _, c := range []struct {
		variant string
		in      []string
		want    []string
	}{
		{"chess", []string{"P"}, []string{"P@d"}},
		{"chess", []string{"N", "P", "P", "P"}, []string{"N", "P@d", "P@e", "P@c"}},
		{"chess", slices8("P"), []string{"P@d", "P@e", "P@c", "P@f", "P@b", "P@g", "P@a", "P@h"}},
		{"tamerlane", []string{"P", "P", "P"}, []string{"P@f", "P@e", "P@g"}},
		{"chess", nil, []string{}},
	} {
		got := centrePawns(engine.MustVariant(c.variant, nil), c.in)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %v: %v, want %v", c.variant, c.in, got, c.want)
		}
	}
}

func slices8(s string) []string { return []string{s, s, s, s, s, s, s, s} }

func TestPawnsConfig(t *testing.T) {
	_, err := ParseConfig([]byte("variants:\n  - {variant: chess, imbalance: {pieces: [N], pawns: middle}}\n"), "p.yaml")
	if err == nil || !strings.Contains(err.Error(), "p.yaml:2") || !strings.Contains(err.Error(), "imbalance.pawns") {
		t.Errorf("pawns: middle: %v", err)
	}
	a, err := ParseConfig([]byte("variants:\n  - {variant: chess, imbalance: {pieces: [N]}}\n"), "a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseConfig([]byte("variants:\n  - {variant: chess, imbalance: {pieces: [N], pawns: centre}}\n"), "a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ha, _ := a.Hash()
	hb, _ := b.Hash()
	if ha == hb {
		t.Error("pawns: centre does not change the config hash (a resumed run would mix the units)")
	}
}

// TestMeasureCentrePawns: with pawns: centre the matches remove centre
// pawns (P@d ...) and the fit still counts them as pawns.
func TestMeasureCentrePawns(t *testing.T) {
	cfg, err := ParseConfig([]byte(strings.Replace(tinyMeasure, "max_pairs: 8}", "max_pairs: 8, pawns: centre}", 1)), "tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Variants[0].Imbalance.Pawns != PawnsCentre {
		t.Fatal("the test config does not set pawns: centre")
	}
	dir := filepath.Join(t.TempDir(), "m")
	if err := Run(context.Background(), cfg, dir, RunOptions{Workers: 2, Factory: selfplay.GreedyFactory(), Stage: "imbalance"}); err != nil {
		t.Fatal(err)
	}
	dirs, err := RunDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	ms, _, err := CollectImbalances(dirs)
	if err != nil {
		t.Fatal(err)
	}
	odds := false
	for _, m := range ms["chess"] {
		for _, x := range append(append([]string{}, m.FirstRemoves...), m.SecondRemoves...) {
			if x == "P" {
				t.Errorf("match %s removes a pawn from file a (%v vs %v)", m.Name, m.FirstRemoves, m.SecondRemoves)
			}
		}
		if reflect.DeepEqual(m.FirstRemoves, []string{"P@d"}) && len(m.SecondRemoves) == 0 {
			odds = true
		}
	}
	if !odds {
		t.Errorf("no d-pawn odds match among %d matches", len(ms["chess"]))
	}
	doc, err := Measure(dirs, nil, Options{Regression: RegressionOptions{MinGames: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.Variant("chess"); v == nil || v.Piece("N") == nil || v.Piece("P@d") != nil {
		t.Fatalf("pieces of the fit: %+v", v)
	}
}
