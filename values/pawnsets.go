package values

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"tamerlane/internal/stats"
	"tamerlane/values/imbalance"
)

// Pawn sets in the imbalance fit.
//
// The fit's linear pawn unit counts every removed pawn as one pawn. In
// historical Tamerlane removed pawns do not add up: played out, one
// pawn's odds weigh 0.39 logit and three pawns' 0.38 (docs/values.md,
// "Played out"), so a piece matched against three pawns would be
// measured against one pawn's worth counted three times. A piece and a
// set of pawns do add up there. So a set of k ≥ 2 pawns whose own odds
// were measured (a match of exactly those k pawns against nothing) is a
// class of its own in the fit ("3P", or "3P(c,d,e)" for pawns named by
// file), and every side that gives up exactly those pawns (besides any
// pieces) gives up that class. The pieces stay in
// pawns of the single pawn's odds; the sets get a value in the same unit,
// which says how far they are from k. A set without its own odds match
// counts as k pawns, as before, so runs without such matches fit exactly
// as they did. The planner plays the odds of every set it uses with
// PlanConfig.PawnSets.

// pawnRemoves returns the removes that give up a pawn: "P", or "P@f" for
// the pawn of file f (a replacement "P>X" is not one).
func pawnRemoves(removes []string) []string {
	var out []string
	for _, r := range removes {
		if imbalance.PieceOf(r) == "P" && imbalance.Added(r) == "" {
			out = append(out, r)
		}
	}
	return out
}

// PawnSetValue is the imbalance value of k pawns given up together, in
// pawns (of the single pawn's odds): k if removed pawns add up.
type PawnSetValue struct {
	// Set names the class: "3P", or "3P(c,d,e)" for the pawns of those
	// files.
	Set string `json:"set"`
	// Pawns is k.
	Pawns int `json:"pawns"`
	// Imbalance is the set's value and interval.
	Imbalance stats.Interval `json:"imbalance"`
	// AdditivityZ is (value − k)/SE: how many standard errors the set
	// is from k single pawns' odds; beyond ±1.96 its pawns do not add up
	// at 95% (null when the fit gave no standard error).
	AdditivityZ *float64 `json:"additivity_z"`
}

// pawnSetValue returns the value of the pawn set of an imbalance fit's
// estimate (a class setSize names).
func pawnSetValue(e imbalance.Estimate) PawnSetValue {
	k := setSize(e.Piece)
	iv := imbalanceInterval(e)
	// Against k single pawns, an exact value: the z is (value − k)/SE.
	return PawnSetValue{Set: e.Piece, Pawns: k, Imbalance: iv, AdditivityZ: agreementZ(&iv, &stats.Interval{Value: stats.Float(k)})}
}

// Adds reports whether the set's pawns add up at 95%: |AdditivityZ| ≤
// 1.96 (true when it has no z).
func (ps PawnSetValue) Adds() bool {
	return ps.AdditivityZ == nil || math.Abs(*ps.AdditivityZ) <= stats.Z95
}

// setClass names the class of the pawns given up together: "3P" for
// three pawns of no named file, "3P(c,d,e)" for the c-, d- and e-pawns
// (`pawns: centre` names them). The name holds neither "@" nor ">", so
// the fit reads it as a piece of its own.
func setClass(pawns []string) string {
	var files []string
	for _, p := range pawns {
		if _, f, ok := strings.Cut(p, "@"); ok {
			files = append(files, f)
		}
	}
	name := strconv.Itoa(len(pawns)) + "P"
	if len(files) > 0 {
		slices.Sort(files)
		name += "(" + strings.Join(files, ",") + ")"
	}
	return name
}

// plainSet is the class of k pawns of no named file ("3P").
func plainSet(k int) string { return setClass(slices.Repeat([]string{"P"}, k)) }

// setSize returns the number of pawns of a set class ("3P", "3P(c,d,e)"),
// or 0 for any other name.
func setSize(class string) int {
	digits, rest, ok := strings.Cut(class, "P")
	if !ok || (rest != "" && !strings.HasPrefix(rest, "(")) {
		return 0
	}
	k, err := strconv.Atoi(digits)
	if err != nil || k < 2 {
		return 0
	}
	return k
}

// setOdds returns the class of the pawn set a match measures by its own
// odds (k ≥ 2 pawns against nothing, on either side), or "".
func setOdds(first, second []string) string {
	for _, s := range [2][2][]string{{first, second}, {second, first}} {
		if pawns := pawnRemoves(s[0]); len(pawns) >= 2 && len(pawns) == len(s[0]) && len(s[1]) == 0 {
			return setClass(pawns)
		}
	}
	return ""
}

// measuredSets returns the classes of the pawn sets whose odds some match
// with games measures (setOdds), in order of first appearance. A set
// whose odds match has no game yet (a round read while it is played)
// counts as its pawns.
func measuredSets(ms []*ImbalanceMatch) []string {
	var sets []string
	for _, m := range ms {
		if m.Games() == 0 {
			continue
		}
		if c := setOdds(m.FirstRemoves, m.SecondRemoves); c != "" && !slices.Contains(sets, c) {
			sets = append(sets, c)
		}
	}
	return sets
}

// withSets returns removes with its pawns given up as their set's class
// when there are at least two and the set is one of sets.
func withSets(removes []string, sets []string) []string {
	pawns := pawnRemoves(removes)
	if len(pawns) < 2 || !slices.Contains(sets, setClass(pawns)) {
		return removes
	}
	out := make([]string, 0, len(removes)-len(pawns)+1)
	for _, r := range removes {
		if !slices.Contains(pawns, r) {
			out = append(out, r)
		}
	}
	return append(out, setClass(pawns))
}

// reportedImbalanceFit is the imbalance fit a document reports: the
// plain fit (fitImbalance), its intervals widened by the matches' spread
// about the additive model when they spread more than their games allow,
// or by the correlation of a pair's games pc when that is larger
// (ReportedImbalance).
func reportedImbalanceFit(pieces []string, ms []*ImbalanceMatch, pc *PairCorrelation) (*imbalance.Result, []string, error) {
	fit, classes, err := fitImbalance(pieces, ms, 0)
	if err != nil {
		return nil, nil, err
	}
	return ReportedImbalance(fit, pc), classes, nil
}

// fitImbalance fits the matches' values with the pawn as unit (pawn
// odds: the reference) and the given ridge (fitClasses).
func fitImbalance(pieces []string, ms []*ImbalanceMatch, ridge float64) (*imbalance.Result, []string, error) {
	return fitClasses(pieces, ms, imbalance.Options{Reference: "P", Ridge: ridge})
}

// fitClasses is the imbalance fit of piece values, the one the values
// document, the planner and the tuned values tables use: one class per
// piece of pieces and one per measured pawn set, appended, which it
// returns with the fit; matches without a game are left out; opt names
// the reference piece and the ridge.
func fitClasses(pieces []string, ms []*ImbalanceMatch, opt imbalance.Options) (*imbalance.Result, []string, error) {
	sets := measuredSets(ms)
	classes := slices.Concat(pieces, sets)
	var fm []imbalance.Match
	for _, m := range ms {
		if m.Games() == 0 {
			continue
		}
		c := *m
		c.FirstRemoves, c.SecondRemoves = withSets(m.FirstRemoves, sets), withSets(m.SecondRemoves, sets)
		f, err := c.Fitted(classes)
		if err != nil {
			return nil, nil, err
		}
		fm = append(fm, f)
	}
	if len(fm) == 0 {
		return nil, nil, errors.New("no matches played")
	}
	fit, err := imbalance.Fit(classes, fm, opt)
	return fit, classes, err
}
