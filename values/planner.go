package values

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"tamerlane/internal/stats"
	"tamerlane/selfplay"

	"tamerlane/values/imbalance"
)

// PlanSettings are the planner's pieces, targets and budget: the fields a
// measurement config's imbalance section shares with PlanConfig.
type PlanSettings struct {
	// Pieces are the FEN tokens of the pieces to measure (the pawn "P" is
	// always measured by a pawn-odds match).
	Pieces []string `yaml:"pieces"`
	// HalfWidth is the target 95% half-width of every value in pawns
	// (default 0.25).
	HalfWidth float64 `yaml:"half_width"`
	// RelativeHalfWidth, when positive, relaxes the target of a piece
	// worth more than HalfWidth/RelativeHalfWidth pawns to that fraction
	// of its current estimate: a piece's target is the larger of
	// HalfWidth and RelativeHalfWidth times its value (see target), so
	// that a queen is measured to the same relative precision as a
	// knight instead of to the same number of pawns (default 0:
	// HalfWidth for every piece).
	RelativeHalfWidth float64 `yaml:"relative_half_width,omitempty"`
	// BatchPairs is the number of game pairs a match plays per round
	// (default 20).
	BatchPairs int `yaml:"batch_pairs"`
	// MaxPairs caps the pairs played for every piece, over all its
	// matches (default 400).
	MaxPairs int `yaml:"max_pairs"`
	// MaxPawns is the most pawns one side gives up in a match (default 4).
	MaxPawns int `yaml:"max_pawns"`
	// Replace measures pieces the array lacks (they appear only by
	// promotion): Replace[X] = Y plays X's matches with one of the first
	// side's Y replaced by X ("Y>X", see selfplay.ImbalanceConfig) and the
	// same side giving up pawns or pieces worth about X minus Y, against
	// the second side's whole array. Y must be among Pieces (its own
	// matches measure it) and worth less than X.
	Replace map[string]string `yaml:"replace,omitempty"`
	// StopOutOfReach stops a piece's matches early once its target
	// cannot be reached within MaxPairs (see outOfReach) instead of
	// playing on to the cap (default false: the cap is the budget).
	StopOutOfReach bool `yaml:"stop_out_of_reach,omitempty"`
	// PawnSets plays, beside every match in which a side gives up k ≥ 2
	// pawns, the odds of those k pawns, so that the fit counts the set as
	// a class of its own instead of k pawns (pawnsets.go): for variants
	// whose removed pawns do not add up (historical Tamerlane).
	PawnSets bool `yaml:"pawn_sets,omitempty"`
	// CheckPairs, when positive, plays after the plan's end one check
	// match per piece for that many pairs (rounded up to whole batches,
	// outside MaxPairs): the piece against material of other pieces than
	// every match it was measured by (checkOpponent), so that the matches
	// overdetermine the values and the fit can test that they add up
	// (imbalance.Consistency). Check matches change no opponent.
	CheckPairs int `yaml:"check_pairs,omitempty"`
}

// PlanConfig says which pieces of one variant the imbalance planner
// measures and when it stops.
type PlanConfig struct {
	// Variant is the variant's name.
	Variant string `yaml:"variant"`
	// Rules are rule options "k=v,k=v" (docs/rules.md 3.8).
	Rules string `yaml:"rules,omitempty"`
	// PlanSettings are the pieces and the budget, as a measurement
	// config's imbalance section gives them.
	PlanSettings `yaml:",inline"`
	// Start are the estimates (pawns) the first opponents are chosen
	// from; a piece without one starts at 3. Planning only: the fitted
	// values do not depend on them except through the choice of matches.
	Start map[string]float64 `yaml:"-"`
	// StopOnReported judges each piece's target on the fit as the values
	// document reports it (ReportedImbalance: widened by the pairs'
	// correlation and by the matches' spread about the additive model)
	// instead of on the plain fit, so that a piece stops only when its
	// reported interval meets the target. A measurement keeps the rule it
	// began with (measure.json), so that its plan replays on resuming.
	StopOnReported bool `yaml:"-"`
	// EndRound, when positive, concludes the plan before its targets or
	// caps: from round EndRound on no piece's matches play, so the plan
	// ends there (its check rounds follow) as if every piece had stopped.
	// tamerlane measure -conclude records it (Conclude), so that a
	// resumed plan replays the same rounds.
	EndRound int `yaml:"-"`
	// Report, when set, is called after every round of pieces' matches
	// with each piece's standing against its target (progress lines).
	Report func(round int, standing []PieceStanding) `yaml:"-"`
}

