package eval

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
)

// This generator writes the hand tables, data/hand/<variant>.yaml (which
// were the embedded defaults in data/weights until tuned tables replaced
// them); TestHandTablesMatchData keeps the two equal. Regenerate with
//
//	go test ./engine/eval -run TestWriteHandTables -regen
var regen = flag.Bool("regen", false, "rewrite data/hand/*.yaml with the hand values")

// handMaterial gives each variant's hand material values (cp, the same in
// middlegame and endgame) by FEN token, and the notes naming their sources.
var handMaterial = map[string]struct {
	values map[string]float64
	notes  string
}{
	"chess": {
		values: map[string]float64{"P": 100, "N": 325, "B": 325, "R": 500, "Q": 975, "K": 0},
		notes: "Material: L. Kaufman, \"The Evaluation of Material Imbalances\", Chess Life, March 1999\n" +
			"(P 1, N 3.25, B 3.25, R 5, Q 9.75 pawns; bishop pair not modelled), Pawn = 100 cp.\n" +
			"Source: data/published/chess.yaml.",
	},
	"shatranj": {
		values: map[string]float64{"P": 100, "N": 325, "R": 500, "Q": 150, "B": 110, "K": 0},
		notes: "Material: Knight and Rook move as in chess, so Kaufman 1999's values (N 325, R 500);\n" +
			"Ferz (Q) 150 after H.G. Muller's Fairy-Max measurement of the ferz at about 1.5 Pawns\n" +
			"(made in a FIDE context; he estimates about 2 shatranj Pawns in shatranj);\n" +
			"Alfil (B) 110, a hand value for a small piece (a colour-bound leaper that can ever\n" +
			"reach only 8 squares), about the 2/1.75 Pawn of the medieval valuation in Murray 1913\n" +
			"as tabulated by Betza. Sources: data/published/shatranj.yaml.",
	},
	"shako": {
		values: map[string]float64{"P": 100, "N": 325, "B": 325, "R": 500, "Q": 975, "K": 0, "E": 250, "C": 400},
		notes: "Material: orthodox pieces as chess (Kaufman 1999). Elephant (ferz+alfil, colour-bound)\n" +
			"250 and Cannon 400 are GUESSES, not measured.",
	},
	"tamerlane2": {
		values: map[string]float64{"P": 100, "C": 367, "E": 417, "N": 417, "M": 500, "B": 567,
			"S": 733, "O": 817, "R": 833, "A": 1283, "Q": 1367, "K": 0},
		notes: "Material: the Zillions-of-Games values J.-L. Cazaux publishes for Tamerlane II,\n" +
			"normalised to Rook = 5: Pawn 0.6, Camel 2.2, Elephant 2.5, Knight 2.5, Prince 3,\n" +
			"Bishop 3.4, Ship 4.4, Cannon 4.9, Rook 5, Eagle 7.7, Queen 8.2. Scale choice: a Pawn\n" +
			"is 100 cp (x 500/3, rounded), so a Rook is 833 cp; centipawns here are Tamerlane II\n" +
			"pawns, not comparable in size with chess centipawns. The King is 0.\n" +
			"Source: http://history.chess.free.fr/tamerlane2.htm (data/published/tamerlane2.yaml).",
	},
}

// Historical Tamerlane: rough hand estimates, leapers valued by their
// number of targets.
var tamerlaneMaterial = map[string]float64{
	"K": 0, "I": 0, "J": 0,
	"F": 150, "W": 125, "X": 125,
	"E": 100, "D": 100, "L": 100, "V": 80,
	"C": 275, "N": 325, "U": 300,
	"T": 300, "G": 450, "R": 500,
}

const tamerlaneNotes = "Material: ROUGH HAND ESTIMATES. Short leapers are valued by their number of\n" +
	"targets: 4-target leapers about 1-1.5 Pawns (General/ferz 150 and Vizier/wazir 125\n" +
	"after H.G. Muller's estimates of Ferz and Wazir; Sea monster as the Vizier; Elephant\n" +
	"(alfil), War engine (dabbaba) and Lion (3,0) 100; the colour-bound Revealer (3,3) 80),\n" +
	"8-target leapers about 3 Pawns (Knight 325 as in chess, Bull (3,2) 300, the colour-bound\n" +
	"Camel 275). Rook 500 as in chess; Picket (a bishop that must move two or more squares)\n" +
	"300 and Giraffe 450 are guesses. Every pawn 100. Royals (King, Prince, Adventitious King)\n" +
	"have material 0: the value of owning a second royal (an extra life, docs/rules.md 3.5) is\n" +
	"royal.extra = 400, a GUESS, so that losing either royal costs the same."

