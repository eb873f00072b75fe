package values

import (
	"context"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"tamerlane/internal/stats"
	"tamerlane/values/imbalance"
	"testing"
)

// synthPlay plays imbalance games whose first-side score follows
// σ((value of what the second side lacks − value of what the first side
// lacks)/scale) with draws, from known values.
func synthPlay(rng *rand.Rand, vals map[string]float64, scale float64, calls *int) PlayFunc {
	return func(_ context.Context, round int, batch []PlannedMatch, pairs int) ([]ImbalanceMatch, error) {
		*calls++
		var out []ImbalanceMatch
		for _, m := range batch {
			d := 0.0
			for _, x := range m.FirstRemoves {
				d -= vals[imbalance.PieceOf(x)]
				d += vals[imbalance.Added(x)] // a replacement "Y>X" adds X
			}
			for _, x := range m.SecondRemoves {
				d += vals[imbalance.PieceOf(x)]
				d -= vals[imbalance.Added(x)]
			}
			p := stats.Logistic(d / scale)
			draw := 0.6 * math.Min(p, 1-p)
			o := ImbalanceMatch{Name: m.Name, Pairs: pairs}
			for range 2 * pairs {
				u := rng.Float64()
				switch {
				case u < p-draw/2:
					o.Wins++
				case u < p+draw/2:
					o.Draws++
				default:
					o.Losses++
				}
			}
			out = append(out, o)
		}
		return out, nil
	}
}

// routedPlay plays each match of a batch by other when odd says so, by
// usual otherwise.
func routedPlay(usual, other PlayFunc, odd func(PlannedMatch) bool) PlayFunc {
	return func(ctx context.Context, round int, batch []PlannedMatch, pairs int) ([]ImbalanceMatch, error) {
		var out []ImbalanceMatch
		for _, m := range batch {
			p := usual
			if odd(m) {
				p = other
			}
			o, err := p(ctx, round, []PlannedMatch{m}, pairs)
			if err != nil {
				return nil, err
			}
			out = append(out, o...)
		}
		return out, nil
	}
}

var planVals = map[string]float64{"P": 1, "N": 3, "B": 3.4, "R": 5, "Q": 9}

func TestPlanOpponentsAndStop(t *testing.T) {
	calls := 0
	cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "B", "R", "Q"}, HalfWidth: 0.6, BatchPairs: 50, MaxPairs: 100000}, Start: map[string]float64{"N": 3, "B": 3.4, "R": 5, "Q": 9}}
	res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(3, 4)), planVals, 2.5, &calls))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"N": {"P", "P", "P"}, "B": {"N"}, "R": {"N", "P", "P"}, "Q": {"R", "P", "P", "P", "P"}}
	for _, m := range res.Matches[:5] {
		if m.Piece == "P" {
			if !slices.Equal(m.FirstRemoves, []string{"P"}) || len(m.SecondRemoves) != 0 {
				t.Errorf("pawn odds match %+v", m)
			}
			continue
		}
		if !slices.Equal(m.SecondRemoves, want[m.Piece]) {
			t.Errorf("%s plays against %v, want %v", m.Piece, m.SecondRemoves, want[m.Piece])
		}
	}
	for i, x := range res.Pieces {
		if !res.Done[i] || stats.Z95*float64(res.Values[i].SE) > cfg.HalfWidth {
			t.Errorf("%s: half-width %.3f above the target %.2f", x, stats.Z95*float64(res.Values[i].SE), cfg.HalfWidth)
		}
	}
	if calls != res.Rounds {
		t.Errorf("%d rounds played, %d reported", calls, res.Rounds)
	}
	// Stopped at the target, not later: one round less leaves a piece
	// above it.
	cfg2 := cfg
	cfg2.MaxPairs = 0
	short := 0
	rng := rand.New(rand.NewPCG(3, 4))
	play := synthPlay(rng, planVals, 2.5, &short)
	limited := func(ctx context.Context, round int, b []PlannedMatch, pairs int) ([]ImbalanceMatch, error) {
		if round >= res.Rounds-1 {
			return nil, errStopTest
		}
		return play(ctx, round, b, pairs)
	}
	if _, err := Plan(context.Background(), cfg, limited); err != errStopTest {
		t.Fatalf("the planner stopped before round %d: %v", res.Rounds-1, err)
	}
}