// PieceStanding is a piece's value after a round of the plan, as the
// stopping rule judges it, beside its target and its pairs so far.
type PieceStanding struct {
	Piece                    string
	Value, HalfWidth, Target float64
	Pairs                    int
}

// String formats the standing as "N 3.05±0.31/0.30 (540 pairs)": value,
// 95% half-width, target.
func (s PieceStanding) String() string {
	return fmt.Sprintf("%s %.2f±%.2f/%.2f (%d pairs)", s.Piece, s.Value, s.HalfWidth, s.Target, s.Pairs)
}

// judgedFit is the fit the stopping rule judges: fit, the plain fit of
// matches, or fit as reported (PlanConfig.StopOnReported).
func (c *PlanConfig) judgedFit(fit *imbalance.Result, matches []*PlannedMatch) *imbalance.Result {
	if !c.StopOnReported {
		return fit
	}
	return ReportedImbalance(fit, PairCorrelationOf(imbalanceMatches(matches)))
}

func (c *PlanConfig) setDefaults() {
	if c.HalfWidth == 0 {
		c.HalfWidth = 0.25
	}
	if c.BatchPairs == 0 {
		c.BatchPairs = 20
	}
	if c.MaxPairs == 0 {
		c.MaxPairs = 400
	}
	if c.MaxPawns == 0 {
		c.MaxPawns = 4
	}
}

// Validate checks the configuration and fills in defaults.
func (c *PlanConfig) Validate() error {
	c.setDefaults()
	switch {
	case c.Variant == "":
		return errors.New("imbalance: variant is required")
	case len(c.Pieces) == 0:
		return fmt.Errorf("imbalance %s: pieces is empty", c.Variant)
	case !(c.HalfWidth >= 0) || math.IsInf(c.HalfWidth, 0):
		return fmt.Errorf("imbalance %s: half_width %v is not a finite number ≥ 0", c.Variant, c.HalfWidth)
	case !(c.RelativeHalfWidth >= 0 && c.RelativeHalfWidth < 1):
		return fmt.Errorf("imbalance %s: relative_half_width %v is not a fraction in [0, 1)", c.Variant, c.RelativeHalfWidth)
	case c.HalfWidth < 0 || c.BatchPairs < 0 || c.MaxPairs < 0 || c.MaxPawns < 0 || c.CheckPairs < 0:
		return fmt.Errorf("imbalance %s: half_width, batch_pairs, max_pairs, max_pawns and check_pairs must not be negative", c.Variant)
	case c.EndRound < 0:
		return fmt.Errorf("imbalance %s: end round %d is negative", c.Variant, c.EndRound)
	case c.MaxPairs > selfplay.MaxPairs || c.CheckPairs > selfplay.MaxPairs:
		return fmt.Errorf("imbalance %s: max_pairs and check_pairs must not be more than %d (got %d and %d)", c.Variant, selfplay.MaxPairs, c.MaxPairs, c.CheckPairs)
	case c.BatchPairs > c.MaxPairs:
		return fmt.Errorf("imbalance %s: batch_pairs %d exceeds max_pairs %d", c.Variant, c.BatchPairs, c.MaxPairs)
	}
	for i, p := range c.Pieces {
		if p == "P" || slices.Contains(c.Pieces[:i], p) {
			return fmt.Errorf("imbalance %s: piece %q listed twice (the pawn is always measured)", c.Variant, p)
		}
	}
	for _, x := range slices.Sorted(maps.Keys(c.Replace)) {
		y := c.Replace[x]
		switch {
		case !slices.Contains(c.Pieces, x):
			return fmt.Errorf("imbalance %s: replace: %q is not among the pieces measured", c.Variant, x)
		case y == x || !slices.Contains(c.Pieces, y) || c.Replace[y] != "":
			return fmt.Errorf("imbalance %s: replace: %s is replaced by %q, which must be another measured piece of the array", c.Variant, x, y)
		}
	}
	return nil
}

