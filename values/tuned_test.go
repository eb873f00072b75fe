package values

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tamerlane/internal/stats"
	"tamerlane/tune"
	"tamerlane/values/published"
)

// TestScales: Tamerlane II's values are published with Rook = 5
// (Zillions), so that scale comes first; chess's with Pawn = 1.
func TestScales(t *testing.T) {
	cat, err := published.Load("../data/published")
	if err != nil {
		t.Fatal(err)
	}
	if got := Scales(cat, "tamerlane2"); len(got) != 3 || got[0] != published.RookFive {
		t.Errorf("tamerlane2 scales %v", got)
	}
	if got := Scales(cat, "chess"); len(got) != 2 || got[0] != published.PawnOne {
		t.Errorf("chess scales %v", got)
	}
	// A cited scale outside the standard ones comes first.
	if got := PrimaryScale(cat, "capablanca"); got != "Q=9.5" {
		t.Errorf("capablanca's cited scale %v, want Q=9.5 (data/published/capablanca.yaml cited_scale)", got)
	}
}

// TestTunedMarkdownLabelled: the tuned tables' values say what they are,
// a tuning result and neither a measurement nor the atlas.
func TestTunedMarkdownLabelled(t *testing.T) {
	md := TunedMarkdown(&tune.Report{}, nil, nil)
	for _, want := range []string{"# Piece values of the tuned eval tables", "material weights (tune.json)", "not a measurement and not the atlas"} {
		if !strings.Contains(md, want) {
			t.Errorf("tuned values.md lacks %q:\n%s", want, md)
		}
	}
}

// TestFitImbalancesData: a tuning's data that hold no self-play run (a
// positions file) have no imbalance match; a data path that is gone is an
// error, not an empty column.
func TestFitImbalancesData(t *testing.T) {
	file := filepath.Join(t.TempDir(), "positions.jsonl")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if fits, err := FitImbalances([]string{file}); err != nil || len(fits) != 0 {
		t.Errorf("a positions file: %v, %v; want no fit", fits, err)
	}
	if _, err := FitImbalances([]string{file + ".gone"}); err == nil {
		t.Error("a missing data path: no error")
	}
}

// TestValueRowCells: a row of the engine table's values has one set of
// cells for values.md and the pipeline's report: the imbalance cell only
// when asked for, an unknown figure empty.
func TestValueRowCells(t *testing.T) {
	texel := stats.NewInterval(2.9, 0.1)
	pub, ratio, nan := stats.Float(3.25), stats.Float(2.9/3.25), stats.Float(math.NaN())
	r := ValueRow{Piece: "N", Name: "knight", Texel: &texel, Published: &pub, Source: "Larry Kaufman, \"The Evaluation of Material Imbalances\", 1999", Kind: "measured", Ratio: &ratio}
	want := []string{"N", "knight", "2.90 [2.70, 3.10]", "", "3.25", "Larry Kaufman 1999 (measured)", "0.89"}
	if got := r.Cells(true); !slices.Equal(got, want) {
		t.Errorf("cells %q, want %q", got, want)
	}
	if got := r.Cells(false); !slices.Equal(got, slices.Delete(slices.Clone(want), 3, 4)) {
		t.Errorf("cells without the imbalance %q", got)
	}
	r.Ratio, r.Published, r.Source = &nan, nil, ""
	if got := r.Cells(false); got[3] != "" || got[4] != "" || got[5] != "" {
		t.Errorf("unknown figures %q, want empty cells", got)
	}
}