type stopErr struct{}

func (stopErr) Error() string { return "stop" }

var errStopTest error = stopErr{}

func TestPlanCap(t *testing.T) {
	calls := 0
	cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "R"}, HalfWidth: 0.01, BatchPairs: 10, MaxPairs: 40}}
	res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(1, 1)), planVals, 2.5, &calls))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range res.Matches {
		if m.Pairs > cfg.MaxPairs {
			t.Errorf("%s: %d pairs beyond the cap %d", m.Name, m.Pairs, cfg.MaxPairs)
		}
	}
	if calls != 4 {
		t.Errorf("%d rounds, want 4 (cap 40 pairs in batches of 10)", calls)
	}
}

// TestImbalanceCoverage: over 200 seeds the imbalance fit's 95% intervals
// cover the true values at about the nominal rate (central 99.9% binomial
// band), and a single large run recovers them.
func TestImbalanceCoverage(t *testing.T) {
	seeds := 200
	if testing.Short() {
		seeds = 100
	}
	pieces := []string{"N", "R", "Q"}
	cover := map[string]int{}
	for seed := range seeds {
		calls := 0
		cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: pieces, HalfWidth: 1e-9, BatchPairs: 200, MaxPairs: 200}, Start: map[string]float64{"N": 3, "R": 5, "Q": 9}}
		res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(uint64(seed), 7)), planVals, 2.5, &calls))
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range pieces {
			e, ok := res.Value(x)
			if ok && e.Covers(planVals[x]) {
				cover[x]++
			}
		}
	}
	lo, hi := binomialBand(seeds, 0.95, 0.001)
	for _, x := range pieces {
		if cover[x] < lo || cover[x] > hi {
			t.Errorf("%s: %d of %d intervals cover, outside [%d, %d]", x, cover[x], seeds, lo, hi)
		}
	}
	t.Logf("imbalance coverage over %d seeds: %v (band [%d, %d])", seeds, cover, lo, hi)
}

// TestPlanFindsOpponents: from the neutral start (3 pawns each) the
// planner moves the queen's match to an even one.
func TestPlanFindsOpponents(t *testing.T) {
	calls := 0
	cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "R", "Q"}, HalfWidth: 0.5, BatchPairs: 50, MaxPairs: 20000}}
	res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(8, 9)), planVals, 2.5, &calls))
	if err != nil {
		t.Fatal(err)
	}
	var last *PlannedMatch
	for _, m := range res.Matches {
		if m.Piece == "Q" {
			last = m
		}
	}
	if v := oppValue(last.SecondRemoves, planVals); math.Abs(v-9) > 1 {
		t.Errorf("the queen's last match %s is %.1f pawns from even", last.Name, v-9)
	}
	for i, x := range res.Pieces {
		if !res.Done[i] {
			t.Errorf("%s: target not reached", x)
		}
		if e := res.Values[i]; !e.Covers(planVals[x]) {
			t.Errorf("%s: %.2f [%.2f, %.2f] misses %.2f", x, e.Value, e.Lo, e.Hi, planVals[x])
		}
	}
	t.Logf("%d rounds, matches: %d", res.Rounds, len(res.Matches))
}

// TestPlanKeepsOpponentsWhilePawnUndecided: while the pawn-odds match has
// not shown the pawn's worth (its logit within 2 SE of zero), estimates in
// pawns are noise and the planner keeps its first opponents as long as
// their matches are not lopsided.
func TestPlanKeepsOpponentsWhilePawnUndecided(t *testing.T) {
	calls := 0
	cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "Q"}, HalfWidth: 0.25, BatchPairs: 25, MaxPairs: 100}}
	res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(2, 2)), planVals, 60, &calls))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 3 || calls != 4 {
		t.Errorf("%d rounds, matches %d (want the 3 first matches only)", calls, len(res.Matches))
	}
}

// TestPlanLeavesLopsidedMatch: a queen against three pawns (score ~0.1)
// moves to a stronger opponent even before pawn odds is decided.
func TestPlanLeavesLopsidedMatch(t *testing.T) {
	calls := 0
	cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "Q"}, HalfWidth: 0.25, BatchPairs: 25, MaxPairs: 50}}
	res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(2, 3)), planVals, 2.5, &calls))
	if err != nil {
		t.Fatal(err)
	}
	var qs []string
	for _, m := range res.Matches {
		if m.Piece == "Q" {
			qs = append(qs, m.Name)
		}
	}
	if len(qs) != 2 || qs[0] != "Q vs P+P+P" {
		t.Errorf("queen matches %v: want Q vs P+P+P, then a stronger opponent", qs)
	}
}

