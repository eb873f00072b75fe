package values

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/internal/stats"
	"tamerlane/values/published"
)

// scoredGame is one hand-made game of TestScoredByHand: its difference
// (White's minus Black's) and White's result.
type scoredGame struct {
	diff   []float64
	result float64
}

func scoredSamples(games []scoredGame) []Sample {
	var out []Sample
	for g, x := range games {
		out = append(out, Sample{Diff: x.diff, Phase: 0.5, Game: g, Result: x.result, Weight: 1})
	}
	return out
}

// times returns games, each k times over (as games of their own).
func times(games []scoredGame, k int) []scoredGame {
	var out []scoredGame
	for range k {
		out = append(out, games...)
	}
	return out
}

// TestScoredUnitNotAboveHalf: where the pawn-up score's 95% interval
// reaches half, a pawn is no unit (the ratio's confidence set is
// unbounded): no difference gets a worth in pawns and no piece a value,
// and the note says why; ten times the games make it a unit again.
func TestScoredUnitNotAboveHalf(t *testing.T) {
	names := []string{"P", "N"}
	up, down := []float64{1, 0}, []float64{-1, 0}
	n3, n3b := []float64{-3, 1}, []float64{3, -1}
	games := []scoredGame{
		{up, 1}, {up, 0.5}, {up, 0.5}, {up, 0}, {up, 1}, {down, 0}, {down, 1}, {down, 0.5}, {down, 0}, {down, 0.5},
		{n3, 0.5}, {n3, 1}, {n3, 0.5}, {n3b, 0.5}, {n3b, 0}, {n3b, 0.5},
	}
	for _, k := range []int{1, 20} {
		s, err := ScoreDifferences(names, scoredSamples(times(games, k)), []float64{1, 3.2}, ScoredOptions{MinGames: 2, Replicates: 200, Seed: 9})
		if err != nil {
			t.Fatal(err)
		}
		lo := float64(s.PawnUp.Score.Value) - stats.Z95*float64(s.PawnUp.Score.SE)
		noUnit := strings.Contains(s.Note, "not above half at 95%")
		if (lo <= 0.5) != noUnit || k == 1 && !noUnit || k == 20 && noUnit {
			t.Errorf("%dx the games: pawn-up score %v (lower bound %.3f), note %q", k, s.PawnUp.Score, lo, s.Note)
		}
		if len(s.Differences) != 1 {
			t.Fatalf("%dx the games: differences %+v", k, s.Differences)
		}
		d := s.Differences[0]
		if noUnit && (d.Used || !math.IsNaN(float64(d.Pawns.Value)) || s.Value("N") != nil) {
			t.Errorf("no unit, yet N vs P+P+P is worth %v pawns (used %v) and N = %v", d.Pawns, d.Used, s.Value("N"))
		}
		if !noUnit && (!d.Used || s.Value("N") == nil) {
			t.Errorf("a unit, yet N vs P+P+P unused (%v) or N unknown (%v)", d.Used, s.Value("N"))
		}
	}
}

