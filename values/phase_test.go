package values

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/internal/stats"
)

// endgameVals are true values that drop in the endgame band (a minor
// piece worth two pawns when less than a quarter of the pieces is left),
// as the chess calibration games show.
func endgameVals(phase float64) []float64 {
	if phase < 0.25 {
		return []float64{1, 2, 2.5, 3.5}
	}
	return synthVals
}

func TestFitByPhaseRecoversBandValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := synthGamesAt(rng, 30000, 2, endgameVals, 0.1, 0.35, 0.3)
	r, err := FitByPhase(synthNames, s, PhaseBands(), RegressionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 12 values are checked at once: each within 3.3 SE (99.9%), so that
	// the test fails for a biased fit and almost never by chance.
	for b, band := range r.Bands {
		want := endgameVals((band.Lo + band.Hi) / 2)
		for c := 1; c < len(synthNames); c++ {
			e := r.Values[c][b]
			if !r.Identified[c][b] || math.Abs(float64(e.Value)-want[c]) > 3.3*float64(e.SE) {
				t.Errorf("%s in phase %s: %.3f [%.3f, %.3f] (identified %v), true %.2f", synthNames[c], band, e.Value, e.Lo, e.Hi, r.Identified[c][b], want[c])
			}
		}
	}
	// The pooled fit mixes the bands: its knight lies between the two
	// true values and misses the endgame's, which only the by-phase fit
	// tells apart.
	pooled, err := FitRegression(synthNames, s, RegressionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := pooled.Values[1]; n.Covers(2) || n.Value <= 2 || n.Value >= 3 {
		t.Errorf("pooled N %.3f [%.3f, %.3f]: want strictly between 2 and 3, not covering 2", n.Value, n.Lo, n.Hi)
	}
}

func TestPhaseBandEdges(t *testing.T) {
	bands := PhaseBands()
	for _, c := range []struct {
		phase float64
		band  int
	}{{0, 0}, {0.2499, 0}, {0.25, 1}, {0.5, 2}, {0.75, 3}, {1, 3}} {
		n := 0
		for k, b := range bands {
			if b.contains(c.phase) {
				n++
				if k != c.band {
					t.Errorf("phase %g in band %d, want %d", c.phase, k, c.band)
				}
			}
		}
		if n != 1 {
			t.Errorf("phase %g in %d bands, want 1", c.phase, n)
		}
	}
}

// TestFitByPhaseIdentification: a class that differs only in the endgame
// is identified there and reported unknown in the other bands.
func TestFitByPhaseIdentification(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := synthGames(rng, 4000, 1, synthVals, 0, 0.4, 0.2)
	for i := range s {
		if s[i].Phase >= 0.25 {
			s[i].Diff = append([]float64(nil), s[i].Diff...)
			s[i].Diff[3] = 0 // no rook difference outside the endgame
		}
	}
	r, err := FitByPhase(synthNames, s, PhaseBands(), RegressionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Identified[3][0] {
		t.Error("R not identified in the endgame band")
	}
	for b := 1; b < len(r.Bands); b++ {
		if r.Identified[3][b] {
			t.Errorf("R identified in band %s without a difference", r.Bands[b])
		}
		if pv := r.phaseValues(3)[b]; pv.Value != nil {
			t.Errorf("R in band %s has a value %v, want null", r.Bands[b], pv.Value)
		}
	}
	var b strings.Builder
	phaseMarkdown(&b, &VariantValues{Pieces: []PieceValues{{Piece: "R", ByPhase: r.phaseValues(3)}}})
	if !strings.Contains(b.String(), "| R | ") || !strings.Contains(b.String(), "phase 0.75-1.00") || !strings.Contains(b.String(), "–") {
		t.Errorf("markdown:\n%s", b.String())
	}
}

func TestFitByPhaseRejectsBadSamples(t *testing.T) {
	s := []Sample{{Diff: []float64{1, 0}, Phase: 0.5, Weight: 1}}
	if _, err := FitByPhase(synthNames, s, PhaseBands(), RegressionOptions{}); err == nil || !strings.Contains(err.Error(), "classes") {
		t.Errorf("short Diff: err %v", err)
	}
	s = []Sample{{Diff: []float64{1, 0, 0, 0}, Phase: 1.5, Weight: 1}}
	if _, err := FitByPhase(synthNames, s, PhaseBands(), RegressionOptions{}); err == nil || !strings.Contains(err.Error(), "no band") {
		t.Errorf("phase 1.5: err %v", err)
	}
}

// TestPhasePlot: a variant with by-phase values gets a second plot, one
// series per band, with a point for each identified value only.
func TestPhasePlot(t *testing.T) {
	iv := func(v float64) *stats.Interval { x := stats.NewInterval(v, 0.1); return &x }
	bands := PhaseBands()
	row := func(piece string, vals ...float64) PieceValues {
		p := PieceValues{Piece: piece, Regression: iv(vals[0])}
		for b, v := range vals {
			pv := PhaseValue{Band: bands[b]}
			if v > 0 {
				pv.Value = iv(v)
			}
			p.ByPhase = append(p.ByPhase, pv)
		}
		return p
	}
	vv := VariantValues{Variant: "chess", Scale: Scale, Pieces: []PieceValues{{Piece: "P"}, row("N", 1.8, 3, 3.2, 0), row("R", 3, 4.6, 4.5, 4.9)}}
	s := phaseSeries(&vv)
	if len(s) != 4 || len(s[0].Points) != 2 || len(s[3].Points) != 1 || s[3].Points[0].Piece != "R" || s[1].Points[0].Value != 3 {
		t.Fatalf("series %+v", s)
	}
	dir := t.TempDir()
	files, err := (&Document{Variants: []VariantValues{vv}}).Plot(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"values-chess.png", "values-chess.svg", "values-chess-phase.png", "values-chess-phase.svg"}
	if len(files) != len(want) {
		t.Fatalf("files %v, want %v", files, want)
	}
	for i, f := range files {
		if filepath.Base(f) != want[i] {
			t.Errorf("file %d: %s, want %s", i, f, want[i])
		}
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestPhaseAgreement: a piece whose pooled values disagree is described
// band by band: the bands whose value the imbalance value agrees with
// (the cannon of Tamerlane II, which needs screens, agrees in the
// opening's bands and not in the endgame's), and none for a piece that
// agrees pooled.
func TestPhaseAgreement(t *testing.T) {
	iv := func(v, se float64) *stats.Interval { x := stats.NewInterval(v, se); return &x }
	bands := PhaseBands()
	p := PieceValues{Piece: "O", Regression: iv(4.32, 0.17), Imbalance: iv(5.73, 0.35)}
	for b, v := range []float64{2.38, 4.02, 6.00, 0} {
		pv := PhaseValue{Band: bands[b]}
		if v > 0 {
			pv.Value = iv(v, 0.2)
		}
		p.ByPhase = append(p.ByPhase, pv)
	}
	p.AgreementZ = agreementZ(p.Regression, p.Imbalance)
	p.Disagree = true
	setImbalanceZ(p.ByPhase, p.Imbalance)
	if p.ByPhase[3].ImbalanceZ != nil {
		t.Errorf("unidentified band has z %v", *p.ByPhase[3].ImbalanceZ)
	}
	if z := p.ByPhase[2].ImbalanceZ; z == nil || math.Abs(*z-0.27/math.Hypot(0.2, 0.35)) > 1e-4 {
		t.Errorf("band 0.50-0.75: z %v, want %.4f", z, 0.27/math.Hypot(0.2, 0.35))
	}
	got := phaseAgreement(&p)
	want := "O: the methods disagree pooled (z -3.62); the imbalance value agrees with the regression by phase at 0.50-0.75 (z +0.67) and not at 0.00-0.25 (z -8.31), 0.25-0.50 (z -4.24)."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	var b strings.Builder
	phaseMarkdown(&b, &VariantValues{Pieces: []PieceValues{p}})
	if !strings.Contains(b.String(), "6.00 [5.61, 6.39] (z +0.67)") || !strings.Contains(b.String(), "- "+want) {
		t.Errorf("markdown:\n%s", b.String())
	}
	p.Disagree, p.ByPhase[0].ImbalanceZ = false, nil
	if s := phaseAgreement(&p); s != "" {
		t.Errorf("a piece that agrees pooled: %q", s)
	}
	p.Disagree = true
	for k := range p.ByPhase {
		p.ByPhase[k].ImbalanceZ = nil
	}
	if s := phaseAgreement(&p); s != "" {
		t.Errorf("no band with both: %q", s)
	}
}