// TestPlanLeavesWhitewashAmongManyPieces: with many pieces measured at
// once (historical Tamerlane's nine, no start estimates, so all against
// three pawns) a rook worth twelve pawns whitewashes its first match; the
// next round must give it a stronger opponent. The fit that chooses
// opponents keeps a whitewash finite with a ridge; a ridge as strong as
// the evidence of one round pulls every logit, the pawn's too, toward
// zero and can turn the pawn's negative, so that every value in pawns
// changes sign and the rook keeps its hopeless match.
func TestPlanLeavesWhitewashAmongManyPieces(t *testing.T) {
	vals := map[string]float64{"P": 1, "F": 1.5, "W": 1.5, "E": 1.3, "D": 2, "T": 4.5, "C": 4.8, "N": 5.9, "G": 7, "R": 12}
	cfg := PlanConfig{Variant: "tamerlane", PlanSettings: PlanSettings{Pieces: []string{"F", "W", "G", "T", "N", "R", "E", "C", "D"}, HalfWidth: 0.25, BatchPairs: 20, MaxPairs: 600, MaxPawns: 5}}
	for seed := uint64(1); seed <= 5; seed++ {
		calls := 0
		play := synthPlay(rand.New(rand.NewPCG(seed, 9)), vals, 2.2, &calls)
		var second []PlannedMatch
		stop := func(ctx context.Context, round int, b []PlannedMatch, pairs int) ([]ImbalanceMatch, error) {
			if round == 1 {
				second = b
				return nil, errStopTest
			}
			return play(ctx, round, b, pairs)
		}
		if _, err := Plan(context.Background(), cfg, stop); err != errStopTest {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, m := range second {
			if m.Piece != "R" {
				continue
			}
			opp := 0.0
			for _, x := range m.SecondRemoves {
				opp += vals[x]
			}
			if opp <= 3 {
				t.Errorf("seed %d: round 1 plays %s (%.1f pawns against a rook of 12)", seed, m.Name, opp)
			}
		}
	}
}

// TestPlanStopsOutOfReach: a target no cap-sized match can reach stops
// the planner after four batches instead of at the cap, and says so; a
// reachable target is never given up (TestPlanOpponentsAndStop).
func TestPlanStopsOutOfReach(t *testing.T) {
	calls := 0
	cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "Q"}, HalfWidth: 0.05, BatchPairs: 20, MaxPairs: 2000, StopOutOfReach: true}, Start: map[string]float64{"N": 3, "Q": 9}}
	res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(5, 6)), planVals, 2.5, &calls))
	if err != nil {
		t.Fatal(err)
	}
	if calls > 6 {
		t.Errorf("%d rounds for a target out of reach, want about 4 (cap %d pairs in batches of %d)", calls, cfg.MaxPairs, cfg.BatchPairs)
	}
	if len(res.OutOfReach) != len(res.Pieces) {
		t.Fatalf("out_of_reach %v for pieces %v", res.OutOfReach, res.Pieces)
	}
	for i, x := range res.Pieces {
		if x != "P" && (!res.OutOfReach[i] || res.Done[i]) {
			t.Errorf("%s: out of reach %v, done %v; want true, false", x, res.OutOfReach[i], res.Done[i])
		}
	}
	var reachable PlanConfig = cfg
	reachable.HalfWidth = 0.6
	reachable.MaxPairs = 100000
	calls = 0
	res, err = Plan(context.Background(), reachable, synthPlay(rand.New(rand.NewPCG(5, 6)), planVals, 2.5, &calls))
	if err != nil {
		t.Fatal(err)
	}
	if res.OutOfReach != nil || !res.Done[1] || !res.Done[2] {
		t.Errorf("reachable target: out of reach %v, done %v", res.OutOfReach, res.Done)
	}
	// Without stop_out_of_reach the cap is the budget.
	capped := cfg
	capped.StopOutOfReach = false
	capped.MaxPairs = 200
	calls = 0
	res, err = Plan(context.Background(), capped, synthPlay(rand.New(rand.NewPCG(5, 6)), planVals, 2.5, &calls))
	if err != nil {
		t.Fatal(err)
	}
	if calls != 10 || res.OutOfReach != nil {
		t.Errorf("without stop_out_of_reach: %d rounds (want 10: cap 200 in batches of 20), out of reach %v", calls, res.OutOfReach)
	}
}