// TestScoredByHand checks the estimand on games counted by hand.
func TestScoredByHand(t *testing.T) {
	names := []string{"P", "N"}
	up := []float64{1, 0}
	down := []float64{-1, 0}
	nWhite := []float64{-3, 1} // White has N against three pawns
	nBlack := []float64{3, -1}
	games := []scoredGame{
		{up, 1}, {up, 0.5}, // White a pawn up: 0.75
		{down, 0}, {down, 1}, {down, 0}, // Black a pawn up: Black scores 2/3
		{nWhite, 0.5}, {nWhite, 1}, // White with the knight: 0.75
		{nBlack, 0.5}, {nBlack, 0}, // Black with the knight: 0.75
		{[]float64{0, 1}, 1}, // a knight up (worth 3 > max_pawns): not read
	}
	// Each game ten times: the same scores, with the pawn-up score's
	// interval above half (a unit; see TestScoredUnitNotAboveHalf).
	s, err := ScoreDifferences(names, scoredSamples(times(games, 10)), []float64{1, 3.2}, ScoredOptions{MinGames: 2, Replicates: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	pawn := (0.75 + 2.0/3) / 2
	if got := float64(s.PawnUp.Score.Value); math.Abs(got-pawn) > 1e-12 {
		t.Errorf("pawn-up score %v, want %v", got, pawn)
	}
	if s.PawnUp.GamesWhite != 20 || s.PawnUp.GamesBlack != 30 || s.PawnUp.Difference != "P vs –" {
		t.Errorf("pawn up: %+v", s.PawnUp)
	}
	if len(s.Differences) != 1 {
		t.Fatalf("differences %+v, want N vs P+P+P alone (the knight up is worth 3.2 > 2)", s.Differences)
	}
	d := s.Differences[0]
	if d.Difference != "N vs P+P+P" || !d.Used || math.Abs(d.Worth-0.2) > 1e-12 {
		t.Errorf("difference %+v", d)
	}
	worth := logit(0.75) / logit(pawn)
	if got := float64(d.Pawns.Value); math.Abs(got-worth) > 1e-12 {
		t.Errorf("N vs P+P+P worth %v pawns, want %v", got, worth)
	}
	// One equation, one unknown: v_N − 3 = worth.
	if got := s.Value("N"); got == nil || math.Abs(float64(got.Value)-(3+worth)) > 1e-12 {
		t.Errorf("N = %v, want %v", got, 3+worth)
	}
	if d.Fitted == nil || math.Abs(*d.Fitted-worth) > 1e-12 {
		t.Errorf("fitted %v, want %v", d.Fitted, worth)
	}
}

// TestScoredColourSymmetric: the estimate is the same when every game is
// played with the colours swapped (the score is averaged over the side
// ahead's colour), to the last digit and in its intervals.
func TestScoredColourSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := synthGames(rng, 6000, 2, synthVals, 0.15, 0.35, 0)
	f := make([]Sample, len(s))
	for i, x := range s {
		d := make([]float64, len(x.Diff))
		for k := range d {
			d[k] = -x.Diff[k]
		}
		f[i] = Sample{Diff: d, Phase: x.Phase, Game: x.Game, Result: 1 - x.Result, Weight: x.Weight}
	}
	opt := ScoredOptions{Replicates: 40, Seed: 7}
	a, err := ScoreDifferences(synthNames, s, synthVals, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ScoreDifferences(synthNames, f, synthVals, opt)
	if err != nil {
		t.Fatal(err)
	}
	for k := range a.Values {
		if relDiff(float64(a.Values[k].Value), float64(b.Values[k].Value)) > 1e-12 || relDiff(float64(a.Values[k].SE), float64(b.Values[k].SE)) > 1e-12 {
			t.Errorf("%s: %v with the colours swapped, %v without", synthNames[k], b.Values[k], a.Values[k])
		}
	}
}

// nearBalanced are differences of synthNames near balance by synthVals,
// as imbalances in games are: a pawn up, two pawns up, a minor piece
// against pawns, the bishop against the knight, the exchange.
var nearBalanced = [][]float64{
	{1, 0, 0, 0}, {2, 0, 0, 0}, {-3, 1, 0, 0}, {-3, 0, 1, 0}, {0, -1, 1, 0},
	{-2, -1, 0, 1}, {-1, 0, -1, 1}, {-1, -1, 0, 1},
}

// scoredSynth draws n games, each with one difference of nearBalanced
// (either side ahead) held for reps positions, its result drawn as in
// synthGames with a constant scale g per pawn.
func scoredSynth(rng *rand.Rand, n, reps int, alpha, g float64) []Sample {
	return scoredSynthExtra(rng, n, reps, alpha, g, nil)
}

// scoredSynthExtra is scoredSynth with extra[i] pawns added to the true
// worth of nearBalanced[i] (for the side ahead): a difference the
// additive values do not explain.
func scoredSynthExtra(rng *rand.Rand, n, reps int, alpha, g float64, extra map[int]float64) []Sample {
	var out []Sample
	for game := range n {
		i := rng.IntN(len(nearBalanced))
		base := nearBalanced[i]
		sign := float64(1 - 2*rng.IntN(2))
		d := make([]float64, len(base))
		z := alpha + sign*g*extra[i]
		for k := range d {
			d[k] = sign * base[k]
			z += g * synthVals[k] * d[k]
		}
		p := stats.Logistic(z)
		draw := 0.6 * math.Min(p, 1-p)
		r, u := 0.0, rng.Float64()
		switch {
		case u < p-draw/2:
			r = 1
		case u < p+draw/2:
			r = 0.5
		}
		ph := rng.Float64()
		for range reps {
			out = append(out, Sample{Diff: d, Phase: ph, Game: game, Result: r, Weight: 1 / float64(reps)})
		}
	}
	return out
}

// TestScoredRecoversValues: games drawn from known values give them back
// within their intervals.
func TestScoredRecoversValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	s := scoredSynth(rng, 20000, 3, 0.1, 0.35)
	r, err := ScoreDifferences(synthNames, s, synthVals, ScoredOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Note != "" {
		t.Fatal(r.Note)
	}
	for k, v := range synthVals {
		got := r.Values[k]
		if !got.Covers(v) || float64(got.Hi-got.Lo) > 0.6 {
			t.Errorf("%s = %s, want %v covered by an interval narrower than 0.6", synthNames[k], got.Format(3), v)
		}
	}
	used := 0
	for _, d := range r.Differences {
		if d.Worth > 2 {
			t.Errorf("%s worth %v read, beyond max_pawns 2", d.Difference, d.Worth)
		}
		if d.Used {
			used++
		}
	}
	if used != 6 {
		t.Errorf("%d differences used, want the 6 with a piece", used)
	}
	if r.MisfitsHolm != 0 {
		t.Errorf("%d differences of additive games misfit under Holm", r.MisfitsHolm)
	}
	if p := r.PawnUp.Pawns; float64(p.Value) != 1 {
		t.Errorf("the pawn up is worth %v pawns, want 1 by definition", p.Value)
	}
	// The intervals are the replicates' percentiles, not v ± 1.96·SD.
	for k := 1; k < len(r.Values); k++ {
		if want := stats.BootstrapInterval(float64(r.Values[k].Value), column(r.reps, k)); r.Values[k] != want {
			t.Errorf("%s = %+v, want the percentile interval of its replicates %+v", synthNames[k], r.Values[k], want)
		}
	}
}

// TestScoredCoverage: the bootstrap intervals cover the true values at
// about the nominal rate over repeated seeds.
func TestScoredCoverage(t *testing.T) {
	seeds := 120
	if testing.Short() {
		seeds = 60
	}
	cover := make([]int, len(synthVals))
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 77))
		s := scoredSynth(rng, 4000, 2, 0.1, 0.35)
		r, err := ScoreDifferences(synthNames, s, synthVals, ScoredOptions{Replicates: 100, Seed: uint64(seed)})
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range synthVals {
			if r.Values[k].Covers(v) {
				cover[k]++
			}
		}
	}
	lo, hi := binomialBand(seeds, 0.95, 0.001)
	for k := 1; k < len(synthVals); k++ {
		if cover[k] < lo || cover[k] > hi {
			t.Errorf("%s: %d of %d intervals cover, outside the binomial band [%d, %d]", synthNames[k], cover[k], seeds, lo, hi)
		}
	}
	t.Logf("coverage of %d seeds: %v (band [%d, %d])", seeds, cover[1:], lo, hi)
}

