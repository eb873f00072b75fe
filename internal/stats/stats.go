// Package stats is the project's one home for the statistics helpers the
// tuner, the imbalance fit, the piece-value regression, the match
// summaries and the pipeline report share: the logistic function and
// softplus, normal quantiles, the pseudo-inverse of a covariance-like
// matrix, the clustered sandwich covariance, the convergence rule of a
// numerical optimisation, and JSON numbers that carry NaN as null (Float
// at full precision, Float4 rounded to 4 decimals).
package stats

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat/distuv"
)

// Z95 is the two-sided 95% standard normal quantile, Φ⁻¹(0.975): a 95%
// normal interval is estimate ± Z95·SE.
const Z95 = 1.959963984540054

// Z returns the two-sided standard normal quantile of a confidence level
// in (0, 1): Φ⁻¹(0.5 + level/2) (Z(0.95) = Z95).
func Z(level float64) float64 { return distuv.UnitNormal.Quantile(0.5 + level/2) }

// PinvRTol is the relative eigenvalue threshold of PinvSym: directions
// with eigenvalues at or below PinvRTol·λ_max are treated as null.
const PinvRTol = 1e-10

// identTol bounds the squared projection of a coordinate on the null
// directions for it to count as identified.
const identTol = 1e-6

// PinvSym returns the Moore–Penrose pseudo-inverse of the symmetric
// positive semi-definite matrix a, treating eigenvalues at or below
// PinvRTol·λ_max as zero, and reports which coordinates are identified:
// coordinate i is not when its squared projection on the discarded
// eigenvectors exceeds 1e-6.
func PinvSym(a *mat.SymDense) (*mat.SymDense, []bool, error) {
	n := a.SymmetricDim()
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		return nil, nil, errors.New("stats: eigendecomposition failed")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	lmax := 0.0
	for _, v := range vals {
		lmax = math.Max(lmax, v)
	}
	keep := func(v float64) bool { return lmax > 0 && v > PinvRTol*lmax }
	var kept []int
	for k, v := range vals {
		if keep(v) {
			kept = append(kept, k)
		}
	}
	scaled := mat.NewDense(n, max(len(kept), 1), nil)
	for c, k := range kept {
		s := 1 / math.Sqrt(vals[k])
		for i := range n {
			scaled.Set(i, c, vecs.At(i, k)*s)
		}
	}
	inv := mat.NewSymDense(n, nil)
	if len(kept) > 0 {
		inv.SymOuterK(1, scaled)
	}
	ident := make([]bool, n)
	for i := range n {
		null := 0.0
		for k, v := range vals {
			if !keep(v) {
				x := vecs.At(i, k)
				null += x * x
			}
		}
		ident[i] = null <= identTol
	}
	return inv, ident, nil
}

// Converged decides whether a gonum optimisation converged, given its
// status and error, the objective f0 at the start and the best f found.
//
// Normal terminations (Success, FunctionThreshold, FunctionConvergence,
// GradientThreshold, StepConvergence, MethodConverge) converge. A line
// search failure or an iteration, evaluation or runtime limit also counts
// as converged when it still lowered the objective (f < f0): on a smooth,
// nearly flat optimum the line search typically fails only because it can
// no longer resolve a decrease in floating point. A line search that made
// no progress at all (f == f0) is also accepted, as that happens when
// starting at the optimum. Anything else, or a non-finite f, is an error.
func Converged(status optimize.Status, err error, f0, f float64) (bool, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false, fmt.Errorf("non-finite objective %v (status %v): %w", f, status, errOr(err, status))
	}
	switch status {
	case optimize.Success, optimize.FunctionThreshold, optimize.FunctionConvergence,
		optimize.GradientThreshold, optimize.StepConvergence, optimize.MethodConverge:
		if err == nil {
			return true, nil
		}
	case optimize.NotTerminated, optimize.FunctionNegativeInfinity:
		return false, fmt.Errorf("optimisation ended with status %v: %w", status, errOr(err, status))
	}
	if f < f0 {
		return true, nil
	}
	if f == f0 && (errors.Is(err, optimize.ErrNoProgress) || errors.Is(err, optimize.ErrLinesearcherFailure)) {
		return true, nil
	}
	return false, fmt.Errorf("optimisation made no progress (status %v): %w", status, errOr(err, status))
}

func errOr(err error, s optimize.Status) error {
	if err != nil {
		return err
	}
	if e := s.Err(); e != nil {
		return e
	}
	return errors.New(s.String())
}

// Float is a float64 that encodes to JSON at full precision, and as null
// when it is NaN or infinite (which JSON cannot hold); null decodes to
// NaN. Fitted values use it, so that they read back bit for bit.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) { return marshal(float64(f), -1) }

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	x, err := unmarshal(b)
	*f = Float(x)
	return err
}

// Format formats the number with prec decimals, or "–" when it is NaN or
// infinite, as the reports print an unknown figure.
func (f Float) Format(prec int) string { return Format(float64(f), prec) }

// Float4 is a float64 that encodes to JSON rounded to 4 decimals (and
// never as "-0"), and as null when NaN or infinite; null decodes to NaN.
// Summaries use it, so that equal runs write byte-identical files that
// stay readable.
type Float4 float64

// MarshalJSON implements json.Marshaler.
func (f Float4) MarshalJSON() ([]byte, error) { return marshal(float64(f), 4) }

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float4) UnmarshalJSON(b []byte) error {
	x, err := unmarshal(b)
	*f = Float4(x)
	return err
}

// Format formats the number with prec decimals, or "–" when it is NaN or
// infinite.
func (f Float4) Format(prec int) string { return Format(float64(f), prec) }

// Format formats x with prec decimals, or "–" when it is NaN or infinite.
func Format(x float64, prec int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

// marshal encodes x as a JSON number rounded to decimals (-1: exact), or
// null.
func marshal(x float64, decimals int) ([]byte, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	if decimals < 0 {
		return json.Marshal(x)
	}
	p := math.Pow10(decimals)
	x = math.Round(x*p) / p
	if x == 0 {
		x = 0 // no "-0"
	}
	return strconv.AppendFloat(nil, x, 'f', -1, 64), nil
}

func unmarshal(b []byte) (float64, error) {
	if string(b) == "null" {
		return math.NaN(), nil
	}
	return strconv.ParseFloat(string(b), 64)
}