// TestPlanReplacement: a piece the array lacks is measured through
// matches where a measured piece of the array is replaced by it, against
// pawns worth about the difference, and its value is recovered.
func TestPlanReplacement(t *testing.T) {
	vals := map[string]float64{"P": 1, "R": 5, "A": 8.5, "Q": 9.5}
	calls := 0
	cfg := PlanConfig{Variant: "tamerlane2", PlanSettings: PlanSettings{Pieces: []string{"R", "A", "Q"}, HalfWidth: 0.5, BatchPairs: 50, MaxPairs: 20000, Replace: map[string]string{"A": "R", "Q": "R"}}, Start: map[string]float64{"R": 5, "A": 8, "Q": 9}}
	res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(11, 12)), vals, 2.5, &calls))
	if err != nil {
		t.Fatal(err)
	}
	first := map[string]string{}
	for _, m := range res.Matches {
		if _, seen := first[m.Piece]; !seen {
			first[m.Piece] = m.Name
		}
		// The side with the promoted piece in the place of a rook gives
		// up the material; the other keeps its whole array.
		if y := cfg.Replace[m.Piece]; y != "" && (m.FirstRemoves[0] != y+">"+m.Piece || len(m.SecondRemoves) != 0) {
			t.Errorf("%s measures %s with removes %v against %v", m.Name, m.Piece, m.FirstRemoves, m.SecondRemoves)
		}
		for _, y := range matchOpponent(m) {
			if cfg.Replace[y] != "" {
				t.Errorf("%s: %s is given up, which the array lacks", m.Name, y)
			}
		}
	}
	if first["A"] != "R>A+P+P+P vs nothing" || first["Q"] != "R>Q+P+P+P+P vs nothing" {
		t.Errorf("first matches %v, want A: R>A+P+P+P vs nothing, Q: R>Q+P+P+P+P vs nothing", first)
	}
	for i, x := range res.Pieces {
		e := res.Values[i]
		if !res.Done[i] || !e.Covers(vals[x]) {
			t.Errorf("%s: %.2f [%.2f, %.2f] (done %v), true %.2f", x, e.Value, e.Lo, e.Hi, res.Done[i], vals[x])
		}
	}
	bad := cfg
	bad.Replace = map[string]string{"A": "N"}
	if _, err := Plan(context.Background(), bad, nil); err == nil || !strings.Contains(err.Error(), `replaced by "N"`) {
		t.Errorf("a replaced piece that is not measured: %v", err)
	}
}

// TestPlanReplacementEven: with decisive games (a pawn more wins three
// games in four) and a poor start, the matches of a promoted piece become
// close to even and measure it. A Tamerlane II run once played "R>A vs
// S+P+P+P+P+P" to a 680-0-0 cap without a value: its first side had the
// Eagle in the rook's place and the second side gave up the material too,
// and every win raised the estimate and the opponent further.
func TestPlanReplacementEven(t *testing.T) {
	vals := map[string]float64{"P": 1, "B": 3, "R": 5, "A": 12, "Q": 13}
	calls := 0
	cfg := PlanConfig{Variant: "tamerlane2", PlanSettings: PlanSettings{Pieces: []string{"B", "R", "A", "Q"}, HalfWidth: 0.8, BatchPairs: 40, MaxPairs: 4000, MaxPawns: 5, Replace: map[string]string{"A": "R", "Q": "R"}}, Start: map[string]float64{"B": 3, "R": 5, "A": 7, "Q": 7}}
	res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(13, 14)), vals, 0.9, &calls))
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range res.Pieces {
		if cfg.Replace[x] == "" {
			continue
		}
		e := res.Values[i]
		if !res.Done[i] || !e.Covers(vals[x]) {
			t.Errorf("%s: %.2f [%.2f, %.2f] (done %v), true %.2f", x, e.Value, e.Lo, e.Hi, res.Done[i], vals[x])
		}
		var last *PlannedMatch
		for _, m := range res.Matches {
			if m.Piece == x {
				last = m
			}
		}
		if sc := (float64(last.Wins) + float64(last.Draws)/2) / float64(last.Wins+last.Draws+last.Losses); sc < 0.2 || sc > 0.8 {
			t.Errorf("%s: its last match %s scored %.3f (%d-%d-%d), far from even", x, last.Name, sc, last.Wins, last.Draws, last.Losses)
		}
	}
}