// TestScoredErrors: data without a pawn unit is refused with the reason,
// and differences that cannot separate the pieces leave them unknown
// with a note.
func TestScoredErrors(t *testing.T) {
	names := []string{"P", "N", "B"}
	up := []float64{1, 0, 0}
	var games []scoredGame
	for range 3 {
		games = append(games, scoredGame{up, 0}, scoredGame{[]float64{-1, 0, 0}, 1})
	}
	_, err := ScoreDifferences(names, scoredSamples(games), []float64{1, 3, 3}, ScoredOptions{MinGames: 2, Replicates: 10})
	if err == nil || !strings.Contains(err.Error(), "no more than half") {
		t.Errorf("a pawn up that loses: %v", err)
	}
	_, err = ScoreDifferences(names, scoredSamples(games[:1]), []float64{1, 3, 3}, ScoredOptions{MinGames: 2, Replicates: 10})
	if err == nil || !strings.Contains(err.Error(), "pawn up") {
		t.Errorf("no pawn-up games: %v", err)
	}
	// The one difference with pieces scores the same in every replicate
	// (no spread, no weight): nothing to fit.
	games = games[:0]
	for range 3 {
		games = append(games, scoredGame{up, 1}, scoredGame{[]float64{-1, 0, 0}, 0.5},
			scoredGame{[]float64{-6, 1, 1}, 1}, scoredGame{[]float64{6, -1, -1}, 0.5})
	}
	s, err := ScoreDifferences(names, scoredSamples(games), []float64{1, 3, 3}, ScoredOptions{MinGames: 2, Replicates: 10})
	if err != nil {
		t.Fatal(err)
	}
	if s.Value("N") != nil || s.Value("B") != nil || !strings.Contains(s.Note, "no difference with a piece") {
		t.Errorf("a difference whose score never varies: N %v, B %v, note %q", s.Value("N"), s.Value("B"), s.Note)
	}
	for msg, want := range map[string]string{
		"values: scored differences: fewer than 30 games": "scored differences: fewer than 30 games",
		s.Note: "scored differences: " + strings.TrimPrefix(s.Note, "values: "),
	} {
		if got := scoredNote(msg); got != want {
			t.Errorf("note %q from %q, want %q", got, msg, want)
		}
	}
	if _, err := ScoreDifferences(names, []Sample{{Diff: up}}, []float64{1, 3}, ScoredOptions{}); err == nil {
		t.Error("a worth per class missing: no error")
	}
}

