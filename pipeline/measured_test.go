package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tamerlane/internal/stats"
	"tamerlane/values"
)

// TestReportMeasuredValues: the report shows the prior-free values of the
// generation's games (regression and imbalance) apart from the engine
// table's prior-shrunk values, which it labels as such.
func TestReportMeasuredValues(t *testing.T) {
	cfg := measuredConfig(t)
	dir := filepath.Join(t.TempDir(), "run")
	rep := runPipeline(t, cfg, dir, testOptions(true))
	vr := rep.Generations[0].Variants[0]
	if vr.Measured == nil || vr.Measured.Games != 80 || vr.Measured.ImbalanceGames != 24 {
		t.Fatalf("measured values %+v", vr.Measured)
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	// The greedy players of the test resign some games; the report says
	// how many of the regression's games the adjudication decided.
	if vr.Measured.Resigned == 0 {
		t.Fatalf("no resigned game among %d: the report's resign clause is untested", vr.Measured.Games)
	}
	regression := fmt.Sprintf("prior-free regression on 80 games (%s ended by resign adjudication), imbalance matches 24 games",
		values.FormatPercent(vr.Measured.Resigned, 80))
	for _, want := range []string{"**Measured piece values** (P=1", regression,
		"not a measurement", "kaufman1999", "- chess: the atlas (data/measured) has no entry for this variant.\n",
		// Two matches for two values: nothing tests that they add up.
		"As many imbalance matches as values"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	// The knight has both values, so the P=1 comparisons are summed up.
	if ds := vr.Measured.Disagreements; len(ds) == 0 || ds[0].Comparison != "P=1" || ds[0].Compared == 0 {
		t.Errorf("disagreements %+v, want the P=1 family first", ds)
	} else if !strings.Contains(string(md), "Holm's correction): "+ds[0].String()) {
		t.Errorf("report.md lacks the P=1 disagreements %q", ds[0])
	}
	if _, err := os.Stat(filepath.Join(dir, "gen-001", MeasuredName)); err != nil {
		t.Error(err)
	}
	checkMeasuredLeads(t, dir, rep)
	checkReportReadsFiles(t, cfg, dir, string(md))
}

// measuredConfig is a one-generation pipeline of chess whose games the
// measure step values by both methods: 40 self-play pairs, a pawn-odds
// match and the knight against three pawns, no verification.
func measuredConfig(t *testing.T) *Config {
	t.Helper()
	text := strings.Replace(fmt.Sprintf(tinyConfig, 1, "always"), "    - {variant: chess, pairs: 3}\n",
		"    - {variant: chess, pairs: 40}\n  imbalances:\n    - {name: P odds, variant: chess, first_removes: [P], pairs: 6}\n"+
			"    - {name: N vs 3P, variant: chess, first_removes: [N], second_removes: [P, P, P], pairs: 6}\n", 1)
	text = strings.Replace(text, "  pairs: 4\n", "  pairs: 0\n", 1)
	return loadConfig(t, text)
}

// checkReportReadsFiles checks that the report only reads files: with
// the self-play games gone (no journal, no games.pgn) and summary.json
// newer than the measured values, a resumed finished run rebuilds the
// same report.md from gen-001/measured-values.json, measuring nothing.
func checkReportReadsFiles(t *testing.T, cfg *Config, dir, md string) {
	t.Helper()
	sp := filepath.Join(dir, "gen-001", "selfplay")
	for _, pattern := range []string{"*/journal.jsonl", "*/games.pgn"} {
		files, _ := filepath.Glob(filepath.Join(sp, pattern))
		if len(files) == 0 {
			t.Fatalf("no %s in %s", pattern, sp)
		}
		for _, f := range files {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(sp, "summary.json"), later, later); err != nil {
		t.Fatal(err)
	}
	runPipeline(t, cfg, dir, testOptions(true))
	again, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	if stripUpdated(string(again)) != stripUpdated(md) {
		t.Errorf("report.md rebuilt without the games differs:\n%s\nbefore:\n%s", again, md)
	}
}

// stripUpdated blanks report.md's update time.
func stripUpdated(md string) string {
	if i := strings.Index(md, "report updated "); i >= 0 {
		if j := strings.IndexByte(md[i:], '.'); j >= 0 {
			return md[:i] + md[i+j:]
		}
	}
	return md
}

// checkMeasuredLeads checks that a report whose games measured the
// knight leads with the measured values: the first section after the
// status is the measured values (both methods with intervals, the
// published figures), before the configuration and the engine table's
// tuned values; the first plot, in the report's list and in report.md,
// is the measured values per generation, drawing the regression and the
// imbalance; the engine table's plot comes later, labelled as tuned.
func checkMeasuredLeads(t *testing.T, dir string, rep *Report) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	g, m := latestMeasured(rep, "chess")
	var knight *values.PieceValues
	for i := range m.Pieces {
		if m.Pieces[i].Piece == "N" {
			knight = &m.Pieces[i]
		}
	}
	if knight == nil || knight.Regression == nil || knight.Imbalance == nil || len(knight.Published) == 0 {
		t.Fatalf("generation %d's knight %+v: want both methods and a published figure", g, knight)
	}
	row := fmt.Sprintf("| chess | %d | N | %s | %s | %s | %s %s", g, values.FormatInterval(knight.Regression),
		values.FormatInterval(knight.Imbalance), values.FormatZ(knight.AgreementZ), ff(knight.Published[0].Value, 2), knight.Published[0].Source)
	at := func(s string) int {
		i := strings.Index(md, s)
		if i < 0 {
			t.Errorf("report.md lacks %q", s)
		}
		return i
	}
	lead, row0, conf := at("\n## Measured piece values\n"), at(row), at("\n## Configuration\n")
	tuned, firstImg := at("**Piece values** of the engine table"), at("![")
	if !(lead < row0 && row0 < conf && conf < tuned) {
		t.Errorf("report.md order: measured %d, knight row %d, configuration %d, engine table values %d", lead, row0, conf, tuned)
	}
	if !strings.HasPrefix(md[firstImg:], "![values-chess](values-chess.png)") {
		t.Errorf("report.md's first plot is %.60q, want the measured values", md[firstImg:])
	}
	if len(rep.Plots) == 0 || rep.Plots[0] != "values-chess.png" {
		t.Errorf("plots %v, want values-chess.png first", rep.Plots)
	}
	if i, j := slices.Index(rep.Plots, "values-chess.png"), slices.Index(rep.Plots, "table-values-chess.png"); j < 0 || j < i {
		t.Errorf("plots %v: the engine table's values must follow the measured ones", rep.Plots)
	}
	for _, f := range []string{"values-chess.png", "values-chess.svg", "table-values-chess.png", "table-values-chess.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("plot %s: %v", f, err)
		}
	}
	p, leg, ok := measuredPlot(rep, "chess")
	if !ok || !strings.Contains(p.Title.Text, "measured piece values") || !strings.Contains(p.Title.Text, "dashed: published (kaufman1999") {
		t.Fatalf("measured plot: %v, title %q", ok, p.Title.Text)
	}
	if !slices.Contains(leg.names, "N knight") || !slices.Contains(leg.names, "N knight (imbalance)") {
		t.Errorf("measured plot legend %v, want the knight's regression and imbalance", leg.names)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "table-values-chess.svg"))
	if err != nil || !strings.Contains(string(svg), "not a measurement, not the atlas") {
		t.Errorf("the engine table's plot is not labelled as tuned (%v)", err)
	}
}

// TestMeasuredScoredColumn: the report's values table has the scored
// differences' column when they valued a piece, and not otherwise.
func TestMeasuredScoredColumn(t *testing.T) {
	reg, sc := stats.NewInterval(2.9, 0.1), stats.NewInterval(3.3, 0.05)
	v := &values.VariantValues{Variant: "chess", Games: 10, Pieces: []values.PieceValues{{Piece: "P"}, {Piece: "N", Regression: &reg}}}
	var b strings.Builder
	writeMeasured(&b, v)
	if strings.Contains(b.String(), "scored") {
		t.Errorf("a scored column without scored values:\n%s", b.String())
	}
	v.Pieces[1].Scored = &sc
	b.Reset()
	writeMeasured(&b, v)
	if want := "| N | 2.90 [2.70, 3.10] | – | – | 3.30 [3.20, 3.40] |"; !strings.Contains(b.String(), "| scored (a pawn up = 1) |") || !strings.Contains(b.String(), want) {
		t.Errorf("report table lacks the scored column or %q:\n%s", want, b.String())
	}
}
