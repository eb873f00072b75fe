package values

import (
	"slices"

	"tamerlane/values/imbalance"
)

// ImbalanceMatch is the result of an imbalance match (one stream, or the
// sum of a planned match's rounds): the first side lacks FirstRemoves,
// the second SecondRemoves; Wins, Draws and Losses are the first side's.
type ImbalanceMatch struct {
	Name          string   `json:"name"`
	FirstRemoves  []string `json:"first_removes"`
	SecondRemoves []string `json:"second_removes"`
	Pairs         int      `json:"pairs"`
	Wins          int      `json:"wins"`
	Draws         int      `json:"draws"`
	Losses        int      `json:"losses"`
	// Resigned counts the games that resign adjudication ended
	// (selfplay.AdjudicationConfig): results our engine's scores decided.
	Resigned int `json:"resigned,omitempty"`
	// Pentanomial counts the pairs by the first side's points over the
	// pair (0, ½, 1, 1½, 2), as selfplay's summaries do; nil when some
	// of the games were read without their pairs (a run in progress).
	Pentanomial []int `json:"pentanomial,omitempty"`
}

// Games returns the number of games played.
func (m *ImbalanceMatch) Games() int { return m.Wins + m.Draws + m.Losses }

// Add adds the pairs and results of another round of the same match.
// The sum has a pentanomial only when both have one (or the match had
// no game yet).
func (m *ImbalanceMatch) Add(o ImbalanceMatch) {
	switch {
	case m.Games() == 0 && m.Pentanomial == nil:
		m.Pentanomial = slices.Clone(o.Pentanomial)
	case m.Pentanomial == nil || o.Pentanomial == nil:
		m.Pentanomial = nil
	default:
		for i := range m.Pentanomial {
			m.Pentanomial[i] += o.Pentanomial[i]
		}
	}
	m.Pairs += o.Pairs
	m.Wins += o.Wins
	m.Draws += o.Draws
	m.Losses += o.Losses
	m.Resigned += o.Resigned
}

// Fitted returns the match as the imbalance fit reads it: the material
// difference over pieces (what the second side lacks counts for the first).
func (m *ImbalanceMatch) Fitted(pieces []string) (imbalance.Match, error) {
	d, err := imbalance.DiffFromRemoved(pieces, m.FirstRemoves, m.SecondRemoves)
	if err != nil {
		return imbalance.Match{}, err
	}
	return imbalance.Match{Name: m.Name, Diff: d, Wins: float64(m.Wins), Draws: float64(m.Draws), Losses: float64(m.Losses)}, nil
}