// PlannedMatch is one imbalance match of the plan, with the pairs and
// results of its rounds so far: the first side plays without
// FirstRemoves, the second without SecondRemoves. Name is "X vs Y+P+P",
// "Y>X+P+P vs nothing" (a replacement, see sides) or "P odds".
type PlannedMatch struct {
	ImbalanceMatch
	// Piece is the piece it measures ("P": pawn odds).
	Piece string `json:"piece"`
	// Check marks a check match (PlanConfig.CheckPairs).
	Check bool `json:"check,omitempty"`
}

// PlayFunc plays one round: BatchPairs pairs of every listed match, and
// returns what each gave (by name: pairs and the first side's results).
type PlayFunc func(ctx context.Context, round int, batch []PlannedMatch, pairs int) ([]ImbalanceMatch, error)

// ImbalanceResult is the state of the planner after its last round.
type ImbalanceResult struct {
	// Variant is the variant's name.
	Variant string `json:"variant"`
	// Rounds is the number of rounds played.
	Rounds int `json:"rounds"`
	// Matches are every match played, in the order they were planned.
	Matches []*PlannedMatch `json:"matches"`
	// Values are in pawns, per piece of Pieces ("P" first, then the
	// pieces, then the pawn sets whose odds were measured: "3P", see
	// PlanConfig.PawnSets).
	Pieces []string         `json:"pieces"`
	Values []stats.Interval `json:"values"`
	// Done tells, per piece, whether its half-width target was reached.
	Done []bool `json:"done"`
	// OutOfReach tells, per piece, whether the planner stopped its
	// matches because the target could not be reached within MaxPairs
	// (see outOfReach).
	OutOfReach []bool `json:"out_of_reach,omitempty"`
	// EndRound is PlanConfig.EndRound, and Concluded tells, per piece,
	// whether the conclusion stopped its matches short of its target and
	// its cap (absent when it stopped none).
	EndRound  int    `json:"end_round,omitempty"`
	Concluded []bool `json:"concluded,omitempty"`
	// Fit is the last imbalance fit (nil when it failed).
	Fit *imbalance.Result `json:"-"`
}

// Value returns the estimate of a piece.
func (r *ImbalanceResult) Value(piece string) (stats.Interval, bool) {
	i := slices.Index(r.Pieces, piece)
	if i < 0 || math.IsNaN(float64(r.Values[i].Value)) {
		return stats.Interval{}, false
	}
	return r.Values[i], true
}

// CandidateMatches returns every match the planner may play with cfg,
// whatever the games say: the pawn odds, each piece against each of its
// opponents (opponents, sides), and with PawnSets the odds of every set
// of pawns those give up. A run whose matches start from positions checks
// them all against the positions before its first round.
func (c PlanConfig) CandidateMatches() []PlannedMatch {
	c.setDefaults()
	var out []PlannedMatch
	seen := map[string]bool{}
	add := func(piece string, first, second []string) {
		name := plannedName(piece, first, second)
		if !seen[name] {
			seen[name] = true
			out = append(out, PlannedMatch{ImbalanceMatch: ImbalanceMatch{Name: name, FirstRemoves: first, SecondRemoves: second}, Piece: piece})
		}
	}
	add("P", []string{"P"}, nil)
	for _, x := range c.Pieces {
		for _, opp := range opponents(x, c.Pieces, c.MaxPawns, c.Replace) {
			first, second := sides(x, c.Replace[x], opp)
			add(x, first, second)
			if !c.PawnSets {
				continue
			}
			for _, side := range [][]string{first, second} {
				if pawns := pawnRemoves(side); len(pawns) >= 2 {
					add(setClass(pawns), pawns, nil)
				}
			}
		}
	}
	return out
}

