package published

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Provenance records how a measured source was measured: enough to
// reproduce its figures (the config and its hash, the engine build) and
// to weigh them (the games, the positions, the node budget). Parse
// checks it (check).
type Provenance struct {
	// Method names the estimate: "regression" or "imbalance" for this
	// project's two methods (docs/method.md).
	Method string `yaml:"method"`
	// Unit says which pawn is the unit of the source's P=1 values: the
	// regression's pawn (an average pawn of the quiet positions) is not
	// the pawn a pawn-odds match removes.
	Unit string `yaml:"unit,omitempty"`
	// Config is the path of the measurement config in the repository,
	// ConfigSHA256 the SHA-256 of its bytes (sha256sum checks it).
	Config       string `yaml:"config"`
	ConfigSHA256 string `yaml:"config_sha256"`
	// Measurement is the measurement's own hash (the config_hash of its
	// run directory's measure.json, which the seed enters): a run with
	// the same hash plays the same games, so a comparison with the
	// source can refuse it (optional).
	Measurement string `yaml:"measurement,omitempty"`
	// Games are the games the estimate used, Positions the positions
	// (the regression's quiet positions; 0 where the method counts none).
	Games     int `yaml:"games"`
	Positions int `yaml:"positions,omitempty"`
	// Engine names the engine build that played the games (a commit, or
	// the executable's SHA-256 when the build records no commit; several
	// joined by ", " when a resumed run changed builds).
	Engine string `yaml:"engine"`
	// Date is when the last game was recorded, YYYY-MM-DD.
	Date string `yaml:"date"`
	// Nodes is the node budget per move (0: not a node budget).
	Nodes int64 `yaml:"nodes,omitempty"`
	// EndRound is the round an imbalance plan was concluded at before
	// its targets or caps (tamerlane measure -conclude EndRound): its
	// matches played the rounds before it, then its check matches. 0:
	// the plan ran to its targets or caps.
	EndRound int `yaml:"end_round,omitempty"`
}

// dateLayout is Provenance.Date's format.
const dateLayout = "2006-01-02"

// check validates a provenance: every field that identifies the
// measurement present and well formed.
func (p *Provenance) check() error {
	switch {
	case strings.TrimSpace(p.Method) == "":
		return errors.New("no method")
	case strings.TrimSpace(p.Config) == "":
		return errors.New("no config")
	case !isSHA256(p.ConfigSHA256):
		return fmt.Errorf("config_sha256 %q is not 64 lower-case hex digits", p.ConfigSHA256)
	case p.Measurement != "" && !isSHA256(p.Measurement):
		return fmt.Errorf("measurement %q is not 64 lower-case hex digits", p.Measurement)
	case p.Games < 1:
		return fmt.Errorf("games %d, want ≥ 1", p.Games)
	case p.Positions < 0:
		return fmt.Errorf("positions %d, want ≥ 0", p.Positions)
	case strings.TrimSpace(p.Engine) == "":
		return errors.New("no engine build")
	case p.Nodes < 0:
		return fmt.Errorf("nodes %d, want ≥ 0", p.Nodes)
	case p.EndRound < 0:
		return fmt.Errorf("end_round %d, want ≥ 0", p.EndRound)
	}
	if _, err := time.Parse(dateLayout, p.Date); err != nil {
		return fmt.Errorf("date %q is not YYYY-MM-DD", p.Date)
	}
	return nil
}

// isSHA256 reports whether s is a SHA-256 in lower-case hex.
func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// checkInterval checks a value's interval: both bounds, finite, around
// the value.
func checkInterval(value, lo, hi *float64) error {
	switch {
	case value == nil:
		return errors.New("an interval (lo, hi) needs a value")
	case lo == nil || hi == nil:
		return errors.New("an interval needs both lo and hi")
	case math.IsNaN(*lo) || math.IsInf(*lo, 0) || math.IsNaN(*hi) || math.IsInf(*hi, 0):
		return errors.New("interval bounds must be finite numbers")
	case !(*lo <= *value && *value <= *hi):
		return fmt.Errorf("interval [%v, %v] does not contain the value %v", *lo, *hi, *value)
	}
	return nil
}
