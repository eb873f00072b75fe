// Package paired compares two players by the matches each played against
// the same opponent on the same openings, opening by opening.
//
// A match's score has a wide interval (a few hundred games give ±0.05),
// but two players' games on the same openings share much of their luck:
// an opening that favours the opponent does so in both matches. The
// difference taken pair by pair (an opening played with both colours) is
// therefore the honest comparison of the two players, and the one the
// "minus the shipped engine's" figures of docs/strength.md are.
package paired

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"gonum.org/v1/gonum/stat"

	"tamerlane/internal/fsx"
	"tamerlane/internal/stats"
	"tamerlane/selfplay"
	"tamerlane/selfplay/elo"
)

// Definition says what a Report's figures are.
const Definition = "a pair is an opening played with both colours; its score is the mean over its finished games of the stream's first player's result (1, 1/2, 0); " +
	"the pairs of A and B are matched by stream and opening (the FEN of the pair's first game), in the order they were played; " +
	"scores are means over the matched pairs and the difference is A's minus B's, each with a normal 95% interval from the pairs' spread; " +
	"the Elo difference is Elo(A's score) − Elo(B's score), logistic, with the delta-method interval of the two paired means"

// Comparison is the comparison over one stream (or all of them).
type Comparison struct {
	// Stream is the stream's name ("" for the total).
	Stream string `json:"stream"`
	// Pairs is the number of matched pairs; OnlyA and OnlyB count the
	// pairs of one side without a partner (another opening, or not yet
	// played).
	Pairs int `json:"pairs"`
	OnlyA int `json:"only_a"`
	OnlyB int `json:"only_b"`
	// ScoreA and ScoreB are the first player's mean score per game on the
	// matched pairs; Diff is ScoreA − ScoreB, from the pairs' differences.
	ScoreA stats.Interval `json:"score_a"`
	ScoreB stats.Interval `json:"score_b"`
	Diff   stats.Interval `json:"difference"`
	// EloDiff is Elo(ScoreA) − Elo(ScoreB) (logistic), with the
	// delta-method interval of the two correlated means (unknown when a
	// score is 0 or 1, or with fewer than two pairs).
	EloDiff stats.Interval `json:"elo_difference"`
}

// Report is the comparison of the runs A with the runs B.
type Report struct {
	// Definition says what the figures are (the package's Definition).
	Definition string `json:"definition"`
	// A and B are the run directories of each side.
	A []string `json:"a"`
	B []string `json:"b"`
	// Streams are the comparisons stream by stream, in the order the
	// streams first appear in A's runs and then B's; Total is over every
	// matched pair of all of them.
	Streams []Comparison `json:"streams"`
	Total   Comparison   `json:"total"`
}

// pairScore is one pair's score for its stream's first player.
type pairScore struct {
	stream, opening string
	score           float64 // the mean over its games, once read
}

// Compare compares the self-play run directories a (the first player of
// their streams is player A) with b, stream by stream, reading their
// journals (a run still playing is read as far as it has got).
func Compare(a, b []string) (*Report, error) {
	if len(a) == 0 || len(b) == 0 {
		return nil, fmt.Errorf("paired: both sides need at least one run directory")
	}
	pa, err := readPairs(a)
	if err != nil {
		return nil, err
	}
	pb, err := readPairs(b)
	if err != nil {
		return nil, err
	}
	r := &Report{Definition: Definition, A: a, B: b}
	var streams []string
	for _, p := range append(slices.Clone(pa), pb...) {
		if !slices.Contains(streams, p.stream) {
			streams = append(streams, p.stream)
		}
	}
	var all [3][]float64 // A's scores, B's scores, differences
	for _, st := range streams {
		c, xs := match(st, pa, pb)
		r.Streams = append(r.Streams, c)
		r.Total.OnlyA += c.OnlyA
		r.Total.OnlyB += c.OnlyB
		for k := range all {
			all[k] = append(all[k], xs[k]...)
		}
	}
	r.Total.fill(all)
	return r, nil
}

