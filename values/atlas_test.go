package values

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tamerlane/internal/stats"
	"tamerlane/values/published"
)

// TestWriteAtlas writes the atlas of a small finished run and reads it
// back: every value the document has, with its interval, and the
// provenance the run records.
func TestWriteAtlas(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	cfgPath := runTinyFile(t, dir)
	builds, err := ReadBuilds(dir)
	if err != nil || len(builds) != 1 || builds[0].Executable == "" || builds[0].Go == "" {
		t.Fatalf("builds %+v, %v: want the test binary's", builds, err)
	}
	prov, err := ReadRunProvenance(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := RunDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(cfgPath)
	sum := sha256.Sum256(raw)
	if prov.Config != filepath.ToSlash(cfgPath) || prov.ConfigSHA256 != hex.EncodeToString(sum[:]) || prov.Nodes != 100 ||
		prov.Engine != builds[0].Name() || prov.Date != time.Now().UTC().Format("2006-01-02") || prov.Name != "tiny" {
		t.Errorf("provenance %+v", prov)
	}
	if hs, err := MeasurementHashes(dirs); err != nil || len(hs) != 1 || hs[0] != prov.Measurement || len(prov.Measurement) != 64 {
		t.Errorf("measurement hashes %v (%v), provenance %q", hs, err, prov.Measurement)
	}
	if _, err := ReadRunProvenance(dir, "", "abc123"); err == nil || !strings.Contains(err.Error(), "leave out --engine-build") {
		t.Errorf("a build flag beside recorded builds: %v", err)
	}
	other := filepath.Join(t.TempDir(), "other.yaml")
	os.WriteFile(other, []byte(strings.Replace(tinyMeasure, "seed: 3", "seed: 4", 1)), 0o644)
	if _, err := ReadRunProvenance(dir, other, ""); err == nil || !strings.Contains(err.Error(), "is not the config of this run") {
		t.Errorf("another config: %v", err)
	}

	cat, err := published.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Measure(dirs, cat, Options{Samples: SampleOptions{MinPly: 4}, Regression: RegressionOptions{MinGames: 5}})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "chess.yaml")
	if _, err := WriteAtlas(out, doc, "chess", prov, cat); err != nil {
		t.Fatal(err)
	}
	tab, err := published.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	v := doc.Variant("chess")
	checked := 0
	for _, p := range v.Pieces {
		for _, m := range []struct {
			source string
			iv     *stats.Interval
		}{{AtlasRegression, p.Regression}, {AtlasImbalance, p.Imbalance}, {AtlasBridged, p.Bridged}} {
			if p.Piece == "P" || m.iv == nil || !(m.iv.Value > 0) {
				continue
			}
			vs, _ := tab.Values(p.Piece, published.PawnOne)
			found := false
			for _, x := range vs {
				if x.Source.ID == m.source {
					found = true
					if !x.HasInterval || !near3(x.Value, float64(m.iv.Value)) || !near3(x.Lo, float64(m.iv.Lo)) || !near3(x.Hi, float64(m.iv.Hi)) {
						t.Errorf("%s %s: atlas %+v, document %s", m.source, p.Piece, x, m.iv.Format(3))
					}
					checked++
				}
			}
			if !found {
				t.Errorf("%s %s missing from the atlas", m.source, p.Piece)
			}
		}
	}
	if checked < 3 {
		t.Errorf("only %d estimates checked", checked)
	}
	for _, id := range atlasSources() {
		src, ok := tab.Source(id)
		if !ok || src.Kind != published.Measured || src.Provenance == nil || src.Provenance.Method != id || src.Provenance.ConfigSHA256 != prov.ConfigSHA256 ||
			src.Provenance.Measurement != prov.Measurement {
			t.Fatalf("source %s: %+v", id, src)
		}
	}
	reg, _ := tab.Source(AtlasRegression)
	imb, _ := tab.Source(AtlasImbalance)
	if reg.Provenance.Games != v.Games || reg.Provenance.Positions != v.Samples || imb.Provenance.Games != v.ImbalanceGames || imb.Provenance.Positions != 0 {
		t.Errorf("games: regression %+v, imbalance %+v; document %d games, %d samples, %d imbalance games", reg.Provenance, imb.Provenance, v.Games, v.Samples, v.ImbalanceGames)
	}
}

