package values

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tamerlane/internal/fsx"
)

// concludeFile records, in an imbalance stage's directory, that its plan
// was concluded (PlanConfig.EndRound): written by tamerlane measure
// -conclude, read whenever the plan runs, so that a resumed plan replays
// the same rounds.
const concludeFile = "conclude.json"

// conclusion is the content of concludeFile.
type conclusion struct {
	// EndRound is the first round in which no piece's matches play.
	EndRound int `json:"end_round"`
	// Recorded is when it was recorded (RFC 3339, UTC).
	Recorded string `json:"recorded"`
}

// errPlanEnded is conclude's error for a plan that has ended.
var errPlanEnded = errors.New("the plan has ended: nothing to conclude")

// ConcludeNow is the Conclude round that ends a plan at the round in
// progress: the rounds begun so far play to their end, and no later one
// plays a piece's matches.
const ConcludeNow = -1

// ParseConclude reads the value of tamerlane measure -conclude: "now"
// (ConcludeNow) or a round number ≥ 1.
func ParseConclude(s string) (int, error) {
	if s == "now" {
		return ConcludeNow, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q: want now or a round number ≥ 1", s)
	}
	return n, nil
}

// roundsBegun returns the number of rounds an imbalance stage's directory
// holds (round-000 … round-NNN: one more than the last begun).
func roundsBegun(idir string) (int, error) {
	entries, err := os.ReadDir(idir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if k, ok := strings.CutPrefix(e.Name(), "round-"); ok && e.IsDir() {
			if r, err := strconv.Atoi(k); err == nil && r+1 > n {
				n = r + 1
			}
		}
	}
	return n, nil
}

// conclude records in the imbalance stage idir that its plan ends at
// round end (ConcludeNow: after the rounds begun so far) and returns the
// round recorded. A round already begun cannot be taken back, a plan
// that has ended has nothing to conclude, and a plan concluded before
// keeps its round (asking for another is an error).
func conclude(idir string, end int, now time.Time) (int, error) {
	if _, err := os.Stat(filepath.Join(idir, planFile)); err == nil {
		return 0, fmt.Errorf("%s: %w (%s)", idir, errPlanEnded, planFile)
	}
	begun, err := roundsBegun(idir)
	if err != nil {
		return 0, err
	}
	if end == ConcludeNow {
		if begun == 0 {
			return 0, fmt.Errorf("%s: the plan has played no round: conclude it at a round number, or leave its pieces out of the config", idir)
		}
		end = begun
	}
	old, err := readConclusion(idir)
	switch {
	case err != nil:
		return 0, err
	case old > 0 && old != end:
		return 0, fmt.Errorf("%s: the plan was concluded at round %d (%s); it cannot end at round %d", idir, old, filepath.Join(idir, concludeFile), end)
	case old > 0:
		return old, nil
	case end < begun:
		return 0, fmt.Errorf("%s: round %d has begun (%d rounds): the plan can end at round %d or later", idir, begun-1, begun, begun)
	}
	if err := os.MkdirAll(idir, 0o755); err != nil {
		return 0, err
	}
	c := conclusion{EndRound: end, Recorded: now.UTC().Format(time.RFC3339)}
	return end, fsx.WriteJSON(filepath.Join(idir, concludeFile), c)
}

// readConclusion returns the round the plan in idir was concluded at (0:
// not concluded).
func readConclusion(idir string) (int, error) {
	path := filepath.Join(idir, concludeFile)
	var c conclusion
	if err := fsx.ReadJSON(path, &c, ""); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	if c.EndRound < 1 {
		return 0, fmt.Errorf("%s: end_round %d, want a round number ≥ 1", path, c.EndRound)
	}
	return c.EndRound, nil
}

// ConcludedPlan is an imbalance plan concluded before its pieces reached
// their targets or caps (tamerlane measure -conclude).
type ConcludedPlan struct {
	// Dir is the imbalance stage's directory, Variant its variant.
	Dir     string `json:"dir"`
	Variant string `json:"variant"`
	// EndRound is the first round in which no piece's matches played.
	EndRound int `json:"end_round"`
	// Pieces are the pieces whose matches the conclusion stopped (read
	// from plan.json; empty while the plan has not ended).
	Pieces []string `json:"pieces,omitempty"`
}

// concludedPlans returns the concluded imbalance plans among the parents
// of dirs (the rounds' run directories): an ended plan whose conclusion
// stopped a piece, or a plan not yet ended with a conclusion recorded.
func concludedPlans(dirs []string) ([]ConcludedPlan, error) {
	var out []ConcludedPlan
	seen := map[string]bool{}
	for _, d := range dirs {
		stage := filepath.Dir(d)
		if seen[stage] || !strings.HasPrefix(filepath.Base(d), "round-") {
			continue
		}
		seen[stage] = true
		end, err := readConclusion(stage)
		if err != nil {
			return out, err
		}
		if end == 0 {
			continue
		}
		cp := ConcludedPlan{Dir: stage, Variant: filepath.Base(filepath.Dir(stage)), EndRound: end}
		var res ImbalanceResult
		switch err := fsx.ReadJSON(filepath.Join(stage, planFile), &res, ""); {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return out, err
		case len(res.Concluded) == 0:
			continue // ended before its conclusion: every piece stopped on its own
		default:
			cp.Variant = res.Variant
			for i, x := range res.Pieces {
				if i < len(res.Concluded) && res.Concluded[i] {
					cp.Pieces = append(cp.Pieces, x)
				}
			}
		}
		out = append(out, cp)
	}
	return out, nil
}

// endRound returns the round variant's imbalance plan in doc was
// concluded at, where the conclusion stopped a piece's matches (0: none).
func (d *Document) endRound(variant string) int {
	for _, c := range d.ConcludedPlans {
		if c.Variant == variant && len(c.Pieces) > 0 {
			return c.EndRound
		}
	}
	return 0
}