// TestOpponentSkipsPiecesTheArrayLacks: a piece measured by replacement
// (the Tamerlane II Eagle) is never among the pieces the second side gives
// up, even when its estimate fits best. This planned "R>Q vs A+P+P+P+P+P"
// in a Tamerlane II run, which cannot be set up.
func TestOpponentSkipsPiecesTheArrayLacks(t *testing.T) {
	est := map[string]float64{"P": 1, "C": 2, "R": 9, "A": 4, "Q": 18}
	pieces := []string{"C", "R", "A", "Q"}
	replace := map[string]string{"A": "R", "Q": "R"}
	opp := opponent("Q", est, pieces, 5, replace)
	if slices.Contains(opp, "A") || slices.Contains(opp, "Q") || slices.Contains(opp, "R") {
		t.Errorf("Q's opponent %v gives up a piece the array lacks or the replaced rook", opp)
	}
	if want := []string{"C", "P", "P", "P", "P", "P"}; !slices.Equal(opp, want) {
		t.Errorf("Q's opponent %v, want %v (worth 7, the nearest to 9 without the Eagle)", opp, want)
	}
	if opp := opponent("Q", est, pieces, 5, map[string]string{"Q": "R"}); !slices.Contains(opp, "A") {
		t.Errorf("with the Eagle in the array (only the Queen replaced) the Eagle (4 + 5 pawns = 9) should fit best: %v", opp)
	}
}

// TestCandidateMatchesCoverPlans checks that every match the planner
// plays is among CandidateMatches, with the same removes, whatever the
// games make it choose: from the default start of 3 pawns a piece (the
// rook and queen move through several opponents), with replacements,
// and with pawn sets.
func TestCandidateMatchesCoverPlans(t *testing.T) {
	cfgs := []PlanConfig{
		{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "B", "R", "Q"}, HalfWidth: 0.3, BatchPairs: 50, MaxPairs: 3000}},
		{Variant: "tamerlane2", PlanSettings: PlanSettings{Pieces: []string{"R", "A", "Q"}, HalfWidth: 0.5, BatchPairs: 50, MaxPairs: 3000, Replace: map[string]string{"A": "R", "Q": "R"}}},
		{Variant: "tamerlane", PlanSettings: PlanSettings{Pieces: []string{"N", "R"}, HalfWidth: 0.3, BatchPairs: 100, MaxPairs: 2000, PawnSets: true}},
	}
	vals := map[string]float64{"P": 1, "N": 3, "B": 3.4, "R": 5, "A": 8.5, "Q": 9.5}
	for i, cfg := range cfgs {
		cands := map[string]PlannedMatch{}
		for _, m := range cfg.CandidateMatches() {
			if _, dup := cands[m.Name]; dup {
				t.Errorf("config %d: candidate %q listed twice", i, m.Name)
			}
			cands[m.Name] = m
		}
		calls := 0
		res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(uint64(i), 21)), vals, 2.5, &calls))
		if err != nil {
			t.Fatal(err)
		}
		moved := 0
		for _, m := range res.Matches {
			c, ok := cands[m.Name]
			if !ok || c.Piece != m.Piece || !slices.Equal(c.FirstRemoves, m.FirstRemoves) || !slices.Equal(c.SecondRemoves, m.SecondRemoves) {
				t.Errorf("config %d: played %q (%s: %v vs %v), candidate %+v (%v)", i, m.Name, m.Piece, m.FirstRemoves, m.SecondRemoves, c, ok)
			}
			if m.Piece != "P" && setSize(m.Piece) == 0 {
				moved++
			}
		}
		if moved <= len(cfg.Pieces) {
			t.Errorf("config %d: the planner never changed an opponent (%d matches); the test covers nothing", i, moved)
		}
	}
	// Chess with two pawns at most: the pawn odds, then per piece one or
	// two pawns and each of the three other pieces with none to two.
	c := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "B", "R", "Q"}, MaxPawns: 2}}
	if n := len(c.CandidateMatches()); n != 1+4*(2+3*3) {
		t.Errorf("%d chess candidates with max_pawns 2, want %d", n, 1+4*(2+3*3))
	}
}

