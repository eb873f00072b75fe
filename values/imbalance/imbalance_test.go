package imbalance

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// The test fixtures are functions rather than package variables so that no
// test can modify another's data.

func pieceNames() []string { return []string{"P", "N", "B", "R", "Q"} }

// trueValues are in pawns; trueScale converts them to log-odds.
func trueValues() []float64 { return []float64{1, 3.2, 3.4, 5.1, 9.6} }

const trueScale = 0.55 // β_j = trueScale·v_j

// design lists imbalances as pieces removed from (first, second) player.
func design() [][2][]string {
	return [][2][]string{
		{{"P"}, nil},                            // pawn odds
		{{"N"}, {"P", "P", "P"}},                // N vs 3P
		{{"B"}, {"N"}},                          // B vs N
		{{"N", "N"}, {"B", "B"}},                // bishop pair
		{{"R"}, {"N", "P"}},                     // exchange + pawn
		{{"R"}, {"B"}},                          // exchange
		{{"Q"}, {"R", "R"}},                     // Q vs 2R
		{{"Q"}, {"R", "N"}},                     // Q vs R+N
		{{"B", "P"}, {"R"}},                     // R vs B+P
		{{"N", "N", "P"}, {"R", "P", "P", "P"}}, // mixed
	}
}

// simulate plays n games per design entry with the true model. Draws occur
// with probability 0.6·min(p, 1−p)·2, leaving E[score] = p.
func simulate(t *testing.T, n int, seed uint64) []Match {
	t.Helper()
	return simulateShifted(t, n, seed, -1, 0)
}

// simulateShifted is simulate with design entry odd's log-odds shifted by
// shift: a match that breaks the additive model (none when odd is -1).
func simulateShifted(t *testing.T, n int, seed uint64, odd int, shift float64) []Match {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 9))
	var ms []Match
	for i, d := range design() {
		diff, err := DiffFromRemoved(pieceNames(), d[0], d[1])
		if err != nil {
			t.Fatal(err)
		}
		z := 0.0
		for j, x := range diff {
			z += trueScale * trueValues()[j] * x
		}
		if i == odd {
			z += shift
		}
		p := 1 / (1 + math.Exp(-z))
		pd := 1.2 * min(p, 1-p)
		m := Match{Diff: diff}
		for range n {
			switch u := rng.Float64(); {
			case u < p-pd/2:
				m.Wins++
			case u < p+pd/2:
				m.Draws++
			default:
				m.Losses++
			}
		}
		ms = append(ms, m)
	}
	return ms
}

func TestDiffFromRemoved(t *testing.T) {
	d, err := DiffFromRemoved(pieceNames(), []string{"N", "P"}, []string{"R", "P", "P"})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, -1, 0, 1, 0} // P: −1+2, N: −1, R: +1
	for j := range want {
		if d[j] != want[j] {
			t.Fatalf("DiffFromRemoved = %v, want %v", d, want)
		}
	}
	if _, err := DiffFromRemoved(pieceNames(), []string{"X"}, nil); err == nil {
		t.Error("unknown piece accepted")
	}
	// A replacement: the first side's rook (on file a) becomes a queen
	// (it lacks a rook and has an extra queen) against three pawns.
	d, err = DiffFromRemoved(pieceNames(), []string{"R@a>Q"}, []string{"P", "P", "P"})
	if err != nil {
		t.Fatal(err)
	}
	want = []float64{3, 0, 0, -1, 1}
	for j := range want {
		if d[j] != want[j] {
			t.Fatalf("DiffFromRemoved(R@a>Q vs 3P) = %v, want %v", d, want)
		}
	}
	if p, x := PieceOf("R@a>Q"), Added("R@a>Q"); p != "R" || x != "Q" {
		t.Errorf("PieceOf, Added(R@a>Q) = %q, %q", p, x)
	}
	if got := PiecesOf([]string{"R@a>Q", "P@d"}, []string{"P", "N", "R"}); !slices.Equal(got, []string{"R", "Q", "P", "N"}) {
		t.Errorf("PiecesOf = %v, want [R Q P N]", got)
	}
	if _, err := DiffFromRemoved(pieceNames(), []string{"R>X"}, nil); err == nil {
		t.Error("unknown added piece accepted")
	}
}