// TestReadRunProvenanceOldRun: a run that records neither its config's
// path nor its builds (as runs before they were recorded) needs both
// named.
func TestReadRunProvenanceOldRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	cfgPath := runTinyFile(t, dir)
	os.RemoveAll(filepath.Join(dir, BuildsDir))
	mj := filepath.Join(dir, "measure.json")
	b, _ := os.ReadFile(mj)
	os.WriteFile(mj, []byte(strings.Replace(string(b), `"config_file"`, `"x"`, 1)), 0o644)
	if _, err := ReadRunProvenance(dir, "", "abc123"); err == nil || !strings.Contains(err.Error(), "--config") {
		t.Errorf("no config path: %v", err)
	}
	if _, err := ReadRunProvenance(dir, cfgPath, ""); err == nil || !strings.Contains(err.Error(), "--engine-build") {
		t.Errorf("no build: %v", err)
	}
	p, err := ReadRunProvenance(dir, cfgPath, "abc123")
	if err != nil || p.Engine != "abc123" {
		t.Errorf("named config and build: %+v, %v", p, err)
	}
}

// TestAtlasScaled: a variant published in R=5 gets both methods in R=5
// too, the delta-method intervals of the document (not the P=1 ones
// rescaled), the rook at exactly 5; a piece measured at no positive value
// is left out and named.
func TestAtlasScaled(t *testing.T) {
	cat, err := published.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	b, notes, err := Atlas(scaledDoc(), "tamerlane2", testProvenance(), cat)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "regression C in P=1 left out") {
		t.Errorf("notes %q", notes)
	}
	tab, err := published.Parse("tamerlane2.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		piece, source string
		sc            published.Scale
		value, lo, hi float64
		interval      bool
	}{
		{"N", AtlasRegression, published.RookFive, 2.4, 2.204, 2.596, true},
		{"N", AtlasImbalance, published.RookFive, 2.2, 1.808, 2.592, true},
		{"R", AtlasRegression, published.RookFive, 5, 0, 0, false},
		{"P", AtlasRegression, published.RookFive, 0.8, 0.702, 0.898, true},
		{"P", AtlasImbalance, published.PawnOne, 1, 0, 0, false},
		{"R", AtlasImbalance, published.PawnOne, 5.7, 4.72, 6.68, true},
	}
	for _, w := range want {
		vs, _ := tab.Values(w.piece, w.sc)
		ok := false
		for _, x := range vs {
			if x.Source.ID == w.source {
				ok = near3(x.Value, w.value) && x.HasInterval == w.interval && (!w.interval || near3(x.Lo, w.lo) && near3(x.Hi, w.hi))
				if !ok {
					t.Errorf("%s %s in %s: %+v, want %v [%v, %v]", w.source, w.piece, w.sc, x, w.value, w.lo, w.hi)
				}
			}
		}
		if !ok {
			t.Errorf("%s %s in %s: not found", w.source, w.piece, w.sc)
		}
	}
	if name, _ := tab.PieceName("N"); name != "knight" {
		t.Errorf("N is named %q", name)
	}
	if _, _, ok := tab.Value("C", published.PawnOne); ok {
		t.Error("the camel's negative value was written")
	}
	bridged := 0
	for _, e := range tab.Entries {
		if e.Source != AtlasBridged {
			continue
		}
		bridged++
		if e.Scale != published.PawnOne {
			t.Errorf("a bridged entry in %s (the imbalance's own ratios): %+v", e.Scale, e)
		}
	}
	if bridged == 0 {
		t.Error("no bridged entry written")
	}
}

