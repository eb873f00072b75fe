package values

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// pairedMatch plays n pairs at first-side score p with draws; the second
// game of a pair repeats the first's result with probability copy, so the
// two games correlate copy.
func pairedMatch(rng *rand.Rand, n int, p, copy float64) *ImbalanceMatch {
	game := func() int { // points in halves: 0, 1, 2
		draw := 0.6 * math.Min(p, 1-p)
		switch u := rng.Float64(); {
		case u < p-draw/2:
			return 2
		case u < p+draw/2:
			return 1
		}
		return 0
	}
	m := &ImbalanceMatch{Pairs: n, Pentanomial: make([]int, 5)}
	for range n {
		a := game()
		b := a
		if rng.Float64() >= copy {
			b = game()
		}
		for _, x := range []int{a, b} {
			switch x {
			case 2:
				m.Wins++
			case 1:
				m.Draws++
			default:
				m.Losses++
			}
		}
		m.Pentanomial[a+b]++
	}
	return m
}

// TestPairCorrelation: independent games give intervals that cover 0 at
// about the nominal rate; games whose pairs repeat a result 30% of the
// time give about 0.3 and are flagged.
func TestPairCorrelation(t *testing.T) {
	const reps = 300
	covered := 0
	for r := range reps {
		rng := rand.New(rand.NewPCG(uint64(r), 17))
		ms := []*ImbalanceMatch{pairedMatch(rng, 500, 0.35, 0), pairedMatch(rng, 500, 0.5, 0), pairedMatch(rng, 300, 0.6, 0)}
		pc := PairCorrelationOf(ms)
		if pc == nil || pc.Pairs != 1300 {
			t.Fatalf("rep %d: %+v, want 1300 pairs", r, pc)
		}
		if pc.Rho.Lo <= 0 && 0 <= pc.Rho.Hi {
			covered++
		}
	}
	// Binomial(300, 0.95): 285 ± 3.8.
	if covered < 272 || covered > 296 {
		t.Errorf("independent games: the interval covered 0 in %d of %d runs", covered, reps)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pc := PairCorrelationOf([]*ImbalanceMatch{pairedMatch(rng, 3000, 0.4, 0.3), pairedMatch(rng, 3000, 0.55, 0.3)})
	if rho := float64(pc.Rho.Value); math.Abs(rho-0.3) > 0.05 || !pc.Correlated() {
		t.Errorf("correlated pairs: ρ = %v, want about 0.3, flagged", pc.Rho)
	}
}

// TestPairCorrelationByHand: two pairs, each a win and a loss, vary not
// at all as pairs (ρ = −1); a lost pair and a won pair (2-0-2) give pair
// variance 2 and game variance 1/3, ρ = 2/(2/3) − 1 = 2 (no interval).
// A match without a pentanomial, or with one that counts none of its
// games (an old summary), leaves the correlation unknown.
func TestPairCorrelationByHand(t *testing.T) {
	split := &ImbalanceMatch{Pairs: 2, Wins: 2, Losses: 2, Pentanomial: []int{0, 0, 2, 0, 0}}
	if pc := PairCorrelationOf([]*ImbalanceMatch{split}); pc == nil || pc.Rho.Value != -1 {
		t.Errorf("split pairs: %+v, want ρ = −1", pc)
	}
	apart := &ImbalanceMatch{Pairs: 2, Wins: 2, Losses: 2, Pentanomial: []int{1, 0, 0, 0, 1}}
	if pc := PairCorrelationOf([]*ImbalanceMatch{apart}); pc == nil || math.Abs(float64(pc.Rho.Value)-2) > 1e-12 || !math.IsNaN(float64(pc.Rho.SE)) {
		t.Errorf("a lost and a won pair: %+v, want ρ = 2 without an interval", pc)
	}
	for _, unknown := range []*ImbalanceMatch{{Wins: 1, Losses: 1}, {Pairs: 1, Wins: 1, Losses: 1, Pentanomial: make([]int, 5)}} {
		if pc := PairCorrelationOf([]*ImbalanceMatch{split, unknown}); pc != nil {
			t.Errorf("a match whose pairs are unknown (%v): %+v, want none", unknown.Pentanomial, pc)
		}
	}
}

// TestAddPentanomial: rounds' pentanomials add up; a round without one
// (read from a journal) makes the sum unknown.
func TestAddPentanomial(t *testing.T) {
	var m ImbalanceMatch
	m.Add(ImbalanceMatch{Pairs: 2, Wins: 2, Losses: 2, Pentanomial: []int{1, 0, 0, 0, 1}})
	m.Add(ImbalanceMatch{Pairs: 1, Wins: 1, Losses: 1, Pentanomial: []int{0, 0, 1, 0, 0}})
	if !slices.Equal(m.Pentanomial, []int{1, 0, 1, 0, 1}) || m.Pairs != 3 {
		t.Fatalf("sum %+v", m)
	}
	m.Add(ImbalanceMatch{Wins: 1})
	if m.Pentanomial != nil {
		t.Errorf("after a round without pairs: %v, want nil", m.Pentanomial)
	}
	var j ImbalanceMatch
	j.Add(ImbalanceMatch{Wins: 1})
	j.Add(ImbalanceMatch{Pairs: 1, Wins: 1, Losses: 1, Pentanomial: []int{0, 0, 1, 0, 0}})
	if j.Pentanomial != nil {
		t.Errorf("a journal's games then a summary: %v, want nil", j.Pentanomial)
	}
}

// TestImbalanceFitWidenedByPairs: the tuned values tables' imbalance fit of
// matches whose pairs repeat a result widens its intervals by √(1 + ρ̂),
// as the values document does (ReportedImbalance); the same matches
// without their pairs (pentanomials unknown) keep the plain intervals.
func TestImbalanceFitWidenedByPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	oddsP := pairedMatch(rng, 3000, 0.4, 0.5)
	oddsP.FirstRemoves = []string{"P"}
	knight := pairedMatch(rng, 3000, 0.3, 0.5)
	knight.FirstRemoves, knight.SecondRemoves = []string{"N"}, []string{"P", "P"}
	withPairs := ImbalanceFit{Variant: "chess", Matches: []ImbalanceMatch{*oddsP, *knight}}
	withPairs.fit()
	plain := withPairs
	plain.Matches = []ImbalanceMatch{*oddsP, *knight}
	plain.Matches[0].Pentanomial, plain.Matches[1].Pentanomial = nil, nil
	plain.Estimates = nil
	plain.fit()
	pc := PairCorrelationOf([]*ImbalanceMatch{oddsP, knight})
	if withPairs.Error != "" || plain.Error != "" || pc == nil || !pc.Correlated() {
		t.Fatalf("fits: %q, %q; correlation %+v", withPairs.Error, plain.Error, pc)
	}
	for i, e := range withPairs.Estimates {
		ratio := float64(e.SE / plain.Estimates[i].SE)
		if want := math.Sqrt(1 + float64(pc.Rho.Value)); math.Abs(ratio-want) > 1e-9 {
			t.Errorf("%s: SE ×%.4f with the pairs, want √(1 + ρ̂) = %.4f", e.Piece, ratio, want)
		}
	}
}