// target is the 95% half-width the planner seeks for a piece whose value
// is estimated at value pawns: HalfWidth, or RelativeHalfWidth of the
// value when that is wider.
func (c *PlanConfig) target(value float64) float64 {
	return max(c.HalfWidth, c.RelativeHalfWidth*math.Abs(value))
}

// outOfReach reports whether a piece whose value has 95% half-width hw
// after pairs pairs of its matches cannot reach the half-width target
// within cfg.MaxPairs: the half-width shrinks about as 1/sqrt(pairs), so
// the cap would leave it at hw*sqrt(pairs/MaxPairs). The planner judges
// only after four batches (the early half-widths are noisy) and allows a
// quarter of slack, so it never gives up on a piece that could still get
// there.
func outOfReach(hw, target float64, pairs int, cfg PlanConfig) bool {
	if pairs < 4*cfg.BatchPairs {
		return false
	}
	return hw*math.Sqrt(float64(pairs)/float64(cfg.MaxPairs)) > 1.25*target
}

// matchName names a match "X vs Y+P+P" ("R>A+P+P+P vs nothing" for a
// replacement) from the two sides' removes.
func matchName(first, second []string) string {
	if len(second) == 0 {
		return strings.Join(first, "+") + " vs nothing"
	}
	return strings.Join(first, "+") + " vs " + strings.Join(second, "+")
}

// plannedName names a planned match measuring piece: "P odds" and "3P
// odds" for the odds of a pawn or a set of pawns, else matchName.
func plannedName(piece string, first, second []string) string {
	if piece == "P" || setSize(piece) > 0 {
		return piece + " odds"
	}
	return matchName(first, second)
}