// TestPlanChecks: with check_pairs the planner ends with one check match
// per piece that has another route to its value (none for the knight,
// measured against pawns and worth less than every other piece), against
// material of other pieces than its own matches, played for check_pairs
// rounded up to whole batches; the fit then has one degree of freedom
// per check. Games from additive values pass the test; a rook worth a
// pawn more in its check match than elsewhere fails it, and that match
// has the largest residual.
func TestPlanChecks(t *testing.T) {
	cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "B", "R", "Q"}, HalfWidth: 0.4, BatchPairs: 50, MaxPairs: 100000, CheckPairs: 120}, Start: map[string]float64{"N": 3, "B": 3.4, "R": 5, "Q": 9}}
	for _, odd := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(5, 6))
		additive := synthPlay(rng, planVals, 2.5, new(int))
		oddVals := maps.Clone(planVals)
		oddVals["R"]++
		oddPlay := synthPlay(rng, oddVals, 2.5, new(int))
		rounds := 0
		routed := routedPlay(additive, oddPlay, func(m PlannedMatch) bool { return odd && m.Check && m.Piece == "R" })
		play := func(ctx context.Context, round int, batch []PlannedMatch, pairs int) ([]ImbalanceMatch, error) {
			rounds++
			return routed(ctx, round, batch, pairs)
		}
		res, err := Plan(context.Background(), cfg, play)
		if err != nil {
			t.Fatal(err)
		}
		routes := map[string][]string{}
		var checks []*PlannedMatch
		for _, m := range res.Matches {
			if m.Check {
				checks = append(checks, m)
			} else {
				if len(checks) > 0 {
					t.Errorf("main match %s planned after a check", m.Name)
				}
				routes[m.Piece] = append(routes[m.Piece], pieceKey(matchOpponent(m)))
			}
		}
		var checked []string
		for _, m := range checks {
			t.Logf("odd %v: check %s", odd, m.Name)
			checked = append(checked, m.Piece)
			if m.Pairs != 150 {
				t.Errorf("check %s: %d pairs, want 150 (120 in batches of 50)", m.Name, m.Pairs)
			}
			if k := pieceKey(matchOpponent(m)); slices.Contains(routes[m.Piece], k) {
				t.Errorf("check %s: the same pieces (%q) as a match of %s (%q)", m.Name, k, m.Piece, routes[m.Piece])
			}
		}
		if !slices.Equal(checked, []string{"B", "R", "Q"}) {
			t.Errorf("checked %v, want B, R, Q", checked)
		}
		c := res.Fit.Consistency
		if c.DF != 3 {
			t.Fatalf("df %d, want 3 (three checks)", c.DF)
		}
		if c.Disagrees(0.01) != odd {
			t.Errorf("odd rook %v: p = %.4g", odd, c.P)
		}
		if odd {
			worst := 0
			for i, r := range c.Residuals {
				if math.Abs(float64(r.Z)) > math.Abs(float64(c.Residuals[worst].Z)) {
					worst = i
				}
			}
			if r := c.Residuals[worst]; r.Name != checks[1].Name {
				t.Errorf("largest residual %s (z %.2f), want the rook's check %s", r.Name, r.Z, checks[1].Name)
			}
		}
		if rounds != res.Rounds {
			t.Errorf("%d rounds reported, %d played", res.Rounds, rounds)
		}
	}
}

