package values

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tamerlane/internal/stats"
	"tamerlane/selfplay"
	"tamerlane/values/imbalance"
)

func TestPawnSetNames(t *testing.T) {
	for _, c := range []struct {
		pawns []string
		class string
	}{
		{[]string{"P", "P", "P"}, "3P"},
		{[]string{"P@e", "P@d", "P@c"}, "3P(c,d,e)"},
		{[]string{"P@d", "P@e"}, "2P(d,e)"},
	} {
		if got := setClass(c.pawns); got != c.class {
			t.Errorf("setClass(%v) = %q, want %q", c.pawns, got, c.class)
		}
		if got := setSize(c.class); got != len(c.pawns) {
			t.Errorf("setSize(%q) = %d, want %d", c.class, got, len(c.pawns))
		}
		if p := imbalance.PieceOf(c.class); p != c.class {
			t.Errorf("the fit reads %q as piece %q", c.class, p)
		}
	}
	for _, name := range []string{"P", "N", "1P", "PP", "3PX", "R>A"} {
		if k := setSize(name); k != 0 {
			t.Errorf("setSize(%q) = %d, want 0 (not a pawn set)", name, k)
		}
	}
	if got := pawnRemoves([]string{"R>A", "P@d", "N", "P", "P>Q"}); !slices.Equal(got, []string{"P@d", "P"}) {
		t.Errorf("pawnRemoves: %v", got)
	}
}