// Plan runs the imbalance measurement of one variant: rounds of matches
// until every piece's 95% half-width is at most its target (cfg.target), its
// match has cfg.MaxPairs pairs, or, with cfg.StopOutOfReach, the target
// is out of reach within them (outOfReach). play is called once per round; a resumed
// run calls it with the same rounds again and gets the recorded results.
func Plan(ctx context.Context, cfg PlanConfig, play PlayFunc) (*ImbalanceResult, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	pieces := append([]string{"P"}, cfg.Pieces...)
	est := map[string]float64{"P": 1}
	for _, p := range cfg.Pieces {
		est[p] = 3
		if v, ok := cfg.Start[p]; ok && v > 0 {
			est[p] = v
		}
	}
	res := &ImbalanceResult{Variant: cfg.Variant, Pieces: pieces}
	byName := map[string]*PlannedMatch{}
	current := map[string]*PlannedMatch{} // piece → its current match
	add := func(piece string, first, second []string) *PlannedMatch {
		name := plannedName(piece, first, second)
		if m := byName[name]; m != nil {
			return m
		}
		m := &PlannedMatch{ImbalanceMatch: ImbalanceMatch{Name: name, FirstRemoves: first, SecondRemoves: second}, Piece: piece}
		byName[name] = m
		res.Matches = append(res.Matches, m)
		return m
	}
	// oppOf is the material nearest x's current estimate that a match of
	// x sets against it (see sides for which side gives it up).
	oppOf := func(x string) []string { return opponent(x, est, cfg.Pieces, cfg.MaxPawns, cfg.Replace) }
	planned := func(x string, opp []string) *PlannedMatch {
		first, second := sides(x, cfg.Replace[x], opp)
		return add(x, first, second)
	}
	current["P"] = add("P", []string{"P"}, nil)
	for _, x := range cfg.Pieces {
		current[x] = planned(x, oppOf(x))
	}
	hw, val := map[string]float64{}, map[string]float64{} // the latest fit's half-widths and values
	unreachable, concluded := map[string]bool{}, map[string]bool{}
	// judge sets hw and val from the fit the stopping rule judges.
	judge := func() {
		if fit, err := fitMatches(pieces, res.Matches, 0); err == nil {
			for _, e := range cfg.judgedFit(fit, res.Matches).Estimates {
				if x := e.Piece; x != "P" && !math.IsNaN(e.SE) {
					hw[x], val[x] = stats.Z95*e.SE, e.Value
				}
			}
		}
	}
	round := 0
	var checks []*PlannedMatch
	checksPlanned := false
	for ; ; round++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Active pieces: target not reached, cap not reached, target not
		// out of reach; and the pieces replaced by an active piece (its
		// value is theirs plus a difference, so it cannot be narrower).
		active := map[string]bool{}
		for _, x := range cfg.Pieces {
			h, ok := hw[x]
			n := piecePairs(res.Matches, x)
			if ok && h <= cfg.target(val[x]) || n+cfg.BatchPairs > cfg.MaxPairs {
				continue
			}
			if ok && cfg.StopOutOfReach && outOfReach(h, cfg.target(val[x]), n, cfg) {
				unreachable[x] = true
				continue
			}
			if cfg.EndRound > 0 && round >= cfg.EndRound {
				concluded[x] = true
				continue
			}
			active[x] = true
			if y := cfg.Replace[x]; y != "" && piecePairs(res.Matches, y)+cfg.BatchPairs <= cfg.MaxPairs {
				active[y] = true
			}
		}
		var batch []PlannedMatch
		anyPiece := len(active) > 0
		for _, x := range cfg.Pieces {
			if active[x] {
				batch = append(batch, *current[x])
			}
		}
		if anyPiece && piecePairs(res.Matches, "P")+cfg.BatchPairs <= cfg.MaxPairs {
			batch = append([]PlannedMatch{*current["P"]}, batch...)
		}
		if cfg.PawnSets {
			batch = append(batch, setOddsOf(batch, res.Matches, cfg, add)...)
		}
		if !anyPiece {
			// The plan's end; with CheckPairs, the check rounds follow:
			// every check match short of its pairs plays in each. Judged
			// as reported, the checks' evidence counts: where they show
			// the matches spread more than their games allow, a piece
			// short of its target again plays on.
			for _, x := range cfg.Pieces {
				if checksPlanned || cfg.CheckPairs <= 0 {
					break
				}
				if opp := checkOpponent(x, est, cfg, res.Matches); opp != nil {
					if m := planned(x, opp); m.Pairs == 0 {
						m.Check = true
						checks = append(checks, m)
					}
				}
			}
			checksPlanned = true
			var short []PlannedMatch
			for _, m := range checks {
				if m.Pairs < cfg.CheckPairs {
					short = append(short, *m)
				}
			}
			if len(short) == 0 {
				break
			}
			if err := playRound(ctx, play, round, short, cfg, byName); err != nil {
				return nil, err
			}
			if cfg.StopOnReported {
				judge()
			}
			continue
		}
		if err := playRound(ctx, play, round, batch, cfg, byName); err != nil {
			return nil, err
		}
		// The stopping rule judges the plain or the reported fit
		// (judgedFit); the choice of opponents a slightly ridged one,
		// which stays finite when a match is all wins (a badly chosen
		// first opponent).
		judge()
		if cfg.Report != nil {
			var st []PieceStanding
			for _, x := range cfg.Pieces {
				if h, ok := hw[x]; ok {
					st = append(st, PieceStanding{Piece: x, Value: val[x], HalfWidth: h, Target: cfg.target(val[x]), Pairs: piecePairs(res.Matches, x)})
				}
			}
			cfg.Report(round, st)
		}
		// Values in pawns mean something only once the pawn's own logit
		// is clearly positive (pawn odds decided at 2 SE); until then only
		// a piece whose match is lopsided (score outside [¼, ¾] over at
		// least 20 games) moves to a new opponent.
		moved := map[string]bool{}
		if fit, err := fitMatches(pieces, res.Matches, planRidge); err == nil {
			decided := fit.Estimates[0].Logit > 2*fit.Estimates[0].LogitSE
			for _, e := range fit.Estimates {
				x := e.Piece
				if x == "P" || math.IsNaN(e.SE) || !(e.Value > 0) {
					continue
				}
				if setSize(x) > 0 {
					if decided {
						est[x] = e.Value
					}
				} else if decided || lopsided(current[x]) {
					est[x], moved[x] = e.Value, true
				}
			}
		}
		// A lopsided match whose piece the fit gave no value in pawns (the
		// pawn's own logit still near zero or below it: a value in pawns
		// is then noise of either sign) moves by its own result: the
		// piece is taken at twice its opponent's worth when the side
		// without it scored under ¼, at half when that side scored over ¾.
		for _, x := range cfg.Pieces {
			if !moved[x] && lopsided(current[x]) {
				est[x] = steppedEstimate(current[x], est, cfg.Replace[x])
			}
		}
		// Re-plan a piece whose match has drifted a pawn off its estimate.
		for _, x := range cfg.Pieces {
			opp := oppOf(x)
			if first, second := sides(x, cfg.Replace[x], opp); matchName(first, second) != current[x].Name &&
				math.Abs(oppValue(opp, est)-oppValue(matchOpponent(current[x]), est)) >= 1 {
				current[x] = add(x, first, second)
			}
		}
	}
	res.Rounds = round
	fit, err := fitMatches(pieces, res.Matches, 0)
	judged := fit // what Done is judged on: the same classes
	if err == nil {
		judged = cfg.judgedFit(fit, res.Matches)
		for _, e := range fit.Estimates[len(pieces):] {
			pieces = append(pieces, e.Piece) // the pawn sets
		}
		res.Pieces = pieces
	}
	res.Values = make([]stats.Interval, len(pieces))
	res.Done = make([]bool, len(pieces))
	if len(unreachable) > 0 {
		res.OutOfReach = make([]bool, len(pieces))
		for i, x := range pieces {
			res.OutOfReach[i] = unreachable[x]
		}
	}
	if len(concluded) > 0 {
		res.EndRound, res.Concluded = cfg.EndRound, make([]bool, len(pieces))
		for i, x := range pieces {
			res.Concluded[i] = concluded[x]
		}
	}
	for i := range pieces {
		res.Values[i] = stats.UnknownInterval()
		if err == nil && !math.IsNaN(fit.Estimates[i].SE) {
			e := fit.Estimates[i]
			res.Values[i] = imbalanceInterval(e)
			res.Done[i] = stats.Z95*judged.Estimates[i].SE <= cfg.target(e.Value)
		}
	}
	res.Fit = fit
	return res, nil
}