func TestFitRecoversValues(t *testing.T) {
	ms := simulate(t, 4000, 1)
	res, err := Fit(pieceNames(), ms, Options{Reference: "P"})
	if err != nil {
		t.Fatal(err)
	}
	if !(res.Dispersion > 0.3 && res.Dispersion < 1) {
		t.Errorf("dispersion %v, want in (0.3, 1) with draws", res.Dispersion)
	}
	if math.Abs(res.Scale-1/trueScale) > 0.2/trueScale {
		t.Errorf("scale %v, want ≈ %v", res.Scale, 1/trueScale)
	}
	covered := 0
	for j, e := range res.Estimates {
		if e.Piece != pieceNames()[j] {
			t.Fatalf("estimate %d is for %q", j, e.Piece)
		}
		if j == 0 {
			if e.Value != 1 || e.SE != 0 {
				t.Errorf("reference: value %v SE %v, want 1, 0", e.Value, e.SE)
			}
			continue
		}
		if !(e.SE > 0 && e.SE < 1) {
			t.Errorf("%s: SE %v implausible", e.Piece, e.SE)
		}
		if z := (e.Value - trueValues()[j]) / e.SE; math.Abs(z) > 4 {
			t.Errorf("%s: %.3f ± %.3f vs truth %.2f (%.1f SE)", e.Piece, e.Value, e.SE, trueValues()[j], z)
		}
		if e.Lo <= trueValues()[j] && trueValues()[j] <= e.Hi {
			covered++
		}
		if math.Abs((e.Hi-e.Lo)/(2*e.SE)-1.959964) > 1e-5 {
			t.Errorf("%s: interval half-width %v SE, want 1.96", e.Piece, (e.Hi-e.Lo)/(2*e.SE))
		}
	}
	if covered < 3 {
		t.Errorf("intervals cover %d of 4 non-reference values", covered)
	}

	// Re-normalised to Knight = 3 the ratios are unchanged.
	kn, err := Fit(pieceNames(), ms, Options{Reference: "N", RefValue: 3})
	if err != nil {
		t.Fatal(err)
	}
	for j := range pieceNames() {
		want := 3 * res.Estimates[j].Value / res.Estimates[1].Value
		if math.Abs(kn.Estimates[j].Value-want) > 1e-9*math.Abs(want) {
			t.Errorf("%s: N=3 value %v, want %v", pieceNames()[j], kn.Estimates[j].Value, want)
		}
	}
}

// TestStandardErrorsAreCalibrated repeats the experiment and compares the
// spread of the estimates with the reported delta-method SE.
func TestStandardErrorsAreCalibrated(t *testing.T) {
	const reps = 100
	vals := make([][]float64, len(pieceNames()))
	ses := make([][]float64, len(pieceNames()))
	for r := range reps {
		res, err := Fit(pieceNames(), simulate(t, 1500, uint64(100+r)), Options{Reference: "P"})
		if err != nil {
			t.Fatal(err)
		}
		for j, e := range res.Estimates {
			vals[j] = append(vals[j], e.Value)
			ses[j] = append(ses[j], e.SE)
		}
	}
	for j := 1; j < len(pieceNames()); j++ {
		sd := stat.StdDev(vals[j], nil)
		se := stat.Mean(ses[j], nil)
		if r := sd / se; r < 0.78 || r > 1.25 {
			t.Errorf("%s: empirical SD %.4f vs mean SE %.4f (ratio %.2f)", pieceNames()[j], sd, se, r)
		}
		if bias := stat.Mean(vals[j], nil) - trueValues()[j]; math.Abs(bias) > 4*sd/math.Sqrt(float64(reps))+0.02*trueValues()[j] {
			t.Errorf("%s: mean estimate off by %.3f", pieceNames()[j], bias)
		}
	}
}

func TestBinomialDispersionIsWider(t *testing.T) {
	ms := simulate(t, 2000, 5)
	q, err := Fit(pieceNames(), ms, Options{Reference: "P"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(pieceNames(), ms, Options{Reference: "P", Dispersion: Binomial})
	if err != nil {
		t.Fatal(err)
	}
	if b.Dispersion != 1 {
		t.Errorf("binomial dispersion %v", b.Dispersion)
	}
	for j := 1; j < len(pieceNames()); j++ {
		want := q.Estimates[j].SE / math.Sqrt(q.Dispersion)
		if got := b.Estimates[j].SE; math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: binomial SE %v, want %v", pieceNames()[j], got, want)
		}
	}
}

func TestUnidentifiedPieceIsNaN(t *testing.T) {
	pieces := append(append([]string(nil), pieceNames()...), "A") // A never appears
	var ms []Match
	for _, m := range simulate(t, 1000, 7) {
		m.Diff = append(m.Diff, 0)
		ms = append(ms, m)
	}
	res, err := Fit(pieces, ms, Options{Reference: "P"})
	if err != nil {
		t.Fatal(err)
	}
	if e := res.Estimates[5]; !math.IsNaN(e.SE) || !math.IsNaN(e.LogitSE) {
		t.Errorf("absent piece: %+v, want NaN SE", e)
	}
	for _, e := range res.Estimates[1:5] {
		if math.IsNaN(e.SE) {
			t.Errorf("%s: SE NaN", e.Piece)
		}
	}
}

func TestFitInputErrors(t *testing.T) {
	ms := simulate(t, 10, 1)
	if _, err := Fit(pieceNames(), ms, Options{Reference: "K"}); err == nil {
		t.Error("unknown reference accepted")
	}
	bad := []Match{{Diff: []float64{1}, Wins: 1}}
	if _, err := Fit(pieceNames(), bad, Options{Reference: "P"}); err == nil {
		t.Error("short Diff accepted")
	}
	if _, err := Fit(pieceNames(), nil, Options{Reference: "P"}); err == nil {
		t.Error("no games accepted")
	}
	// A whitewash separates the data: without a ridge the MLE is infinite.
	sep := []Match{{Diff: []float64{1, 0, 0, 0, 0}, Wins: 50}}
	if res, err := Fit(pieceNames(), sep, Options{Reference: "P", Ridge: 1}); err != nil || math.IsNaN(res.Estimates[0].Logit) || res.Estimates[0].Logit <= 0 {
		t.Errorf("ridge fit of a whitewash: %v, %+v", err, res)
	}
}
