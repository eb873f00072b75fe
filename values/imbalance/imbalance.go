// Package imbalance fits piece values to the results of material-imbalance
// matches, following H.G. Muller's method: play many games from positions
// where one side lacks some pieces and the other side lacks others, with
// colours alternated, and read piece values off the scores.
//
// # Model
//
// A match m has a material difference vector d_m (for each piece type, how
// many more of it the first player has than the second) and W/D/L totals
// from the first player's view. The expected score of one game is modelled
// as
//
//	p_m = 1 / (1 + exp(−Σ_j β_j·d_mj))
//
// i.e. v_j = s·β_j for piece values v_j and a logistic scale s. There is no
// intercept: colours are alternated, so the first-move advantage cancels.
//
// # Fit
//
// β is fitted by maximising the binomial quasi-likelihood in which a draw
// counts as half a win and half a loss,
//
//	ℓ(β) = Σ_m [S_m·ln p_m + (n_m − S_m)·ln(1 − p_m)],  S_m = W_m + D_m/2,
//
// with gonum's Newton method on the analytic gradient and Hessian. The
// covariance is φ·I⁻¹ with Fisher information I = Σ_m n_m·p_m(1−p_m)·d_m·d_mᵀ
// (pseudo-inverted with gonum/mat; directions the matches do not identify
// give NaN) and dispersion φ, by default the Pearson estimate
//
//	φ̂ = Σ_m [W_m(1−p_m)² + D_m(½−p_m)² + L_m·p_m²] / (p_m(1−p_m)) / (G − k)
//
// over G games and k identified parameters. Draws make the per-game score
// variance smaller than p(1−p), so typically φ̂ < 1.
//
// # Normalisation
//
// The scale s is not identified, so values are reported as ratios to a
// reference piece, v_j = RefValue·β_j/β_ref (e.g. Pawn = 1), with
// delta-method standard errors and normal-approximation intervals. The
// delta method is reliable only when β_ref is many standard errors away
// from zero.
package imbalance

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"tamerlane/internal/stats"
)

// Match is the aggregated result of one imbalance match.
type Match struct {
	// Name is an optional label such as "N vs PPP".
	Name string
	// Diff holds, per piece type (in the order of the pieces passed to
	// Fit), the count the first player has minus the count the second
	// player has.
	Diff []float64
	// Wins, Draws and Losses are game totals from the first player's view
	// (colours already alternated). Fractional totals are allowed.
	Wins, Draws, Losses float64
}

// Games returns the number of games of the match.
func (m Match) Games() float64 { return m.Wins + m.Draws + m.Losses }

// PieceOf returns the piece a remove takes away: the token itself, or
// the token before "@" of a remove that also names the file ("P@d": a
// pawn), or before ">" of a replacement ("R>A": a rook, replaced by an
// eagle; see Added).
func PieceOf(remove string) string {
	p, _, _ := strings.Cut(remove, ">")
	p, _, _ = strings.Cut(p, "@")
	return p
}

// Added returns the piece a replacement "Y>X" (or "Y@f>X") puts in the
// place of the removed one, X, or "" for a plain remove. A replacement
// measures a piece the array does not have (one that appears only by
// promotion): the side lacks Y and has an extra X.
func Added(remove string) string {
	_, x, _ := strings.Cut(remove, ">")
	return x
}

