package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Interval is an estimate with its 95% confidence interval [Lo, Hi] and
// its standard error SE. It is the one interval type of the project: match
// scores (summary.json), Texel and imbalance piece values (report.json)
// and measured piece values (values.json) all use it. An unknown figure is
// NaN and encodes as JSON null.
//
// Its JSON form is {"value", "lo", "hi", "se"}. UnmarshalJSON also reads
// the field names of earlier files ({"mean", "low", "high"} of the match
// scores in summary.json and report.json written before the types were
// merged); a missing field reads as NaN.
type Interval struct {
	Value Float `json:"value"`
	Lo    Float `json:"lo"`
	Hi    Float `json:"hi"`
	SE    Float `json:"se"`
}

// NewInterval returns the normal 95% interval v ± Z95·se.
func NewInterval(v, se float64) Interval {
	return Interval{Float(v), Float(v - Z95*se), Float(v + Z95*se), Float(se)}
}

// UnknownInterval returns the interval whose every figure is unknown
// (NaN).
func UnknownInterval() Interval {
	nan := Float(math.NaN())
	return Interval{nan, nan, nan, nan}
}

// Clip returns the interval with its bounds clipped to [lo, hi] (a score
// lies in [0, 1]).
func (iv Interval) Clip(lo, hi float64) Interval {
	iv.Lo = Float(math.Max(lo, float64(iv.Lo)))
	iv.Hi = Float(math.Min(hi, float64(iv.Hi)))
	return iv
}

// Format prints "3.12 [2.90, 3.34]" with prec decimals, only the value
// when a bound is unknown, and "–" when the value is.
func (iv Interval) Format(prec int) string {
	v := iv.Value.Format(prec)
	if !finite(float64(iv.Value)) || !finite(float64(iv.Lo)) || !finite(float64(iv.Hi)) {
		return v
	}
	return fmt.Sprintf("%s [%s, %s]", v, iv.Lo.Format(prec), iv.Hi.Format(prec))
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// UnmarshalJSON implements json.Unmarshaler. It reads the current field
// names and the earlier ones (mean, low, high); when both are present the
// current ones win. null leaves the interval unchanged.
func (iv *Interval) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var raw struct {
		Value *Float `json:"value"`
		Lo    *Float `json:"lo"`
		Hi    *Float `json:"hi"`
		SE    *Float `json:"se"`
		Mean  *Float `json:"mean"`
		Low   *Float `json:"low"`
		High  *Float `json:"high"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("interval: %w", err)
	}
	pick := func(a, b *Float) Float {
		switch {
		case a != nil:
			return *a
		case b != nil:
			return *b
		}
		return Float(math.NaN())
	}
	*iv = Interval{pick(raw.Value, raw.Mean), pick(raw.Lo, raw.Low), pick(raw.Hi, raw.High), pick(raw.SE, nil)}
	return nil
}

// Covers reports whether x lies in [Lo, Hi] (false when a bound is
// unknown).
func (iv Interval) Covers(x float64) bool {
	return float64(iv.Lo) <= x && x <= float64(iv.Hi)
}

// MeanInterval is the mean of xs with its normal 95% interval, the
// standard error being the sample standard deviation over √n (unknown
// for fewer than two values).
func MeanInterval(xs []float64) Interval {
	if len(xs) < 2 {
		return UnknownInterval()
	}
	m, sd := stat.MeanStdDev(xs, nil)
	return NewInterval(m, sd/math.Sqrt(float64(len(xs))))
}

// MinPercentileReplicates is the number of finite bootstrap replicates
// below which BootstrapInterval falls back to the normal interval: with
// fewer, a 2.5% tail holds no replicate.
const MinPercentileReplicates = 40

// BootstrapInterval is the estimate v with the 95% percentile interval of
// its bootstrap replicates (their 2.5% and 97.5% empirical quantiles) and
// their standard deviation as its SE. NaN and infinite replicates are left
// out; with fewer than MinPercentileReplicates finite ones the interval is
// the normal v ± Z95·SD, and with fewer than two it is unknown. A percentile
// interval follows a skewed estimator, such as a ratio whose denominator
// is noisy, where the normal interval is symmetric by construction.
func BootstrapInterval(v float64, reps []float64) Interval {
	xs := make([]float64, 0, len(reps))
	for _, x := range reps {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			xs = append(xs, x)
		}
	}
	if len(xs) < 2 {
		iv := UnknownInterval()
		iv.Value = Float(v)
		return iv
	}
	_, sd := stat.MeanStdDev(xs, nil)
	if len(xs) < MinPercentileReplicates {
		return NewInterval(v, sd)
	}
	slices.Sort(xs)
	lo := stat.Quantile(0.025, stat.Empirical, xs, nil)
	hi := stat.Quantile(0.975, stat.Empirical, xs, nil)
	return Interval{Float(v), Float(lo), Float(hi), Float(sd)}
}