// playRound plays one round of the batch and adds each match's results
// to its planned match.
func playRound(ctx context.Context, play PlayFunc, round int, batch []PlannedMatch, cfg PlanConfig, byName map[string]*PlannedMatch) error {
	out, err := play(ctx, round, batch, cfg.BatchPairs)
	if err != nil {
		return err
	}
	for _, o := range out {
		m := byName[o.Name]
		if m == nil {
			return fmt.Errorf("imbalance %s round %d: result of an unplanned match %q", cfg.Variant, round, o.Name)
		}
		m.Add(o)
	}
	return nil
}

// lopsided reports whether a match is far from even: the first side's
// score is outside [¼, ¾] over at least 20 games.
func lopsided(m *PlannedMatch) bool {
	if m.Games() < 20 {
		return false
	}
	s := firstScore(m)
	return s < 0.25 || s > 0.75
}

// firstScore is the first side's mean score per game in a match.
func firstScore(m *PlannedMatch) float64 {
	return (float64(m.Wins) + float64(m.Draws)/2) / float64(m.Games())
}

// steppedEstimate is the estimate of a lopsided match's piece from the
// match alone: twice the worth of the opponent when the side without the
// piece scored under ¼ (at least what it had), half when over ¾ (at most
// what it had). For a replacement Y>X the difference X − Y is what the
// opponent is measured against, and the side without it is the second.
func steppedEstimate(m *PlannedMatch, est map[string]float64, replaced string) float64 {
	x, base := m.Piece, 0.0
	if replaced != "" {
		base = est[replaced]
	}
	cur, opp := est[x]-base, math.Max(oppValue(matchOpponent(m), est), 1)
	withoutScore := firstScore(m) // the first side, unless a replacement
	if replaced != "" {
		withoutScore = 1 - withoutScore
	}
	if withoutScore < 0.5 {
		return base + math.Max(cur, 2*opp)
	}
	return base + math.Min(cur, opp/2)
}

