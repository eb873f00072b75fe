package values

// Choosing what a match sets against the piece it measures: the planner's
// opponents, and the check matches' other routes.

import (
	"math"
	"slices"
	"strings"

	"tamerlane/values/imbalance"
)

// opponent chooses the material a match measuring x sets against e, x's
// estimate in pawns (less that of the piece it replaces if it is measured
// by replacement, see sides): among opponents' candidates, those worth
// less than e besides plain pawns, the one whose value is nearest e
// (fewest pieces on a tie).
func opponent(x string, est map[string]float64, pieces []string, maxPawns int, replace map[string]string) []string {
	return nearestOpponent(x, est, opponents(x, pieces, maxPawns, replace), replace)
}

// nearestOpponent is opponent's choice among the candidates cands.
func nearestOpponent(x string, est map[string]float64, cands [][]string, replace map[string]string) []string {
	e := est[x]
	if y := replace[x]; y != "" {
		e -= est[y]
	}
	var best []string
	bestErr := math.Inf(1)
	for _, opp := range cands {
		if y := opp[0]; y != "P" && !(est[y] < e) {
			continue
		}
		v := oppValue(opp, est)
		if d := math.Abs(e - v); d < bestErr-1e-9 || (math.Abs(d-bestErr) <= 1e-9 && len(opp) < len(best)) {
			best, bestErr = opp, d
		}
	}
	return best
}

// opponents lists every material a match measuring x may set against it
// (opponent chooses among them by the estimates): k pawns for k from 1 to
// maxPawns, then each other measured piece y with 0 to maxPawns pawns.
// Never given up: x's replaced piece, and any piece the array lacks (one
// measured by replacement, a key of replace), since neither side has one
// to give.
func opponents(x string, pieces []string, maxPawns int, replace map[string]string) [][]string {
	var out [][]string
	for k := 1; k <= maxPawns; k++ {
		out = append(out, slices.Repeat([]string{"P"}, k))
	}
	for _, y := range pieces {
		if y == x || y == replace[x] || replace[y] != "" {
			continue
		}
		for k := 0; k <= maxPawns; k++ {
			out = append(out, append([]string{y}, slices.Repeat([]string{"P"}, k)...))
		}
	}
	return out
}

// sides returns the removes of both sides of a match measuring x against
// the material opp: the first side gives up x and the second opp. A piece
// the array lacks (measured by replacing its piece y) cannot be given up,
// so the first side instead puts it in the place of y, which gains it x − y,
// and gives up opp as well, which is worth about that, while the second
// side keeps its whole array ("R>A+P+P+P vs nothing").
func sides(x, y string, opp []string) (first, second []string) {
	if y == "" {
		return []string{x}, opp
	}
	return append([]string{y + ">" + x}, opp...), nil
}

// matchOpponent returns the material a planned match measures its piece
// against (see sides).
func matchOpponent(m *PlannedMatch) []string {
	if len(m.FirstRemoves) > 0 && imbalance.Added(m.FirstRemoves[0]) != "" {
		return m.FirstRemoves[1:]
	}
	return m.SecondRemoves
}

// oppValue is the estimated worth of the material opp: its pieces, and
// its plain pawns as a set (pawnsWorth).
func oppValue(opp []string, est map[string]float64) float64 {
	v := pawnsWorth(est, len(pawnRemoves(opp)))
	for _, y := range opp {
		if imbalance.PieceOf(y) != "P" || imbalance.Added(y) != "" {
			v += est[y]
		}
	}
	return v
}

// pawnsWorth is the estimated worth of k pawns given up together: their
// set's estimate once its odds are measured (PlanConfig.PawnSets), else k.
func pawnsWorth(est map[string]float64, k int) float64 {
	if v, ok := est[plainSet(k)]; ok && k >= 2 {
		return v
	}
	return float64(k)
}

// checkOpponent chooses the material of x's check match
// (PlanConfig.CheckPairs) as opponent does, but only among the opponents
// whose pieces other than plain pawns differ from those of every match x
// was measured by, another route to its value (R vs N+P beside R vs B+P,
// B vs P+P+P beside B vs N), and, with pawn sets, whose sets of pawns had
// their odds measured. nil when there is none: in chess the knight,
// measured against pawns and worth less than any other piece, has no
// other route.
func checkOpponent(x string, est map[string]float64, cfg PlanConfig, played []*PlannedMatch) []string {
	routes := map[string]bool{}
	var ms []*ImbalanceMatch
	for _, m := range played {
		ms = append(ms, &m.ImbalanceMatch)
		if m.Piece == x {
			routes[pieceKey(matchOpponent(m))] = true
		}
	}
	sets := measuredSets(ms)
	var cands [][]string
	for _, opp := range opponents(x, cfg.Pieces, cfg.MaxPawns, cfg.Replace) {
		if routes[pieceKey(opp)] {
			continue
		}
		if first, second := sides(x, cfg.Replace[x], opp); cfg.PawnSets && !setsIn(sets, first, second) {
			continue
		}
		cands = append(cands, opp)
	}
	return nearestOpponent(x, est, cands, cfg.Replace)
}

// pieceKey names the pieces of some material other than its plain pawns.
func pieceKey(material []string) string {
	var ps []string
	for _, y := range material {
		if imbalance.PieceOf(y) != "P" || imbalance.Added(y) != "" {
			ps = append(ps, y)
		}
	}
	slices.Sort(ps)
	return strings.Join(ps, "+")
}

// setsIn reports whether every set of two or more pawns a side gives up
// is one of sets.
func setsIn(sets []string, sides ...[]string) bool {
	for _, side := range sides {
		if pawns := pawnRemoves(side); len(pawns) >= 2 && !slices.Contains(sets, setClass(pawns)) {
			return false
		}
	}
	return true
}
