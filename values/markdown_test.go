package values

import (
	"strings"
	"testing"

	"tamerlane/internal/stats"
	"tamerlane/values/imbalance"
)

// TestPairCorrelationSentence: values.md says how much the pairs'
// correlation widens the intervals: not at all when ρ̂ ≤ 0, by √(1 + ρ̂)
// when it is positive, flagged when significantly so.
func TestPairCorrelationSentence(t *testing.T) {
	for _, c := range []struct {
		rho, se float64
		want    string
	}{
		{-0.02, 0.01, "ρ = -0.020 [-0.030, -0.010] over 900 pairs: the fit's intervals, which count games as independent, stand."},
		{0.02, 0.03, "not significantly, but the intervals are at least √(1 + ρ̂) = 1.010 times"},
		{0.21, 0.03, "**they correlate**: the intervals are at least √(1 + ρ̂) = 1.100 times"},
	} {
		v := &VariantValues{Matches: []*ImbalanceMatch{{Name: "P odds", FirstRemoves: []string{"P"}, Pairs: 900, Wins: 600, Draws: 600, Losses: 600}},
			ImbalancePairCorrelation: &PairCorrelation{Pairs: 900, Rho: stats.NewInterval(c.rho, c.se/stats.Z95)}}
		var b strings.Builder
		matchesMarkdown(&b, v)
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("ρ %v: %q lacks %q", c.rho, b.String(), c.want)
		}
	}
}

// TestConsistencyWidening: the consistency sentence gives the widening
// the matches' spread asks for as a lower bound ("at least"): the
// reported intervals take the larger of it and the pairs' correlation
// (ReportedImbalance), which the next sentence gives.
func TestConsistencyWidening(t *testing.T) {
	c := &imbalance.Consistency{Matches: 6, DF: 2, ChiSquare: 8, P: 0.02, PureError: 0.9, Heterogeneity: 4}
	if got, want := ConsistencySummary(c), "2.00 times as wide as independent games would make them (√(X²/df))"; !strings.Contains(got, want) {
		t.Errorf("%q lacks %q", got, want)
	}
	// Pairs correlating ρ̂ = 0.44: X² was taken with it, and the widening
	// is √(1.44·4) = 2.4.
	k := *c
	k.PairInflation = 1.44
	if got, want := ConsistencySummary(&k), "2.40 times as wide as independent games would make them (√((1 + ρ̂)·X²/df))"; !strings.Contains(got, want) || !strings.Contains(got, "times 1 + ρ̂ = 1.440") {
		t.Errorf("%q lacks %q or the pairs' factor", got, want)
	}
	c.Heterogeneity = 1
	if got := ConsistencySummary(c); strings.Contains(got, "times as wide") {
		t.Errorf("no widening, yet %q", got)
	}
}