// TestScoredInDocument: the values document carries the scored
// differences beside the regression (per piece, in N=1, in the Markdown)
// and a comparison of two documents compares them.
func TestScoredInDocument(t *testing.T) {
	chess := engine.MustVariant("chess", nil)
	classes := NewClasses(chess, false) // P N B R Q
	docOf := func(seed uint64) *Document {
		s := scoredSynth(rand.New(rand.NewPCG(seed, 1)), 20000, 2, 0.1, 0.35)
		for i := range s {
			s[i].Diff = append(slices.Clip(s[i].Diff), 0) // no queen difference
		}
		doc, err := document(map[string]*VariantSamples{"chess": {Classes: classes, Samples: s, Games: 20000}}, nil, nil, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	a := docOf(1)
	v := a.Variant("chess")
	if v.Scored == nil {
		t.Fatalf("no scored differences: notes %q", v.Notes)
	}
	for k, name := range synthNames {
		p := v.Piece(name)
		if p.Scored == nil || !p.Scored.Covers(synthVals[k]) {
			t.Errorf("%s: scored %v, want an interval covering %v", name, p.Scored, synthVals[k])
		}
	}
	if q := v.Piece("Q"); q.Scored != nil || !slices.ContainsFunc(v.Notes, func(n string) bool { return strings.Contains(n, "Q not identified") }) {
		t.Errorf("the queen, never different: scored %v, notes %q", q.Scored, v.Notes)
	}
	bn := v.Piece("B").scaled(published.KnightOne)
	if bn == nil || bn.Scored == nil || !(bn.Scored.SE > 0) ||
		math.Abs(float64(bn.Scored.Value)-float64(v.Piece("B").Scored.Value/v.Piece("N").Scored.Value)) > 1e-12 || !bn.Scored.Covers(3.5/3) {
		t.Errorf("B in N=1: %+v, want B/N with a bootstrap interval covering 3.5/3", bn)
	}
	md := a.Markdown()
	for _, want := range []string{"scored (a pawn up = 1)", "Scored differences", "| R vs B+P | "} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if strings.Contains(md, "do not add up") {
		t.Error("additive games' differences said not to add up")
	}
	c, err := Compare("a", "b", a, docOf(2), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, d := range c.Variants[0].Differences {
		found[d.Estimate] = true
	}
	for _, want := range []string{"scored", "scored N=1", "scored pawn-up score"} {
		if !found[want] {
			t.Errorf("the comparison lacks %q: %v", want, found)
		}
	}
}

// TestScoredMisfit: a difference whose games follow other values than
// the rest (B vs N worth 1.5 pawns more than the values say) is the one
// the residuals flag.
func TestScoredMisfit(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	s := scoredSynthExtra(rng, 20000, 2, 0.1, 0.35, map[int]float64{4: 1.5})
	r, err := ScoreDifferences(synthNames, s, synthVals, ScoredOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range r.Differences {
		if d.ResidualZ == nil {
			continue
		}
		if d.Difference == "B vs N" {
			found = true
			if !(*d.ResidualZ > 3) {
				t.Errorf("B vs N, worth 1.5 more than the values: residual z %+.2f", *d.ResidualZ)
			}
		}
	}
	if !found {
		t.Error("no fitted B vs N difference")
	}
	if r.MisfitsHolm == 0 || r.Misfits < r.MisfitsHolm {
		t.Errorf("misfits %d, under Holm %d: want the rigged difference kept", r.Misfits, r.MisfitsHolm)
	}
	var b strings.Builder
	scoredMarkdown(&b, &VariantValues{Scored: r, Pieces: []PieceValues{{Piece: "N", Scored: r.Value("N")}}})
	if !strings.Contains(b.String(), "do not add up") {
		t.Errorf("the Markdown does not say the differences do not add up:\n%s", b.String())
	}
}

// TestScoredWeights: two differences measure the knight; the fit is
// their inverse-variance weighted mean (the variances the bootstrap
// reports).
func TestScoredWeights(t *testing.T) {
	names := []string{"P", "N"}
	up, down := []float64{1, 0}, []float64{-1, 0}
	n3, n3b := []float64{-3, 1}, []float64{3, -1}
	n2, n2b := []float64{-2, 1}, []float64{2, -1}
	games := []scoredGame{
		{up, 1}, {up, 0.5}, {up, 1}, {down, 0}, {down, 1}, {down, 0.5},
		{n3, 0.5}, {n3, 1}, {n3, 0}, {n3b, 0.5}, {n3b, 0}, {n3b, 1},
		{n2, 1}, {n2, 1}, {n2, 0.5}, {n2, 0}, {n2b, 0}, {n2b, 0.5}, {n2b, 0}, {n2b, 1},
	}
	s, err := ScoreDifferences(names, scoredSamples(times(games, 10)), []float64{1, 3.2}, ScoredOptions{MinGames: 2, Replicates: 300, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var num, den float64
	for _, d := range s.Differences {
		if !d.Used {
			t.Fatalf("%s not used", d.Difference)
		}
		w := 1 / float64(d.Pawns.SE*d.Pawns.SE)
		num += w * (float64(d.Pawns.Value) - d.Diff[0])
		den += w
	}
	if len(s.Differences) != 2 {
		t.Fatalf("differences %+v, %d replicates skipped", s.Differences, s.SkippedReplicates)
	}
	if n := s.Value("N"); n == nil || relDiff(float64(n.Value), num/den) > 1e-9 {
		t.Errorf("N = %v, want the weighted mean %v", n, num/den)
	}
}

// TestScoredAgainstImbalance: the document tests the scored values
// against the imbalance values as it tests the regression's (P=1 and
// N=1, in families of their own).
func TestScoredAgainstImbalance(t *testing.T) {
	classes := NewClasses(engine.MustVariant("chess", nil), false)
	s := scoredSynth(rand.New(rand.NewPCG(4, 1)), 20000, 2, 0.1, 0.35)
	for i := range s {
		s[i].Diff = append(slices.Clip(s[i].Diff), 0)
	}
	ms := []*ImbalanceMatch{
		{Name: "P odds", FirstRemoves: []string{"P"}, Pairs: 1000, Wins: 800, Losses: 1200},
		{Name: "N vs P+P+P", FirstRemoves: []string{"N"}, SecondRemoves: []string{"P", "P", "P"}, Pairs: 1000, Wins: 900, Draws: 100, Losses: 1000},
	}
	doc, err := document(map[string]*VariantSamples{"chess": {Classes: classes, Samples: s, Games: 20000}},
		map[string][]*ImbalanceMatch{"chess": ms}, map[string]string{}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := doc.Variant("chess")
	n := v.Piece("N")
	if n.Scored == nil || n.Imbalance == nil || n.ScoredZ == nil || *n.ScoredZ != *agreementZ(n.Scored, n.Imbalance) {
		t.Fatalf("N: scored %v, imbalance %v, z %v", n.Scored, n.Imbalance, n.ScoredZ)
	}
	pn := v.Piece("P").scaled(published.KnightOne)
	if pn == nil || pn.ScoredZ == nil || *pn.ScoredZ != *agreementZ(pn.Scored, pn.Imbalance) {
		t.Errorf("P in N=1: %+v", pn)
	}
	fams := map[string]int{}
	for _, d := range v.Disagreements {
		fams[d.Comparison] = d.Compared
	}
	if fams["scored P=1"] != 1 || fams["scored N=1"] != 1 {
		t.Errorf("families %v, want scored P=1 and scored N=1 with one piece each", fams)
	}
}

// TestScoredCombined: a sum of scored values (a piece with its pair) and
// its ratio take their standard error from the same replicates.
func TestScoredCombined(t *testing.T) {
	r, err := ScoreDifferences(synthNames, scoredSynth(rand.New(rand.NewPCG(8, 8)), 8000, 2, 0.1, 0.35), synthVals, ScoredOptions{Replicates: 60, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	sum, ratio := make([][]float64, len(r.reps)), make([][]float64, len(r.reps))
	for k, v := range r.reps {
		sum[k] = []float64{v[2] + v[3]}
		ratio[k] = []float64{(v[2] + v[3]) / v[1]}
	}
	got := r.combined([]int{2, 3}, nil, 1)
	if got == nil || relDiff(float64(got.Value), float64(r.Values[2].Value+r.Values[3].Value)) > 1e-12 || relDiff(float64(got.SE), finiteSD(sum, 0)) > 1e-12 {
		t.Errorf("B + R = %v", got)
	}
	got = r.combined([]int{2, 3}, []int{1}, 1)
	if got == nil || relDiff(float64(got.Value), float64((r.Values[2].Value+r.Values[3].Value)/r.Values[1].Value)) > 1e-12 || relDiff(float64(got.SE), finiteSD(ratio, 0)) > 1e-12 {
		t.Errorf("(B + R)/N = %v", got)
	}
	if r.combined([]int{2, 9}, nil, 1) != nil {
		t.Error("a class out of range combined")
	}
}

// TestScoredIdentification: where the differences hold two pieces only
// together (N+B against pawns, N+B against R+P), the rook is identified
// and reported, the knight and bishop are not (a note names them), and
// every difference is still fitted.
func TestScoredIdentification(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	vals := []float64{1, 3, 3.5, 5}
	var s []Sample
	game := 0
	for _, d := range [][]float64{{1, 0, 0, 0}, {-6, 1, 1, 0}, {-1, 1, 1, -1}, {-2, 0, 0, 1}} {
		for range 3000 {
			sign := float64(1 - 2*rng.IntN(2))
			diff := make([]float64, len(d))
			z := 0.0
			for k := range d {
				diff[k] = sign * d[k]
				z += 0.35 * vals[k] * diff[k]
			}
			r := 0.0
			if rng.Float64() < stats.Logistic(z) {
				r = 1
			}
			s = append(s, Sample{Diff: diff, Phase: 0.5, Game: game, Result: r, Weight: 1})
			game++
		}
	}
	r, err := ScoreDifferences(synthNames, s, vals, ScoredOptions{Replicates: 80, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Value("N") != nil || r.Value("B") != nil || !strings.Contains(r.Note, "do not separate N, B") {
		t.Errorf("N %v, B %v, note %q: want N and B not identified, named", r.Value("N"), r.Value("B"), r.Note)
	}
	if rv := r.Value("R"); rv == nil || !rv.Covers(5) || !(rv.SE > 0) {
		t.Errorf("R = %v, want an interval covering 5", rv)
	}
	for _, d := range r.Differences {
		if d.Used && (d.Fitted == nil || d.ResidualZ == nil) {
			t.Errorf("%s: fitted %v, residual %v", d.Difference, d.Fitted, d.ResidualZ)
		}
	}
	if scoredNote(r.Note) != "scored differences: the differences do not separate N, B: their values are not identified" {
		t.Errorf("note %q", scoredNote(r.Note))
	}
}
