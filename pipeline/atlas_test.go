package pipeline

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tamerlane/values"
	"tamerlane/values/published"
)

// testAtlas is an atlas entry of chess: the knight by both methods, the
// rook by the regression; the bridged source holds the imbalance games
// again (the label counts them once).
const testAtlas = `variant: chess
pieces:
  - {letter: P, name: pawn}
  - {letter: N, name: knight}
  - {letter: R, name: rook}
sources:
  - id: regression
    citation: test regression
    kind: measured
    provenance: {method: regression, config: c.yaml, config_sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, games: 1200, positions: 9000, engine: abc, date: 2026-11-30, nodes: 2000}
  - id: imbalance
    citation: test imbalance
    kind: measured
    provenance: {method: imbalance, config: c.yaml, config_sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, games: 800, engine: abc, date: 2026-12-01, nodes: 2000}
  - id: imbalance-bridged
    citation: test imbalance in the regression's pawn (the same 800 games)
    kind: measured
    provenance: {method: imbalance-bridged, config: c.yaml, config_sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, games: 800, engine: abc, date: 2026-12-01, nodes: 2000}
values:
  - {piece: P, value: 1, source: regression, scale: "P=1"}
  - {piece: N, value: 3, lo: 2.5, hi: 3.5, source: regression, scale: "P=1"}
  - {piece: R, value: 4.5, lo: 4, hi: 5, source: regression, scale: "P=1"}
  - {piece: P, value: 1, source: imbalance, scale: "P=1"}
  - {piece: N, value: 2.75, lo: 2.25, hi: 3.25, source: imbalance, scale: "P=1"}
`

// TestReportAtlas: with an atlas entry for its variant, the report sets
// the atlas's values beside the run's measured ones, labelled "atlas
// (data/measured, date, games)" against "this run", in the leading table
// and in the measured values' plot.
func TestReportAtlas(t *testing.T) {
	tab, err := published.Parse("chess.yaml", []byte(testAtlas))
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(true)
	opts.Atlas = published.Catalog{"chess": tab}
	dir := filepath.Join(t.TempDir(), "run")
	rep := runPipeline(t, measuredConfig(t), dir, opts)
	a := rep.Atlas["chess"]
	if a == nil || a.Label != "atlas (data/measured, 2026-12-01, 2000 games)" || a.piece("N") == nil || a.piece("N").Imbalance == nil || a.piece("P") != nil {
		t.Fatalf("report's atlas %+v", a)
	}
	b, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	g, m := latestMeasured(rep, "chess")
	var n *values.PieceValues
	for i := range m.Pieces {
		if m.Pieces[i].Piece == "N" {
			n = &m.Pieces[i]
		}
	}
	if n == nil {
		t.Fatal("no knight measured")
	}
	row := "| chess | " + strconv.Itoa(g) + " | N | " + values.FormatInterval(n.Regression) + " | " + values.FormatInterval(n.Imbalance) + " | " +
		values.FormatZ(n.AgreementZ) + " | 3.00 [2.50, 3.50] | 2.75 [2.25, 3.25] | "
	for _, want := range []string{
		"- chess: atlas (data/measured, 2026-12-01, 2000 games) beside this run's values.\n",
		"| this run: regression (95%) | this run: imbalance (95%) | z | atlas: regression (95%) | atlas: imbalance (95%) | published |",
		row,
		"neither a measurement nor the atlas",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	p, _, ok := measuredPlot(rep, "chess")
	if !ok || !strings.Contains(p.Title.Text, `at "atlas": atlas (data/measured, 2026-12-01, 2000 games)`) || !(p.X.Max > float64(g)+1) {
		t.Errorf("measured plot: %v, title %q, x up to %v", ok, p.Title.Text, p.X.Max)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "values-chess.svg"))
	if err != nil || !strings.Contains(string(svg), "atlas (data/measured, 2026-12-01, 2000 games)") {
		t.Errorf("values-chess.svg does not name the atlas (%v)", err)
	}
}