const positionalNotes = "Positional weights are HAND VALUES (round numbers in the spirit of classical\n" +
	"engines, not measured): mobility 2 cp per square (royals 0 mg / 2 eg); centrality 2/1\n" +
	"(pawns 2/0, royals -4/+4); advancement 1/0 (pawns 3/5, royals -8/0); passed pawns\n" +
	"0.5/2 x (relative rank)^2; doubled -10/-15, isolated -8/-8; royal.attacked -6/-2,\n" +
	"royal.shelter 6/0; tempo 12/6; threats.hanging -20/-10 (issue 12).\n" +
	"The issue-14 terms (zone.*, passed.go*, pair.*, file.*, threats.cheaper) are 0 here,\n" +
	"so that this table evaluates exactly as before they existed; tuning fits them."

// handTable builds the hand table of variant v.
func handTable(t testing.TB, v *engine.Variant) *Weights {
	w := NewWeights(v)
	var material map[string]float64
	notes := ""
	if hm, ok := handMaterial[v.Name]; ok {
		material, notes = hm.values, hm.notes
	} else {
		material = map[string]float64{}
		for k, x := range tamerlaneMaterial {
			material[k] = x
		}
		for ty := 1; ty <= v.NumTypes(); ty++ {
			if d := v.Def(engine.PieceType(ty)); d.Pawn {
				material[d.Token] = 100
			}
		}
		notes = tamerlaneNotes
	}
	set := func(name string, mg, eg float64) {
		if err := w.Set(name+".mg", mg); err != nil {
			t.Fatal(err)
		}
		if err := w.Set(name+".eg", eg); err != nil {
			t.Fatal(err)
		}
	}
	for ty := 1; ty <= v.NumTypes(); ty++ {
		d := v.Def(engine.PieceType(ty))
		x, ok := material[d.Token]
		if !ok {
			t.Fatalf("%s: no hand value for %s (%s)", v.Name, d.Token, d.Name)
		}
		set("material."+d.Token, x, x)
	}
	handPositional(w)
	w.Provenance = Provenance{
		Source: "hand values",
		Date:   "2026-11-21",
		Notes:  notes + "\n" + positionalNotes,
	}
	return w
}

func TestWriteHandTables(t *testing.T) {
	if !*regen {
		t.Skip("run with -regen to rewrite data/hand")
	}
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		w := handTable(t, v)
		path := filepath.Join("..", "..", "data", "hand", name+".yaml")
		if err := w.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d weights)", path, len(w.Values))
	}
}

// TestHandTablesComplete checks that the generator covers every piece of
// every variant (so that a new piece type gets a hand value).
func TestHandTablesComplete(t *testing.T) {
	for _, name := range engine.VariantNames() {
		w := handTable(t, engine.MustVariant(name, nil))
		if !strings.Contains(w.Provenance.Notes, "Material") {
			t.Errorf("%s: notes lack the material sources", name)
		}
		// Royals are not material: royal.extra prices extra royals. (A
		// tuned table may weigh the King's count where a side can lose a
		// King and play on with other royals, as in historical Tamerlane;
		// where it cannot, the feature is always 0 and the tuner leaves
		// the weight alone.)
		if k, ok := w.Get("material.K.mg"); !ok || k != 0 {
			t.Errorf("%s: hand material.K.mg = %v, %v; want 0", name, k, ok)
		}
	}
}

// TestHandTablesMatchData checks that the embedded hand tables
// (data/hand, eval.Hand) are what the generator writes.
func TestHandTablesMatchData(t *testing.T) {
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		h, err := Hand(v)
		if err != nil {
			t.Fatal(err)
		}
		if diff, _ := Diff(handTable(t, v), h); len(diff) > 0 {
			t.Errorf("%s: data/hand differs from the generator: %v", name, diff)
		}
	}
}