// scaledDoc is a values document of Tamerlane II: the pawn, knight and
// rook by both methods in P=1 and R=5, a camel measured below zero.
func scaledDoc() *Document {
	iv := func(v, se float64) *stats.Interval { x := stats.NewInterval(v, se); return &x }
	return &Document{Variants: []VariantValues{{Variant: "tamerlane2", Games: 100, Samples: 5000, ImbalanceGames: 40, Pieces: []PieceValues{
		{Piece: "P", Regression: iv(1, 0), Scaled: []ScaledValues{{Scale: "R=5", Regression: iv(0.8, 0.05)}}},
		{Piece: "N", Name: "knight", Regression: iv(3, 0.2), Imbalance: iv(2.5, 0.3), Bridged: iv(3.4, 0.25), Scaled: []ScaledValues{{Scale: "R=5", Regression: iv(2.4, 0.1), Imbalance: iv(2.2, 0.2)}}},
		{Piece: "R", Regression: iv(6.25, 0.4), Imbalance: iv(5.7, 0.5), Scaled: []ScaledValues{{Scale: "R=5", Regression: iv(5, 0), Imbalance: iv(5, 0)}}},
		{Piece: "C", Regression: iv(-0.1, 0.3)},
	}}}}
}

// testProvenance returns the provenance of scaledDoc's atlas.
func testProvenance() RunProvenance {
	return RunProvenance{Name: "t", Config: "c.yaml", ConfigSHA256: strings.Repeat("ab", 32), Engine: "4f9d8fb", Date: "2026-12-02", Nodes: 2000}
}

// near3 compares to the atlas's three decimals.
func near3(a, b float64) bool { return a-b < 0.0006 && b-a < 0.0006 }

// TestAtlasReferenceScale: a variant whose values are cited in pawns
// (historical Tamerlane: Muller's figures, P=1) gets its relative values
// in the knight's scale beside them, the knight itself exactly 1, and
// its section and plot show them.
func TestAtlasReferenceScale(t *testing.T) {
	cat, err := published.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if sc := ReferenceScale(cat, "tamerlane"); sc != published.KnightOne {
		t.Fatalf("tamerlane's reference scale %s, want N=1", sc)
	}
	if sc := ReferenceScale(cat, "tamerlane2"); sc != published.RookFive {
		t.Fatalf("tamerlane2's reference scale %s, want its cited R=5", sc)
	}
	iv := func(v, se float64) *stats.Interval { x := stats.NewInterval(v, se); return &x }
	doc := &Document{Variants: []VariantValues{{Variant: "tamerlane", Games: 100, Samples: 5000, ImbalanceGames: 40, Pieces: []PieceValues{
		{Piece: "P", Regression: iv(1, 0), Scaled: []ScaledValues{{Scale: "N=1", Regression: iv(0.15, 0.01), Imbalance: iv(0.25, 0.05)}}},
		{Piece: "N", Name: "knight", Regression: iv(6.5, 0.6), Imbalance: iv(4, 0.8), Scaled: []ScaledValues{{Scale: "N=1", Regression: iv(1, 0), Imbalance: iv(1, 0)}}},
		{Piece: "G", Name: "giraffe", Regression: iv(7.3, 0.7), Imbalance: iv(2.7, 1), Scaled: []ScaledValues{{Scale: "N=1", Regression: iv(1.13, 0.04), Imbalance: iv(0.72, 0.12)}}},
	}}}}
	b, _, err := Atlas(doc, "tamerlane", testProvenance(), cat)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := published.Parse("tamerlane.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		piece, source string
		value         float64
		interval      bool
	}{
		{"N", AtlasRegression, 1, false},
		{"N", AtlasImbalance, 1, false},
		{"G", AtlasRegression, 1.13, true},
		{"G", AtlasImbalance, 0.72, true},
		{"P", AtlasImbalance, 0.25, true},
	} {
		got := AtlasInterval(tab, w.piece, w.source, published.KnightOne)
		var v float64
		found := false
		for _, e := range tab.Entries {
			if e.Piece == w.piece && e.Source == w.source && e.Scale == published.KnightOne {
				found, v = true, e.Value
			}
		}
		if !found || !near3(v, w.value) || (got != nil) != w.interval {
			t.Errorf("%s %s in N=1: found %v, value %v, interval %v; want %v, interval %v", w.source, w.piece, found, v, got, w.value, w.interval)
		}
	}
	md := AtlasMarkdown(tab, cat["tamerlane"], "data/measured/tamerlane.yaml", nil)
	if !strings.Contains(md, "**In N=1**") || !strings.Contains(md, "**In P=1**") {
		t.Errorf("the section lacks a table in P=1 or N=1:\n%s", md)
	}
}