// match pairs the pairs of one stream by opening, in order of play, and
// returns the comparison and its matched scores (A's, B's, differences).
func match(stream string, pa, pb []pairScore) (Comparison, [3][]float64) {
	c := Comparison{Stream: stream}
	queue := map[string][]float64{} // B's unmatched scores by opening
	for _, p := range pb {
		if p.stream == stream {
			queue[p.opening] = append(queue[p.opening], p.score)
		}
	}
	var xs [3][]float64
	for _, p := range pa {
		if p.stream != stream {
			continue
		}
		q := queue[p.opening]
		if len(q) == 0 {
			c.OnlyA++
			continue
		}
		queue[p.opening] = q[1:]
		xs[0], xs[1], xs[2] = append(xs[0], p.score), append(xs[1], q[0]), append(xs[2], p.score-q[0])
	}
	for _, q := range queue {
		c.OnlyB += len(q)
	}
	c.fill(xs)
	return c, xs
}

// fill sets the pair count, scores and difference from the matched
// scores.
func (c *Comparison) fill(xs [3][]float64) {
	c.Pairs = len(xs[2])
	c.ScoreA, c.ScoreB, c.Diff = stats.MeanInterval(xs[0]), stats.MeanInterval(xs[1]), stats.MeanInterval(xs[2])
	c.EloDiff = eloDifference(xs[0], xs[1])
}

// eloDifference is Elo(mean a) − Elo(mean b) for paired scores a and b,
// with the delta-method standard error: the gradient (f'(m_a), −f'(m_b)),
// f'(m) = 400/(ln 10 · m(1 − m)), applied to the covariance of the two
// means.
func eloDifference(a, b []float64) stats.Interval {
	n := float64(len(a))
	if len(a) < 2 || len(a) != len(b) {
		return stats.UnknownInterval()
	}
	ma, mb := stat.Mean(a, nil), stat.Mean(b, nil)
	if ma <= 0 || ma >= 1 || mb <= 0 || mb >= 1 {
		return stats.UnknownInterval()
	}
	slope := func(m float64) float64 { return 400 / (math.Ln10 * m * (1 - m)) }
	ga, gb := slope(ma), -slope(mb)
	v := (ga*ga*stat.Variance(a, nil) + gb*gb*stat.Variance(b, nil) + 2*ga*gb*stat.Covariance(a, b, nil)) / n
	return stats.NewInterval(elo.ScoreToElo(ma)-elo.ScoreToElo(mb), math.Sqrt(math.Max(0, v)))
}

// checkMatchRun refuses, by what it is, a run directory of another kind
// than the match runs Compare reads (its config.yaml is not one it can
// read: a pipeline's gave "config.yaml:1: name: unknown field").
func checkMatchRun(dir string) error {
	kind, err := fsx.DirKind(dir)
	if err != nil || kind == "" || kind == fsx.KindSelfplay {
		return err // an unmarked directory: reading its journals says what is missing
	}
	hint := ""
	if kind == fsx.KindPipeline {
		hint = "; a pipeline's verification matches are its " + filepath.Join(dir, "gen-NNN", "match", "VARIANT") + " directories"
	}
	return fmt.Errorf("paired: %s is a %s run directory (%s), not a match run: give the directories of match runs (run.json, as tamerlane match -o writes them)%s",
		dir, kind, fsx.Marker(kind), hint)
}

// readPairs returns the scored pairs of the runs, run by run, each run's
// streams in its config's order and pairs in the order they finished.
func readPairs(dirs []string) ([]pairScore, error) {
	var out []pairScore
	for _, dir := range dirs {
		if err := checkMatchRun(dir); err != nil {
			return nil, err
		}
		type key struct {
			stream string
			pair   int
		}
		idx := map[key]int{}   // the pair's index in out
		games := map[key]int{} // its finished games
		for g, err := range selfplay.Games(dir) {
			if err != nil {
				return nil, fmt.Errorf("paired: %s: %w", dir, err)
			}
			w, ok := g.FirstPlayer()
			if !ok {
				continue
			}
			k := key{g.Stream, g.Pair}
			i, seen := idx[k]
			if !seen {
				i = len(out)
				idx[k] = i
				out = append(out, pairScore{stream: g.Stream, opening: g.FEN})
			}
			games[k]++
			out[i].score += float64(w.Wins) + float64(w.Draws)/2
		}
		for k, i := range idx {
			out[i].score /= float64(games[k])
		}
	}
	return out, nil
}
