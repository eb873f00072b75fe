package values

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/values/published"
)

// TestAtlasMarkdown: an atlas's section of docs/piece-values.md has its
// provenance, a table in pawns and one in the variant's published scale,
// each piece with its moves, both methods' values, their z from the
// intervals and every published figure with its source; the plot is
// written.
func TestAtlasMarkdown(t *testing.T) {
	cat, err := published.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Atlas(scaledDoc(), "tamerlane2", testProvenance(), cat)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := published.Parse("tamerlane2.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	md := AtlasMarkdown(tab, cat["tamerlane2"], "data/measured/tamerlane2.yaml", nil)
	// N in P=1: regression 3 ± 1.96·0.2, imbalance 2.5 ± 1.96·0.3, z =
	// 0.5/√(0.2² + 0.3²) = +1.39 (the SEs read back off the rounded
	// intervals); bridged 3.4 ± 1.96·0.25, z = −0.4/√(0.2² + 0.25²) =
	// −1.25; Zillions' 2.5 over its pawn's 0.6.
	for _, want := range []string{
		"- **regression**: 100 games, 5000 quiet positions; config `c.yaml` (SHA-256 abababababab…); engine 4f9d8fb at 2000 nodes per move; last game 2026-12-02",
		"- **imbalance**: 40 games; config `c.yaml`",
		"**In P=1**", "**In R=5**",
		"| N | knight | leap (1,2) | 3.00 [2.61, 3.39] | 2.50 [1.91, 3.09] | +1.39 | 3.40 [2.91, 3.89] | -1.25 | 4.17 (cazaux-zillions, engine-guess); 3.08 (muller-leaper-formula, formula) |",
		"| N | knight | leap (1,2) | 2.40 [2.20, 2.60] | 2.20 [1.81, 2.59] | +0.89 | 2.50 (cazaux-zillions, engine-guess) |",
		"| R | rook | slide orthogonally | 5.00 (unit) | 5.00 (unit) | – | 5.00 (cazaux-zillions, engine-guess) |",
		"**Note**: regression C in P=1 left out",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("atlas Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "| C | camel |") {
		t.Errorf("the camel, without a value, has a row:\n%s", md)
	}
	base := filepath.Join(t.TempDir(), "atlas")
	png, svg, err := PlotAtlas(base, tab, cat["tamerlane2"])
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{png, svg} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if s, _ := os.ReadFile(svg); !strings.Contains(string(s), "R=5") || !strings.Contains(string(s), "cazaux-zillions") {
		t.Errorf("the plot is not in R=5 beside Zillions' figures")
	}
}

// TestAtlasConcluded: an atlas of a measurement whose imbalance plan was
// concluded (tamerlane measure -conclude) records the round in the
// matches' provenance, not the regression's, and its section gives the
// command that reproduces it.
func TestAtlasConcluded(t *testing.T) {
	cat, err := published.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	doc := scaledDoc()
	doc.ConcludedPlans = []ConcludedPlan{{Dir: "m/tamerlane2/imbalance", Variant: "tamerlane2", EndRound: 7, Pieces: []string{"N"}}}
	b, _, err := Atlas(doc, "tamerlane2", testProvenance(), cat)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := published.Parse("tamerlane2.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tab.Sources {
		want := 7
		if s.ID == AtlasRegression {
			want = 0
		}
		if s.Provenance == nil || s.Provenance.EndRound != want {
			t.Errorf("%s: provenance %+v, want end_round %d", s.ID, s.Provenance, want)
		}
	}
	md := AtlasMarkdown(tab, cat["tamerlane2"], "data/measured/tamerlane2.yaml", nil)
	for _, line := range strings.Split(md, "\n") {
		concluded := strings.Contains(line, "its plan concluded at round 7") && strings.Contains(line, "`tamerlane measure -c c.yaml -o DIR -conclude 7`")
		switch {
		case strings.HasPrefix(line, "- **regression**") && concluded, strings.HasPrefix(line, "- **imbalance**") && !concluded:
			t.Errorf("provenance line %q", line)
		}
	}
	// A conclusion that stopped no piece (every piece had stopped before
	// it) is not one.
	doc.ConcludedPlans[0].Pieces = nil
	if doc.endRound("tamerlane2") != 0 {
		t.Error("a conclusion that stopped no piece gives an end round")
	}
}

// TestPieceMovesPawnClass: the pawn class of a variant with several pawn
// types is described by the moves they share; a variant with one pawn
// type gives that type's own description.
func TestPieceMovesPawnClass(t *testing.T) {
	hist, err := engine.VariantWithRules("tamerlane", "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pieceMoves(hist, "P"), "11 pawn types, one class: step forward (move only); step diagonally forward (capture only); each type its own promotion"; got != want {
		t.Errorf("historical Tamerlane's pawns: %q, want %q", got, want)
	}
	t2, err := engine.VariantWithRules("tamerlane2", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := pieceMoves(t2, "P"); !strings.HasPrefix(got, "step forward (move only)") || strings.Contains(got, "pawn types") {
		t.Errorf("Tamerlane II's pawn: %q", got)
	}
	if got := pieceMoves(hist, "Q"); got != "" {
		t.Errorf("a token the variant lacks: %q", got)
	}
}