// piecePairs counts the pairs of all matches measuring piece x.
func piecePairs(ms []*PlannedMatch, x string) int {
	n := 0
	for _, m := range ms {
		if m.Piece == x {
			n += m.Pairs
		}
	}
	return n
}

// planRidge is the ridge of the fit that chooses opponents (never of a
// reported value): a prior of standard deviation 10 on each logit, weak
// enough to leave every match that is not a whitewash to its games (one
// round of 20 pairs carries far more), strong enough to keep a whitewash
// finite. A ridge of 1 was as strong as a round's evidence: with nine
// pieces against three pawns it pulled the pieces' logits toward zero,
// the pawn's went negative to make up for it, every value in pawns
// changed sign, and a rook whitewashing its first match kept that match
// (TestPlanLeavesWhitewashAmongManyPieces).
const planRidge = 0.01

// fitMatches fits the values of the matches played so far (pawn = 1):
// one estimate per piece of pieces, then one per measured pawn set
// (fitImbalance).
func fitMatches(pieces []string, matches []*PlannedMatch, ridge float64) (*imbalance.Result, error) {
	fit, _, err := fitImbalance(pieces, imbalanceMatches(matches), ridge)
	return fit, err
}

// imbalanceMatches are the planned matches' results.
func imbalanceMatches(matches []*PlannedMatch) []*ImbalanceMatch {
	ms := make([]*ImbalanceMatch, len(matches))
	for i, m := range matches {
		ms[i] = &m.ImbalanceMatch
	}
	return ms
}

// setOddsOf returns the odds matches of the pawn sets the batch's matches
// give up (k ≥ 2 pawns on a side), each once and within the cap,
// planning them with add when they are new (PlanConfig.PawnSets).
func setOddsOf(batch []PlannedMatch, played []*PlannedMatch, cfg PlanConfig,
	add func(piece string, first, second []string) *PlannedMatch) []PlannedMatch {
	sets := map[string][]string{} // class → its pawns
	for _, m := range batch {
		if setOdds(m.FirstRemoves, m.SecondRemoves) != "" {
			continue
		}
		for _, side := range [][]string{m.FirstRemoves, m.SecondRemoves} {
			if pawns := pawnRemoves(side); len(pawns) >= 2 {
				sets[setClass(pawns)] = pawns
			}
		}
	}
	var out []PlannedMatch
	for _, class := range slices.Sorted(maps.Keys(sets)) {
		if piecePairs(played, class)+cfg.BatchPairs <= cfg.MaxPairs {
			out = append(out, *add(class, sets[class], nil))
		}
	}
	return out
}