func TestSetOddsAndWithSets(t *testing.T) {
	for _, c := range []struct {
		first, second []string
		set           string
	}{
		{[]string{"P", "P", "P"}, nil, "3P"},
		{nil, []string{"P@d", "P@e"}, "2P(d,e)"},
		{[]string{"P"}, nil, ""},                // one pawn's odds: the unit, not a set
		{[]string{"N", "P", "P"}, nil, ""},      // not pawns alone
		{[]string{"P", "P"}, []string{"N"}, ""}, // not against nothing
	} {
		if got := setOdds(c.first, c.second); got != c.set {
			t.Errorf("setOdds(%v, %v) = %q, want %q", c.first, c.second, got, c.set)
		}
	}
	sets := []string{"3P", "3P(c,d,e)"}
	for _, c := range []struct{ in, want []string }{
		{[]string{"E", "P", "P", "P"}, []string{"E", "3P"}},
		{[]string{"E", "P", "P"}, []string{"E", "P", "P"}}, // 2P not measured: two pawns
		{[]string{"R>A", "P@d", "P@e", "P@c"}, []string{"R>A", "3P(c,d,e)"}},
		{[]string{"N"}, []string{"N"}},
	} {
		if got := withSets(c.in, sets); !slices.Equal(got, c.want) {
			t.Errorf("withSets(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// expected returns a match whose results are exactly the model's
// expectation over n games: first-side score σ(d) in logit, no draws.
func expected(name string, first, second []string, d float64, n int) *ImbalanceMatch {
	p := stats.Logistic(d)
	w := int(math.Round(p * float64(n)))
	return &ImbalanceMatch{Name: name, FirstRemoves: first, SecondRemoves: second, Pairs: n / 2, Wins: w, Losses: n - w}
}

// TestFitPawnSets: when three pawns are worth far less than three single
// pawns (logit 0.45 against 3 × 0.40), a knight matched against them is
// measured right once the set's own odds are played, and wrong without.
func TestFitPawnSets(t *testing.T) {
	const p, set3, n = 0.40, 0.45, 1.60 // logits: the knight is 4 pawns
	odds := expected("P odds", []string{"P"}, nil, -p, 200000)
	knight := expected("N vs P+P+P", []string{"N"}, []string{"P", "P", "P"}, -n+set3, 200000)
	setOdds := expected("3P odds", []string{"P", "P", "P"}, nil, -set3, 200000)

	fit, classes, err := fitImbalance([]string{"P", "N"}, []*ImbalanceMatch{odds, knight, setOdds}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(classes, []string{"P", "N", "3P"}) {
		t.Fatalf("classes %v", classes)
	}
	if v := fit.Estimates[1].Value; math.Abs(v-n/p) > 0.01 {
		t.Errorf("knight %.3f pawns, want %.3f", v, n/p)
	}
	if v := fit.Estimates[2].Value; math.Abs(v-set3/p) > 0.01 {
		t.Errorf("three pawns %.3f pawns, want %.3f", v, set3/p)
	}
	// Without the set's odds every pawn counts one: the knight comes out
	// 3 + (1.60 − 0.45)/0.40 = 5.875 pawns.
	lin, classes, err := fitImbalance([]string{"P", "N"}, []*ImbalanceMatch{odds, knight}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(classes) != 2 || math.Abs(lin.Estimates[1].Value-5.875) > 0.02 {
		t.Errorf("linear fit: classes %v, knight %.3f, want 5.875", classes, lin.Estimates[1].Value)
	}
}

// TestPawnSetAdditivity: a set's z measures its distance from k single
// pawns in standard errors: far below zero where three pawns weigh about
// one pawn's odds, near zero where they weigh three.
func TestPawnSetAdditivity(t *testing.T) {
	const p, n = 0.40, 1.60
	for _, c := range []struct {
		set3       float64 // the set's logit
		adds       bool
		zLo, zHigh float64
	}{
		{0.45, false, math.Inf(-1), -10},
		{3 * p, true, -0.5, 0.5},
	} {
		odds := expected("P odds", []string{"P"}, nil, -p, 20000)
		knight := expected("N vs P+P+P", []string{"N"}, []string{"P", "P", "P"}, -n+c.set3, 20000)
		setOdds := expected("3P odds", []string{"P", "P", "P"}, nil, -c.set3, 20000)
		fit, _, err := fitImbalance([]string{"P", "N"}, []*ImbalanceMatch{odds, knight, setOdds}, 0)
		if err != nil {
			t.Fatal(err)
		}
		ps := pawnSetValue(fit.Estimates[2])
		if ps.Set != "3P" || ps.Pawns != 3 || ps.AdditivityZ == nil {
			t.Fatalf("set %+v", ps)
		}
		if z := *ps.AdditivityZ; z < c.zLo || z > c.zHigh || ps.Adds() != c.adds {
			t.Errorf("set logit %.2f: z %.2f (want in [%g, %g]), adds %v (want %v)", c.set3, z, c.zLo, c.zHigh, ps.Adds(), c.adds)
		}
		if want := (float64(ps.Imbalance.Value) - 3) / float64(ps.Imbalance.SE); math.Abs(*ps.AdditivityZ-want) > 1e-9 {
			t.Errorf("z %.4f, want (value − 3)/SE = %.4f", *ps.AdditivityZ, want)
		}
	}
	if !(PawnSetValue{}).Adds() {
		t.Error("a set without a z is reported as not adding up")
	}
}

// synthPlaySets plays like synthPlay in a world where k pawns given up
// together are worth sets[k] pawns, not k.
func synthPlaySets(rng *rand.Rand, vals map[string]float64, sets map[int]float64, scale float64) PlayFunc {
	worth := func(removes []string) float64 {
		v := 0.0
		if k := len(pawnRemoves(removes)); k >= 2 {
			v += sets[k]
		} else {
			v += float64(k)
		}
		for _, x := range removes {
			if imbalance.PieceOf(x) != "P" {
				v += vals[imbalance.PieceOf(x)] - vals[imbalance.Added(x)]
			}
		}
		return v
	}
	return func(_ context.Context, round int, batch []PlannedMatch, pairs int) ([]ImbalanceMatch, error) {
		var out []ImbalanceMatch
		for _, m := range batch {
			p := stats.Logistic((worth(m.SecondRemoves) - worth(m.FirstRemoves)) / scale)
			o := ImbalanceMatch{Name: m.Name, Pairs: pairs}
			for range 2 * pairs {
				if rng.Float64() < p {
					o.Wins++
				} else {
					o.Losses++
				}
			}
			out = append(out, o)
		}
		return out, nil
	}
}

// TestPlanPawnSets: in a world where pawn sets do not add up, the planner
// with PawnSets plays the odds of every set it matches a piece against,
// and its values cover the truth; without, the knight and rook come out
// far too high.
func TestPlanPawnSets(t *testing.T) {
	vals := map[string]float64{"N": 3, "R": 5}
	sets := map[int]float64{2: 1.5, 3: 1.7, 4: 1.9}
	cfg := PlanConfig{Variant: "tamerlane", PlanSettings: PlanSettings{Pieces: []string{"N", "R"}, HalfWidth: 0.3, BatchPairs: 100, MaxPairs: 3000}, Start: map[string]float64{"N": 3, "R": 5}}
	run := func(pawnSets bool) *ImbalanceResult {
		c := cfg
		c.PawnSets = pawnSets
		res, err := Plan(context.Background(), c, synthPlaySets(rand.New(rand.NewPCG(5, 6)), vals, sets, 1.5))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(true)
	var setMatches []string
	for _, m := range res.Matches {
		if setSize(m.Piece) > 0 {
			setMatches = append(setMatches, m.Name)
			if len(m.SecondRemoves) != 0 || len(m.FirstRemoves) != setSize(m.Piece) || m.Pairs == 0 {
				t.Errorf("set odds match %+v", m)
			}
		}
	}
	if len(setMatches) == 0 {
		t.Fatal("no pawn set's odds were played")
	}
	for _, m := range res.Matches {
		for _, side := range [][]string{m.FirstRemoves, m.SecondRemoves} {
			if k := len(pawnRemoves(side)); k >= 2 && m.Pairs > 0 && !slices.Contains(res.Pieces, plainSet(k)) {
				t.Errorf("%s gives up %d pawns, whose odds were not measured (%v)", m.Name, k, setMatches)
			}
		}
	}
	truth := map[string]float64{"N": 3, "R": 5}
	for k, v := range sets {
		truth[plainSet(k)] = v
	}
	for i, x := range res.Pieces {
		want, ok := truth[x]
		if !ok {
			continue
		}
		if iv := res.Values[i]; !(float64(iv.Lo) <= want && want <= float64(iv.Hi)) {
			t.Errorf("with pawn sets, %s %.2f [%.2f, %.2f] misses %.2f", x, iv.Value, iv.Lo, iv.Hi, want)
		}
	}
	lin := run(false)
	for _, x := range []string{"N", "R"} {
		iv, ok := lin.Value(x)
		if !ok || float64(iv.Lo) <= truth[x] {
			t.Errorf("without pawn sets %s %.2f [%.2f, %.2f]: expected far above %.0f (the sets count as k pawns)", x, iv.Value, iv.Lo, iv.Hi, truth[x])
		}
	}
}

// TestMeasurePawnSets: a measurement with pawn_sets (and centre pawns)
// plays the odds of the pawn set its knight match gives up, and the
// document counts the set as a class of its own, reported apart from the
// pieces.
func TestMeasurePawnSets(t *testing.T) {
	cfg, err := ParseConfig([]byte(strings.Replace(tinyMeasure, "max_pairs: 8}", "max_pairs: 8, pawns: centre, pawn_sets: true}", 1)), "tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.plan(0).PawnSets {
		t.Fatal("pawn_sets did not reach the planner")
	}
	dir := filepath.Join(t.TempDir(), "m")
	if err := Run(context.Background(), cfg, dir, RunOptions{Workers: 2, Factory: selfplay.GreedyFactory(), Stage: "imbalance"}); err != nil {
		t.Fatal(err)
	}
	dirs, err := RunDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Measure(dirs, nil, Options{Regression: RegressionOptions{MinGames: 5}})
	if err != nil {
		t.Fatal(err)
	}
	v := doc.Variant("chess")
	if v == nil {
		t.Fatal("no chess values")
	}
	// Every piece starts at 3 pawns: the knight plays against the d-, e-
	// and c-pawns, and the set's odds are played beside it.
	var sets []string
	for _, s := range v.PawnSets {
		sets = append(sets, s.Set)
		if s.Pawns != setSize(s.Set) || math.IsNaN(float64(s.Imbalance.Value)) {
			t.Errorf("pawn set %+v", s)
		}
	}
	if !slices.Contains(sets, "3P(c,d,e)") {
		t.Errorf("pawn sets %v, want 3P(c,d,e) among them", sets)
	}
	for _, p := range v.Pieces {
		if setSize(p.Piece) > 0 {
			t.Errorf("pawn set %s reported as a piece", p.Piece)
		}
	}
	if md := doc.Markdown(); !strings.Contains(md, "Pawn sets measured by their own odds") || !strings.Contains(md, "3P(c,d,e) ") || !strings.Contains(md, "(z ") {
		t.Errorf("values.md does not report the pawn sets:\n%s", md)
	}
	// The plan ended: nothing unfinished. Without its plan.json (a
	// planner stopped before its end) the document says so.
	if len(doc.UnfinishedPlans) != 0 {
		t.Errorf("finished plan reported unfinished: %v", doc.UnfinishedPlans)
	}
	stage := filepath.Join(dir, "chess", "imbalance")
	if err := os.Remove(filepath.Join(stage, planFile)); err != nil {
		t.Fatal(err)
	}
	doc, err = Measure(dirs, nil, Options{Regression: RegressionOptions{MinGames: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(doc.UnfinishedPlans, []string{stage}) || !strings.Contains(doc.Markdown(), "Unfinished imbalance plans") {
		t.Errorf("unfinished plans %v, want [%s] and a line in values.md", doc.UnfinishedPlans, stage)
	}
}

// TestUnplayedSetOdds: a set whose odds match has no game yet (a round
// read while it is played) counts as its pawns, so the piece matched
// against it keeps a value instead of losing it to an unidentified class.
func TestUnplayedSetOdds(t *testing.T) {
	odds := expected("P odds", []string{"P"}, nil, -0.4, 2000)
	knight := expected("N vs P+P+P", []string{"N"}, []string{"P", "P", "P"}, -0.4, 2000)
	unplayed := &ImbalanceMatch{Name: "3P odds", FirstRemoves: []string{"P", "P", "P"}}
	fit, classes, err := fitImbalance([]string{"P", "N"}, []*ImbalanceMatch{odds, knight, unplayed}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(classes) != 2 || math.IsNaN(fit.Estimates[1].SE) || math.Abs(fit.Estimates[1].Value-4) > 0.05 {
		t.Errorf("classes %v, knight %+v: want the knight at 4 pawns, its set counted as three pawns", classes, fit.Estimates[1])
	}
}

// TestOpponentValuesPawnSets: once the sets' odds are measured, the
// planner values an opponent's pawns by their set, not by their number.
func TestOpponentValuesPawnSets(t *testing.T) {
	est := map[string]float64{"P": 1, "N": 3, "E": 1.2}
	if got := opponent("N", est, []string{"N", "E"}, 4, nil); !slices.Equal(got, []string{"P", "P", "P"}) {
		t.Errorf("without set estimates the knight meets %v, want three pawns", got)
	}
	est["2P"], est["3P"], est["4P"] = 1.5, 1.7, 1.9
	if got := opponent("N", est, []string{"N", "E"}, 4, nil); !slices.Equal(got, []string{"E", "P", "P", "P"}) {
		t.Errorf("with set estimates the knight meets %v, want E+P+P+P (1.2 + 1.7 = 2.9)", got)
	}
	if v := oppValue([]string{"E", "P", "P"}, est); math.Abs(v-2.7) > 1e-12 {
		t.Errorf("oppValue(E+P+P) = %v, want 1.2 + 1.5", v)
	}
}
