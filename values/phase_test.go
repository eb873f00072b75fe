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
	// Relative to the knight in the same band: the ratio of the band
	// values, with an interval that covers the true ratio.
	for b := range r.Bands {
		want := endgameVals((r.Bands[b].Lo + r.Bands[b].Hi) / 2)
		for c := 2; c < len(synthNames); c++ {
			k := r.knights(c, 1, b)
			if k == nil || math.Abs(float64(k.Value)-float64(r.Values[c][b].Value/r.Values[1][b].Value)) > 1e-12 ||
				!(k.SE > 0) || math.Abs(float64(k.Value)-want[c]/want[1]) > 3.3*float64(k.SE) {
				t.Errorf("%s/N in phase %s: %v, true %.3f", synthNames[c], r.Bands[b], k, want[c]/want[1])
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

// TestSeparatedClassNotIdentified: a class whose every difference the
// side with more of it won (a queen up in the endings kept by
// shared_pieces) has no finite value; the fit marks it separated and not
// identified in that band, and fits every other value, instead of failing
// as a whole. Without the check Fisher scoring drives its value to
// infinity and the information matrix becomes singular.
func TestSeparatedClassNotIdentified(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	s := synthGames(rng, 4000, 1, synthVals, 0, 0.4, 0.2)
	for i := range s {
		if s[i].Phase < 0.25 && s[i].Diff[3] != 0 {
			s[i].Result = 0 // the side with more rooks always wins in the endgame
			if s[i].Diff[3] > 0 {
				s[i].Result = 1
			}
		}
	}
	r, err := FitByPhase(synthNames, s, PhaseBands(), RegressionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Identified[3][0] {
		t.Errorf("R identified in the endgame band, value %v, though every game there was won by the side with more", r.Values[3][0])
	}
	if k := 1 + 2*len(r.Bands); !r.Fit.Separated[k] {
		t.Errorf("R@%s not marked separated", r.Bands[0])
	}
	for b := 1; b < len(r.Bands); b++ {
		if !r.Identified[3][b] {
			t.Errorf("R not identified in band %s", r.Bands[b])
		}
	}
	// Pooled, the rook's other differences keep it finite.
	pooled, err := FitRegression(synthNames, s, RegressionOptions{})
	if err != nil || !pooled.Identified[3] || pooled.Separated[3] {
		t.Errorf("pooled rook: %v, identified %v (%v)", pooled, pooled != nil && pooled.Identified[3], err)
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
	checkPlots(t, vv, "values-chess.png", "values-chess.svg", "values-chess-phase.png", "values-chess-phase.svg")
}

// checkPlots plots a document of the one variant and checks the files it
// writes: these names in this order, none empty.
func checkPlots(t *testing.T, vv VariantValues, want ...string) {
	t.Helper()
	files, err := (&Document{Variants: []VariantValues{vv}}).Plot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
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
// band by band, in pawns and relative to the knight: the bands whose
// value the imbalance value agrees with (Tamerlane II's cannon, which
// needs screens, agrees in the bands with more material and not in the
// endgame's), and nothing for a piece that agrees pooled in both units.
func TestPhaseAgreement(t *testing.T) {
	iv := func(v, se float64) *stats.Interval { x := stats.NewInterval(v, se); return &x }
	bands := PhaseBands()
	p := PieceValues{Piece: "O", Regression: iv(4.32, 0.17), Imbalance: iv(5.73, 0.35)}
	knights := []float64{1.19, 1.46, 1.61, 0}
	for b, v := range []float64{2.38, 4.02, 6.00, 0} {
		pv := PhaseValue{Band: bands[b]}
		if v > 0 {
			pv.Value, pv.Knights = iv(v, 0.2), iv(knights[b], 0.1)
		}
		p.ByPhase = append(p.ByPhase, pv)
	}
	p.AgreementZ = agreementZ(p.Regression, p.Imbalance)
	p.Disagree = true
	n := ScaledValues{Scale: "N=1", Regression: iv(1.54, 0.08), Imbalance: iv(2.26, 0.33)}
	n.AgreementZ = agreementZ(n.Regression, n.Imbalance)
	p.Scaled = []ScaledValues{n}
	setImbalanceZ(p.ByPhase, p.Imbalance, n.Imbalance)
	if p.ByPhase[3].ImbalanceZ != nil || p.ByPhase[3].KnightsImbalanceZ != nil {
		t.Errorf("unidentified band has a z")
	}
	if z := p.ByPhase[2].ImbalanceZ; z == nil || math.Abs(*z-0.27/math.Hypot(0.2, 0.35)) > 1e-4 {
		t.Errorf("band 0.50-0.75: z %v, want %.4f", z, 0.27/math.Hypot(0.2, 0.35))
	}
	if z := p.ByPhase[2].KnightsImbalanceZ; z == nil || math.Abs(*z-(-0.65)/math.Hypot(0.1, 0.33)) > 1e-4 {
		t.Errorf("band 0.50-0.75 in N=1: z %v, want %.4f", z, -0.65/math.Hypot(0.1, 0.33))
	}
	got := phaseAgreement(&p)
	want := "O: pooled, the methods disagree (z -3.62) in pawns and disagree (z -2.12) relative to the knight; " +
		"by phase the imbalance value agrees with the regression in pawns at 0.50-0.75 (z +0.67) and not at 0.00-0.25 (z -8.31), 0.25-0.50 (z -4.24); " +
		"relative to the knight at 0.50-0.75 (z -1.89) and not at 0.00-0.25 (z -3.10), 0.25-0.50 (z -2.32)."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	var b strings.Builder
	phaseMarkdown(&b, &VariantValues{Pieces: []PieceValues{p}})
	for _, w := range []string{"6.00 [5.61, 6.39] (z +0.67)", "1.61 [1.41, 1.81] (z -1.89)", "relative to the knight in the same band", "- " + want} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("markdown lacks %q:\n%s", w, b.String())
		}
	}
	// Pooled agreement in both units: no sentence, whatever the bands say.
	p.AgreementZ = agreementZ(p.Regression, iv(4.5, 0.35))
	p.Scaled[0].AgreementZ = agreementZ(n.Regression, iv(1.6, 0.33))
	if s := phaseAgreement(&p); s != "" {
		t.Errorf("a piece that agrees pooled: %q", s)
	}
	// A disagreement in one unit is enough; no band with both, nothing.
	p.Scaled[0].AgreementZ = n.AgreementZ
	if s := phaseAgreement(&p); !strings.HasPrefix(s, "O: pooled, the methods agree (z -0.46) in pawns and disagree (z -2.12) relative to the knight;") {
		t.Errorf("disagreement relative to the knight only: %q", s)
	}
	// No band that agrees: the bands are listed as such.
	p.ByPhase[2].KnightsImbalanceZ = agreementZ(p.ByPhase[2].Knights, iv(2.26, 0.05))
	if s := phaseAgreement(&p); !strings.HasSuffix(s, "; relative to the knight in no band (0.00-0.25 (z -3.10), 0.25-0.50 (z -2.32), 0.50-0.75 (z -5.81)).") {
		t.Errorf("no band agrees relative to the knight: %q", s)
	}
	for k := range p.ByPhase {
		p.ByPhase[k].ImbalanceZ, p.ByPhase[k].KnightsImbalanceZ = nil, nil
	}
	if s := phaseAgreement(&p); s != "" {
		t.Errorf("no band with both: %q", s)
	}
}

// TestScaledPlot: a variant with values in its published scale (R=5) gets
// a plot in that scale, where each source's figures are its own ratios
// to the rook (Zillions' R 8.33 and A 12.83 pawns plot at 5 and 7.70),
// and a source without a rook is left out of it.
func TestScaledPlot(t *testing.T) {
	iv := func(v float64) *stats.Interval { x := stats.NewInterval(v, 0.1); return &x }
	zil := func(v float64) []PublishedValue {
		return []PublishedValue{{Source: "zillions", Value: v, Kind: "engine-guess"}, {Source: "zillions", Value: 99, Kind: "engine-guess"}}
	}
	vv := VariantValues{Variant: "tamerlane2", Scale: Scale, Pieces: []PieceValues{
		{Piece: "P"},
		{Piece: "R", Imbalance: iv(12.6), Scaled: []ScaledValues{{Scale: "R=5", Imbalance: iv(5)}}, Published: zil(8.33)},
		{Piece: "A", Imbalance: iv(19.4), Scaled: []ScaledValues{{Scale: "R=5", Imbalance: iv(7.73)}},
			Published: append(zil(12.83), PublishedValue{Source: "other", Value: 15, Kind: "estimate"})},
	}}
	r5 := vv.publishedOf("R")
	conv := func(source string, x float64) (float64, bool) { r, ok := r5[source]; return x * 5 / r, ok }
	pub := publishedSeries(&vv, conv)
	if len(pub) != 1 || pub[0].Label != "zillions (engine-guess)" || len(pub[0].Points) != 2 {
		t.Fatalf("published series in R=5: %+v", pub)
	}
	if a := pub[0].Points[1]; a.Piece != "A" || math.Abs(a.Value-12.83*5/8.33) > 1e-9 {
		t.Errorf("Zillions' eagle in R=5: %+v, want %.4f", a, 12.83*5/8.33)
	}
	if all := publishedSeries(&vv, func(_ string, x float64) (float64, bool) { return x, true }); len(all) != 2 || all[0].Points[0].Value != 8.33 {
		t.Errorf("published series in pawns: %+v", all)
	}
	est := estimateSeries(&vv, func(p *PieceValues) (*stats.Interval, *stats.Interval) {
		if x := p.scaled("R=5"); x != nil {
			return x.Regression, x.Imbalance
		}
		return nil, nil
	})
	if len(est[0].Points) != 0 || len(est[1].Points) != 2 || est[1].Points[1].Value != 7.73 {
		t.Errorf("estimates in R=5: %+v", est)
	}
	checkPlots(t, vv, "values-tamerlane2.png", "values-tamerlane2.svg", "values-tamerlane2-R5.png", "values-tamerlane2-R5.svg")
}
