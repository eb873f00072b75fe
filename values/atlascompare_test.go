package values

import (
	"math"
	"strings"
	"testing"

	"tamerlane/internal/stats"
	"tamerlane/values/published"
)

// TestCompareAtlas: each estimate of a run beside the atlas's, per method
// and scale, run − atlas with the atlas's SE read off its 95% interval;
// variants only one side has are named; a run holding the atlas's own
// measurement is refused.
func TestCompareAtlas(t *testing.T) {
	cat, err := published.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	prov := testProvenance()
	prov.Measurement = strings.Repeat("cd", 32)
	b, _, err := Atlas(scaledDoc(), "tamerlane2", prov, cat)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := published.Parse("tamerlane2.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := published.Parse("shako.yaml", []byte(strings.NewReplacer("tamerlane2", "shako").Replace(string(b))))
	atlas := published.Catalog{"tamerlane2": tab, "shako": other}
	iv := func(v, se float64) *stats.Interval { x := stats.NewInterval(v, se); return &x }
	run := &Document{Variants: []VariantValues{
		{Variant: "tamerlane2", Games: 50, Pieces: []PieceValues{
			{Piece: "P", Regression: iv(1, 0)},
			{Piece: "N", Regression: iv(3.5, 0.1), Scaled: []ScaledValues{{Scale: "R=5", Regression: iv(2.6, 0.1)}}},
		}},
		{Variant: "chess", Games: 10, Pieces: []PieceValues{{Piece: "N", Regression: iv(3, 0.2)}}},
	}}
	c, err := CompareAtlas("run", "atlas.yaml", run, atlas, []string{strings.Repeat("ab", 32)})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Variants) != 1 || c.Variants[0].Games != [2]int{100, 50} {
		t.Fatalf("variants %+v", c.Variants)
	}
	ds := c.Variants[0].Differences
	if len(ds) != 2 || ds[0].Estimate != "regression" || ds[1].Estimate != "regression R=5" {
		t.Fatalf("differences %+v", ds)
	}
	// The atlas's N: 3 ± 1.96·0.2, written as [2.608, 3.392].
	se := math.Hypot(0.1, (3.392-2.608)/(2*stats.Z95))
	if d := ds[0]; math.Abs(float64(d.Difference.Value)-0.5) > 1e-9 || math.Abs(d.Z-0.5/se) > 1e-9 {
		t.Errorf("N: %+v, want +0.5 and z %.4f", d, 0.5/se)
	}
	notes := strings.Join(c.Notes, "\n")
	if !strings.Contains(notes, "chess: the atlas has no entry for this variant") || !strings.Contains(notes, "shako: only the atlas has values") {
		t.Errorf("notes %q", c.Notes)
	}
	if _, err := CompareAtlas("run", "atlas.yaml", run, atlas, []string{prov.Measurement}); err == nil || !strings.Contains(err.Error(), "not independent") {
		t.Errorf("the atlas's own games: %v", err)
	}
}