// TestPlanRelativeHalfWidth: with relative_half_width a valuable piece
// stops at that fraction of its value, a cheap one at half_width, and
// each piece's matches stop once its own target is met: the queen plays
// fewer pairs than it does when every target is half_width pawns.
func TestPlanRelativeHalfWidth(t *testing.T) {
	base := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "Q"}, HalfWidth: 0.5, BatchPairs: 50, MaxPairs: 100000}, Start: map[string]float64{"N": 3, "Q": 9}}
	rel := base
	rel.RelativeHalfWidth = 0.1
	pairs := map[float64]int{}
	for _, cfg := range []PlanConfig{base, rel} {
		calls := 0
		res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(5, 6)), planVals, 2.5, &calls))
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range res.Pieces {
			hw, v := stats.Z95*float64(res.Values[i].SE), float64(res.Values[i].Value)
			want := max(cfg.HalfWidth, cfg.RelativeHalfWidth*v)
			if x != "P" && (!res.Done[i] || hw > want) {
				t.Errorf("relative %.2f: %s = %.2f ± %.3f, target %.3f", cfg.RelativeHalfWidth, x, v, hw, want)
			}
		}
		pairs[cfg.RelativeHalfWidth] = piecePairs(res.Matches, "Q")
	}
	if pairs[0.1] >= pairs[0] {
		t.Errorf("the queen played %d pairs with a 10%% target and %d with ±0.5 pawns: the relative target saved nothing", pairs[0.1], pairs[0])
	}
	bad := base
	bad.RelativeHalfWidth = 1.5
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "relative_half_width") {
		t.Errorf("relative_half_width 1.5 accepted: %v", err)
	}
}

// TestPlanStopOnReported: when the matches do not add up (a piece is
// worth more against a knight than against pawns), the reported fit is
// widened by their spread, and only the rule that judges that fit stops
// every piece with its reported interval within the target; the plain
// rule stops some piece short of it.
func TestPlanStopOnReported(t *testing.T) {
	odd := maps.Clone(planVals)
	odd["R"], odd["B"] = 6.2, 4.4
	cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "B", "R"}, HalfWidth: 0.5, BatchPairs: 40, MaxPairs: 100000, CheckPairs: 80},
		Start: map[string]float64{"N": 3, "B": 2, "R": 3}}
	short := map[bool]bool{}
	pairs := map[bool]int{}
	for _, reported := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(7, 8))
		additive, nonAdditive := synthPlay(rng, planVals, 2.5, new(int)), synthPlay(rng, odd, 2.5, new(int))
		play := routedPlay(additive, nonAdditive, func(m PlannedMatch) bool { return slices.Contains(m.SecondRemoves, "N") })
		c := cfg
		c.StopOnReported = reported
		res, err := Plan(context.Background(), c, play)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range res.Matches {
			pairs[reported] += m.Pairs
		}
		rep := ReportedImbalance(res.Fit, PairCorrelationOf(imbalanceMatches(res.Matches)))
		if h := rep.Consistency.Heterogeneity; !(h > 1) {
			t.Fatalf("reported %v: heterogeneity %v; the test needs matches that do not add up", reported, h)
		}
		for i, x := range res.Pieces {
			if x == "P" {
				continue
			}
			e := rep.Estimates[i]
			over := stats.Z95*e.SE > c.target(e.Value)
			if reported && over {
				t.Errorf("%s: the reported rule stopped with a reported half-width %.3f above its target %.3f", x, stats.Z95*e.SE, c.target(e.Value))
			}
			if !reported && res.Done[i] && over {
				short[reported] = true // done on the plain fit, short on the reported one
			}
		}
	}
	if !short[false] {
		t.Error("the plain rule stopped every piece within its reported target: the test does not tell the rules apart")
	}
	if pairs[true] <= pairs[false] {
		t.Errorf("the reported rule played %d pairs, the plain one %d: want more", pairs[true], pairs[false])
	}
}

