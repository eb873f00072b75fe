package values

import (
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"

	"tamerlane/internal/stats"
)

// worthOf is Σ_k d_k·v_k.
func worthOf(d, v []float64) float64 {
	x := 0.0
	for k := range d {
		if d[k] != 0 {
			x += d[k] * v[k]
		}
	}
	return x
}

// scoredNote is an error of ScoreDifferences as a note of the document:
// "scored differences: ..." once, without the package's prefix.
func scoredNote(msg string) string {
	msg = strings.TrimPrefix(msg, "values: ")
	if !strings.HasPrefix(msg, "scored differences") {
		msg = "scored differences: " + msg
	}
	return msg
}

// hasPiece reports whether a difference has a class other than the pawn.
func hasPiece(d []float64) bool {
	return slices.ContainsFunc(d[1:], func(x float64) bool { return x != 0 })
}

// orient returns the worth of difference d by the values worth and the
// sign that makes it positive (+1 or −1); a difference of worth 0 is
// oriented by its first non-zero class, and NaN is returned for a
// difference of an unidentified class or none at all.
func orient(d, worth []float64) (float64, float64) {
	w := 0.0
	first := 0.0
	for k, x := range d {
		if x == 0 {
			continue
		}
		if first == 0 {
			first = x
		}
		w += x * worth[k]
	}
	switch {
	case first == 0 || math.IsNaN(w):
		return math.NaN(), 1
	case w < 0 || (w == 0 && first < 0):
		return -w, -1
	}
	return w, 1
}

// differenceName writes a difference as "N vs P+P+P": the side ahead's
// extra pieces, then the other side's ("–" for none), the pieces in
// reverse class order, the pawns and then the pairs last.
func differenceName(names []string, d []float64) string {
	var order []int
	for k := len(names) - 1; k >= 0; k-- {
		if !strings.HasPrefix(names[k], "pair.") {
			order = append(order, k)
		}
	}
	for k, n := range names {
		if strings.HasPrefix(n, "pair.") {
			order = append(order, k)
		}
	}
	side := func(sign float64) string {
		var parts []string
		for _, k := range order {
			for range int(math.Max(0, sign*d[k])) {
				parts = append(parts, names[k])
			}
		}
		if len(parts) == 0 {
			return "–"
		}
		return strings.Join(parts, "+")
	}
	return side(1) + " vs " + side(-1)
}

// column is column i of rows (NaN where a row is shorter).
func column(rows [][]float64, i int) []float64 {
	xs := make([]float64, len(rows))
	for k, r := range rows {
		xs[k] = math.NaN()
		if i < len(r) {
			xs[k] = r[i]
		}
	}
	return xs
}

// bootstrapInterval is the estimate v with the percentile interval of its
// replicates, column i of rows (stats.BootstrapInterval).
func bootstrapInterval(v float64, rows [][]float64, i int) stats.Interval {
	return stats.BootstrapInterval(v, column(rows, i))
}

// finiteSD is the standard deviation of column i of rows over the rows
// where it is finite (NaN with fewer than two).
func finiteSD(rows [][]float64, i int) float64 {
	var xs []float64
	for _, r := range rows {
		if i < len(r) && !math.IsNaN(r[i]) && !math.IsInf(r[i], 0) {
			xs = append(xs, r[i])
		}
	}
	if len(xs) < 2 {
		return math.NaN()
	}
	_, sd := stat.MeanStdDev(xs, nil)
	return sd
}
