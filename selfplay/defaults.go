package selfplay

import (
	"fmt"

	"tamerlane/selfplay/elo"
)

// Defaults.
const (
	defaultNodes       = 5000
	defaultTTMiB       = 4
	defaultNodesJitter = 0.1
	defaultMaxPlies    = 400
	defaultWalkPlies   = 8
	defaultMaxScore    = 150
	defaultScoreNodes  = 500
	defaultAttempts    = 64
)

// Defaults fills in the fields the file (or code) left out; Validate
// calls it first. A config built in code has its zero values replaced
// where zero is not meaningful. Only the first call fills in the
// stream-independent fields, so that a field set after it (by the CLI's
// overrides) stays; the matches' SPRT defaults are filled in every time.
func (c *Config) Defaults() {
	c.sprtDefaults()
	if c.defaulted {
		return
	}
	c.defaulted = true
	unset := func(path string, zero bool) bool {
		if c.src != nil {
			return !c.has(path)
		}
		return zero
	}
	if unset("nodes", c.Nodes == 0) && unset("depth", c.Depth == 0) && c.Nodes == 0 && c.Depth == 0 {
		c.Nodes = defaultNodes
	}
	if c.src != nil && !c.has("nodes_jitter") {
		c.NodesJitter = defaultNodesJitter
	}
	if unset("tt_mib", c.TTMiB == 0) {
		c.TTMiB = defaultTTMiB
	}
	if unset("max_plies", c.MaxPlies == 0) {
		c.MaxPlies = defaultMaxPlies
	}
	o := &c.Openings
	if c.src != nil {
		if !c.has("openings.plies") {
			o.Plies = defaultWalkPlies
		}
		if !c.has("openings.max_score") {
			o.MaxScore = defaultMaxScore
		}
		if !c.has("openings.material") {
			o.Material = true
		}
	}
	if unset("openings.score_nodes", o.ScoreNodes == 0) {
		o.ScoreNodes = defaultScoreNodes
	}
	if unset("openings.attempts", o.Attempts == 0) {
		o.Attempts = defaultAttempts
	}
	if c.src != nil {
		a := &c.Adjudication
		if !c.has("adjudication.draw.move_number") {
			a.Draw.MoveNumber = 40
		}
		if !c.has("adjudication.draw.move_count") {
			a.Draw.MoveCount = 8
		}
		if !c.has("adjudication.draw.score") {
			a.Draw.Score = 10
		}
		if !c.has("adjudication.resign.move_count") {
			a.Resign.MoveCount = 3
		}
		if !c.has("adjudication.resign.score") {
			a.Resign.Score = 1000
		}
		if !c.has("adjudication.resign.two_sided") {
			a.Resign.TwoSided = true
		}
		d := &c.Dataset
		if !c.has("dataset.positions_per_game") {
			d.PositionsPerGame = 10
		}
		if !c.has("dataset.skip_plies") {
			d.SkipPlies = 16
		}
		if !c.has("dataset.skip_in_check") {
			d.SkipInCheck = true
		}
	}
}

// sprtDefaults fills in the matches' SPRT defaults; matches may be added
// after the first Validate (Match, the pipeline), so it runs every time.
func (c *Config) sprtDefaults() {
	for i := range c.Matches {
		if s := c.Matches[i].SPRT; s != nil {
			p := fmt.Sprintf("matches[%d].sprt.", i)
			s.Defaults(func(field string, zero bool) bool {
				if c.src != nil {
					return !c.has(p + field)
				}
				return zero
			})
		}
	}
}

// DefaultSPRTError is the default type I and type II error of an SPRT.
const DefaultSPRTError = 0.05

// Defaults fills in the test's defaults: alpha and beta
// DefaultSPRTError, the normalized model. unset reports whether a field
// was left out (zero says whether its value is zero, for a test built in
// code); the pipeline's verify.sprt uses it too.
func (s *SPRTConfig) Defaults(unset func(field string, zero bool) bool) {
	if unset("alpha", s.Alpha == 0) {
		s.Alpha = DefaultSPRTError
	}
	if unset("beta", s.Beta == 0) {
		s.Beta = DefaultSPRTError
	}
	if s.Model == "" {
		s.Model = string(elo.ModelNormalized)
	}
}

// DefaultConfig returns a configuration with every default set and no
// streams, for building runs in code.
func DefaultConfig() *Config {
	c := &Config{src: &Source{}} // an empty file: every default applies
	c.Defaults()
	c.src = nil
	return c
}