// TestPlanConclude: a plan concluded at round 3 plays its pieces' matches
// in rounds 0-2 exactly as the plan without the conclusion does, then only
// its check matches, and marks the pieces it stopped; a conclusion after
// every piece has stopped changes nothing.
func TestPlanConclude(t *testing.T) {
	cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "R"}, HalfWidth: 0.01, BatchPairs: 10, MaxPairs: 1000, CheckPairs: 10},
		Start: map[string]float64{"N": 3, "R": 5}}
	record := func(batches *[][]string) PlayFunc {
		play := synthPlay(rand.New(rand.NewPCG(7, 8)), planVals, 2.5, new(int))
		return func(ctx context.Context, round int, batch []PlannedMatch, pairs int) ([]ImbalanceMatch, error) {
			var names []string
			for _, m := range batch {
				names = append(names, m.Name)
			}
			*batches = append(*batches, names)
			if round >= 5 {
				return nil, errStopTest // the plan without a conclusion: five rounds are enough
			}
			return play(ctx, round, batch, pairs)
		}
	}
	var full, concl [][]string
	if _, err := Plan(context.Background(), cfg, record(&full)); err != errStopTest {
		t.Fatalf("the plan without a conclusion: %v", err)
	}
	ended := cfg
	ended.EndRound = 3
	res, err := Plan(context.Background(), ended, record(&concl))
	if err != nil {
		t.Fatal(err)
	}
	if len(concl) < 4 || len(concl) != res.Rounds {
		t.Fatalf("%d rounds played, %d reported: %v", len(concl), res.Rounds, concl)
	}
	for r := range 3 {
		if !slices.Equal(full[r], concl[r]) {
			t.Errorf("round %d: %v, want %v (as without the conclusion)", r, concl[r], full[r])
		}
	}
	for _, m := range res.Matches {
		if !m.Check && m.Pairs > 3*cfg.BatchPairs {
			t.Errorf("%s: %d pairs, beyond three rounds of %d", m.Name, m.Pairs, cfg.BatchPairs)
		}
	}
	for r, names := range concl[3:] {
		for _, n := range names {
			if i := slices.IndexFunc(res.Matches, func(m *PlannedMatch) bool { return m.Name == n }); i < 0 || !res.Matches[i].Check {
				t.Errorf("round %d after the conclusion plays %s, not a check", 3+r, n)
			}
		}
	}
	if res.EndRound != 3 || !slices.Equal(res.Concluded[:3], []bool{false, true, true}) {
		t.Errorf("end round %d, concluded %v for %v; want 3 and N, R", res.EndRound, res.Concluded, res.Pieces)
	}
	// Every piece stops at its cap in round 1: a conclusion at round 5
	// stops none.
	capped := cfg
	capped.MaxPairs, capped.EndRound = 20, 5
	res, err = Plan(context.Background(), capped, synthPlay(rand.New(rand.NewPCG(7, 8)), planVals, 2.5, new(int)))
	if err != nil {
		t.Fatal(err)
	}
	if res.EndRound != 0 || res.Concluded != nil {
		t.Errorf("a conclusion after the cap: end round %d, concluded %v", res.EndRound, res.Concluded)
	}
}

// TestPlanReport: the plan reports each piece's standing after every
// round of pieces' matches (not after a check round): its pairs so far
// and its target from its value.
func TestPlanReport(t *testing.T) {
	cfg := PlanConfig{Variant: "chess", PlanSettings: PlanSettings{Pieces: []string{"N", "R"}, HalfWidth: 0.3, RelativeHalfWidth: 0.1, BatchPairs: 10, MaxPairs: 40, CheckPairs: 10},
		Start: map[string]float64{"N": 3, "R": 5}}
	var rounds []int
	last := map[string]int{}
	cfg.Report = func(round int, standing []PieceStanding) {
		rounds = append(rounds, round)
		for _, s := range standing {
			if s.Pairs < last[s.Piece] || s.Pairs > cfg.MaxPairs || s.Target != cfg.target(s.Value) || !(s.HalfWidth > 0) {
				t.Errorf("round %d: %+v (pairs before %d)", round, s, last[s.Piece])
			}
			last[s.Piece] = s.Pairs
		}
	}
	res, err := Plan(context.Background(), cfg, synthPlay(rand.New(rand.NewPCG(9, 9)), planVals, 2.5, new(int)))
	if err != nil {
		t.Fatal(err)
	}
	checkRounds := 0
	for _, m := range res.Matches {
		if m.Check {
			checkRounds = max(checkRounds, m.Pairs/cfg.BatchPairs)
		}
	}
	if checkRounds == 0 || len(rounds) != res.Rounds-checkRounds || last["N"] != 40 || last["R"] != 40 {
		t.Errorf("reports after rounds %v of %d (%d check rounds); last pairs %v, want 40 each", rounds, res.Rounds, checkRounds, last)
	}
	if s := (PieceStanding{Piece: "N", Value: 3.046, HalfWidth: 0.312, Target: 0.3, Pairs: 540}).String(); s != "N 3.05±0.31/0.30 (540 pairs)" {
		t.Errorf("standing %q", s)
	}
}