// PiecesOf returns the distinct pieces the removes of the lists name
// (PieceOf and Added of each), in order of first appearance.
func PiecesOf(lists ...[]string) []string {
	var out []string
	for _, list := range lists {
		for _, tok := range list {
			for _, p := range []string{PieceOf(tok), Added(tok)} {
				if p != "" && !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// DiffFromRemoved builds a difference vector from the pieces removed from
// each side's normal array: a piece removed from the first player counts
// −1, one removed from the second player +1, and a piece a replacement
// adds (Added) the opposite. Piece names (PieceOf and Added of the
// removes) must be in pieces; a name may repeat.
func DiffFromRemoved(pieces []string, removedFirst, removedSecond []string) ([]float64, error) {
	d := make([]float64, len(pieces))
	for side, list := range [2][]string{removedFirst, removedSecond} {
		sign := float64(2*side - 1) // −1 for the first player, +1 for the second
		for _, tok := range list {
			p := PieceOf(tok)
			j := slices.Index(pieces, p)
			if j < 0 {
				return nil, fmt.Errorf("imbalance: unknown piece %q", p)
			}
			d[j] += sign
			if x := Added(tok); x != "" {
				k := slices.Index(pieces, x)
				if k < 0 {
					return nil, fmt.Errorf("imbalance: unknown piece %q", x)
				}
				d[k] -= sign
			}
		}
	}
	return d, nil
}

// DispersionMode selects how the dispersion φ is set.
type DispersionMode int

const (
	// Pearson estimates φ from the W/D/L spread (quasi-likelihood).
	Pearson DispersionMode = iota
	// Binomial fixes φ = 1, as if every game were won or lost. With draws
	// this overstates the standard errors.
	Binomial
)

// Options control Fit.
type Options struct {
	// Reference names the piece whose value is fixed to RefValue. Required.
	Reference string
	// RefValue is the value given to the reference piece; zero means 1.
	RefValue float64
	// Level is the confidence level of the intervals; zero means 0.95.
	Level float64
	// Dispersion selects the dispersion estimate.
	Dispersion DispersionMode
	// Ridge adds (Ridge/2)·Σβ_j² to the negative log-likelihood, which
	// keeps the fit finite when a match is all wins or all losses. Zero
	// (the default) is the plain quasi-likelihood.
	Ridge float64
}

// Estimate is the fitted value of one piece.
type Estimate struct {
	// Piece is the piece name as passed to Fit.
	Piece string
	// Logit is β_j, the change in log-odds of the first player's score per
	// unit of this piece, and LogitSE its standard error.
	Logit, LogitSE float64
	// Value is RefValue·β_j/β_ref, SE its delta-method standard error
	// (0 for the reference, NaN when not identified), and [Lo, Hi] the
	// confidence interval Value ± z·SE.
	Value, SE, Lo, Hi float64
}

// Result is the outcome of Fit.
type Result struct {
	Estimates []Estimate // one per piece, in input order
	// Cov is the covariance matrix of β (rows and columns of unidentified
	// pieces are NaN).
	Cov *mat.SymDense
	// Dispersion is φ used in Cov.
	Dispersion float64
	// Scale is s = RefValue/β_ref: the logistic scale in value units, i.e.
	// p = 1/(1 + exp(−Σ v_j·d_j / s)).
	Scale float64
	// LogLik is the maximised quasi-log-likelihood.
	LogLik float64
	// Games is the total number of games.
	Games float64
	// Iterations is the number of Newton iterations.
	Iterations int
	// Status is gonum's termination status.
	Status optimize.Status
	// Consistency tests the additive model against the matches
	// (consistency.go).
	Consistency *Consistency
}

// Fit fits piece values to imbalance matches; see the package
// documentation for the model.
func Fit(pieces []string, matches []Match, opt Options) (*Result, error) {
	k := len(pieces)
	if k == 0 {
		return nil, errors.New("imbalance: no pieces")
	}
	ref := slices.Index(pieces, opt.Reference)
	if ref < 0 {
		return nil, fmt.Errorf("imbalance: reference piece %q not among the pieces", opt.Reference)
	}
	refValue := opt.RefValue
	if refValue == 0 {
		refValue = 1
	}
	level := opt.Level
	if level == 0 {
		level = 0.95
	}
	if !(level > 0 && level < 1) {
		return nil, fmt.Errorf("imbalance: level %v outside (0, 1)", level)
	}
	if opt.Ridge < 0 {
		return nil, fmt.Errorf("imbalance: negative ridge %v", opt.Ridge)
	}
	games := 0.0
	for i, m := range matches {
		if len(m.Diff) != k {
			return nil, fmt.Errorf("imbalance: match %d (%s): %d differences for %d pieces", i, m.Name, len(m.Diff), k)
		}
		if m.Wins < 0 || m.Draws < 0 || m.Losses < 0 {
			return nil, fmt.Errorf("imbalance: match %d (%s): negative game count", i, m.Name)
		}
		games += m.Games()
	}
	if games == 0 {
		return nil, errors.New("imbalance: no games")
	}

	// Objective: negative quasi-log-likelihood per game (for conditioning).
	nll := func(beta []float64) float64 {
		s := 0.0
		for _, m := range matches {
			z := dot(beta, m.Diff)
			// −[S ln σ(z) + (n−S) ln σ(−z)] = S·stats.Softplus(−z) + (n−S)·stats.Softplus(z)
			sc := m.Wins + m.Draws/2
			s += sc*stats.Softplus(-z) + (m.Games()-sc)*stats.Softplus(z)
		}
		return (s + opt.Ridge/2*dot(beta, beta)) / games
	}
	grad := func(g, beta []float64) {
		for j := range g {
			g[j] = opt.Ridge * beta[j]
		}
		for _, m := range matches {
			p := stats.Logistic(dot(beta, m.Diff))
			r := m.Games()*p - (m.Wins + m.Draws/2)
			for j, d := range m.Diff {
				g[j] += r * d
			}
		}
		for j := range g {
			g[j] /= games
		}
	}
	hess := func(h *mat.SymDense, beta []float64) {
		info := fisher(matches, beta, k)
		for i := range k {
			info.SetSym(i, i, info.At(i, i)+opt.Ridge)
		}
		h.ScaleSym(1/games, info)
	}
	prob := optimize.Problem{Func: nll, Grad: grad, Hess: hess}
	beta0 := make([]float64, k)
	f0 := nll(beta0)
	settings := &optimize.Settings{
		GradientThreshold: 1e-12,
		MajorIterations:   200,
		Converger:         &optimize.FunctionConverge{Relative: 1e-14, Iterations: 3},
	}
	out, err := optimize.Minimize(prob, beta0, settings, &optimize.Newton{})
	if out == nil {
		return nil, fmt.Errorf("imbalance: %w", err)
	}
	if ok, _ := stats.Converged(out.Status, err, f0, out.F); !ok {
		return nil, fmt.Errorf("imbalance: fit failed (status %v): %v", out.Status, err)
	}
	beta := out.X
	res := &Result{
		Games:      games,
		Iterations: out.MajorIterations,
		Status:     out.Status,
		LogLik:     -(out.F*games - opt.Ridge/2*dot(beta, beta)),
	}

	info := fisher(matches, beta, k)
	for i := range k {
		info.SetSym(i, i, info.At(i, i)+opt.Ridge)
	}
	inv, ident, err := stats.PinvSym(info)
	if err != nil {
		return nil, err
	}
	nIdent := 0
	for _, ok := range ident {
		if ok {
			nIdent++
		}
	}
	phi := 1.0
	if opt.Dispersion == Pearson {
		x2 := 0.0
		for _, m := range matches {
			p := stats.Logistic(dot(beta, m.Diff))
			v := p * (1 - p)
			if v == 0 {
				continue
			}
			x2 += (m.Wins*(1-p)*(1-p) + m.Draws*(0.5-p)*(0.5-p) + m.Losses*p*p) / v
		}
		dof := games - float64(nIdent)
		if dof <= 0 {
			return nil, fmt.Errorf("imbalance: %v games leave no degrees of freedom for %d parameters", games, nIdent)
		}
		phi = x2 / dof
	}
	res.Dispersion = phi
	cov := mat.NewSymDense(k, nil)
	cov.ScaleSym(phi, inv)
	for i := range k {
		if !ident[i] {
			for j := range k {
				cov.SetSym(i, j, math.NaN())
			}
		}
	}
	res.Cov = cov
	// The leverages need the information without ridge; without one it
	// is the one inverted above.
	inv0 := inv
	if opt.Ridge != 0 {
		if inv0, _, err = stats.PinvSym(fisher(matches, beta, k)); err != nil {
			return nil, err
		}
	}
	res.Consistency = consistency(matches, beta, inv0)

	z := stats.Z(level)
	br := beta[ref]
	res.Scale = refValue / br
	for j, name := range pieces {
		est := Estimate{Piece: name, Logit: beta[j], LogitSE: math.Sqrt(cov.At(j, j))}
		est.Value = refValue * beta[j] / br
		if j == ref {
			est.SE = 0
		} else {
			// ∇(RefValue·β_j/β_ref) = RefValue·(e_j/β_ref − β_j·e_ref/β_ref²)
			gj, gr := refValue/br, -refValue*beta[j]/(br*br)
			v := gj*gj*cov.At(j, j) + 2*gj*gr*cov.At(j, ref) + gr*gr*cov.At(ref, ref)
			est.SE = math.Sqrt(v)
		}
		est.Lo, est.Hi = est.Value-z*est.SE, est.Value+z*est.SE
		res.Estimates = append(res.Estimates, est)
	}
	return res, nil
}

// fisher returns Σ_m n_m·p_m(1−p_m)·d_m·d_mᵀ.
func fisher(matches []Match, beta []float64, k int) *mat.SymDense {
	info := mat.NewSymDense(k, nil)
	for _, m := range matches {
		p := stats.Logistic(dot(beta, m.Diff))
		info.SymRankOne(info, m.Games()*p*(1-p), mat.NewVecDense(k, slices.Clone(m.Diff)))
	}
	return info
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, x := range a {
		s += x * b[i]
	}
	return s
}
