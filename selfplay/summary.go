package selfplay

import (
	"fmt"
	"math"

	"tamerlane/internal/stats"
	"tamerlane/selfplay/elo"
)

// File names in a run directory.
const (
	// PGNName is a stream's games, in the stream's directory.
	PGNName = "games.pgn"
	// DatasetName is a stream's sampled positions, in the stream's directory.
	DatasetName = "positions.jsonl"
	// SummaryName is the run's statistics (Summary).
	SummaryName = "summary.json"
	// TimingName is the last session's speed (Timing).
	TimingName = "timing.json"
	// ConfigName is the run's effective configuration.
	ConfigName = "config.yaml"
	// RunInfoName is the run's identity: format, configuration hash, shard.
	RunInfoName = "run.json"
)

// WDL counts wins, draws and losses from one side's point of view; Score
// is the mean score per game.
type WDL struct {
	Wins   int          `json:"wins"`
	Draws  int          `json:"draws"`
	Losses int          `json:"losses"`
	Score  stats.Float4 `json:"score"`
}

func (w *WDL) add(o elo.Outcome) {
	switch o {
	case elo.Win:
		w.Wins++
	case elo.Draw:
		w.Draws++
	default:
		w.Losses++
	}
}

func (w *WDL) finish() {
	if n := w.Wins + w.Draws + w.Losses; n > 0 {
		w.Score = stats.Float4((float64(w.Wins) + 0.5*float64(w.Draws)) / float64(n))
	} else {
		w.Score = stats.Float4(math.NaN())
	}
}

// EloEstimate is an Elo difference with the half-width of its 95%
// interval and the likelihood of superiority.
type EloEstimate struct {
	Elo    stats.Float4 `json:"elo"`
	Margin stats.Float4 `json:"margin"`
	LOS    stats.Float4 `json:"los"`
}

// String formats the estimate as the report prints it: "+12.3 ± 4.5",
// "+12.3 ± –" when the margin is unknown, "–" when the Elo is.
func (e EloEstimate) String() string {
	if math.IsNaN(float64(e.Elo)) || math.IsInf(float64(e.Elo), 0) {
		return "–"
	}
	return fmt.Sprintf("%+.1f ± %s", float64(e.Elo), e.Margin.Format(1))
}

func estimate(e elo.Estimate) EloEstimate {
	return EloEstimate{stats.Float4(e.Elo), stats.Float4(e.Margin), stats.Float4(e.LOS)}
}

// SPRTSummary is the state of a match's SPRT.
type SPRTSummary struct {
	Elo0     stats.Float4 `json:"elo0"`
	Elo1     stats.Float4 `json:"elo1"`
	Alpha    stats.Float4 `json:"alpha"`
	Beta     stats.Float4 `json:"beta"`
	Model    string       `json:"model"`
	LLR      stats.Float4 `json:"llr"`
	Lower    stats.Float4 `json:"lower"`
	Upper    stats.Float4 `json:"upper"`
	Decision string       `json:"decision"` // "H0", "H1" or "continue"
	// DecidedAt is the number of pairs after which the test stopped (0:
	// not decided). Only those pairs are in the outputs.
	DecidedAt int `json:"decided_at"`
}

// StreamSummary is one stream's part of summary.json. Outcomes of the
// "first player" are those of the player who is White in the first game
// of each pair (player A in a match, the first side of an imbalance).
type StreamSummary struct {
	Name          string   `json:"name"`
	Dir           string   `json:"dir"`
	Kind          string   `json:"kind"` // "selfplay", "imbalance" or "match"
	Variant       string   `json:"variant"`
	Rules         string   `json:"rules"`
	First         string   `json:"first"`
	Second        string   `json:"second"`
	FirstRemoves  []string `json:"first_removes,omitempty"`
	SecondRemoves []string `json:"second_removes,omitempty"`
	// PairsPlanned is the number of pairs of this stream in this shard.
	PairsPlanned int `json:"pairs_planned"`
	// Pairs is the number of pairs in the outputs.
	Pairs     int          `json:"pairs"`
	Games     int          `json:"games"`
	Plies     int          `json:"plies"`
	MeanPlies stats.Float4 `json:"mean_plies"`
	Positions int          `json:"positions"`
	// White counts the games from White's point of view.
	White WDL `json:"white"`
	// FirstPlayer counts the games from the first player's point of view.
	FirstPlayer WDL `json:"first_player"`
	// Pentanomial counts the pairs by the first player's points: 0, 1/2,
	// 1, 3/2, 2 (fastchess's Ptnml(0-2)).
	Pentanomial [5]int `json:"pentanomial"`
	// Score is the first player's mean score per game with its 95%
	// interval and standard error from the pentanomial (pair) variance.
	// Summaries written before the interval types were merged name its
	// fields mean, low and high; they still read (stats.Interval).
	Score stats.Interval `json:"score"`
	// Elo is the first player's logistic Elo over the second (pentanomial).
	Elo EloEstimate `json:"elo"`
	// NElo is the normalized Elo (pentanomial, fastchess's nElo).
	NElo EloEstimate `json:"nelo"`
	// WhiteElo is White's advantage in Elo (trinomial, games).
	WhiteElo     EloEstimate    `json:"white_elo"`
	Terminations map[string]int `json:"terminations"`
	SPRT         *SPRTSummary   `json:"sprt,omitempty"`
}

// Summary is summary.json. It depends only on the finished games, never on
// timing, so that equal runs give byte-identical files.
type Summary struct {
	Format     string `json:"format"`
	ConfigHash string `json:"config_hash"`
	Shard      string `json:"shard"`
	// Complete is true when every planned pair has been played (or its
	// SPRT has decided).
	Complete bool            `json:"complete"`
	Streams  []StreamSummary `json:"streams"`
}

// Timing is timing.json: the speed of the session that wrote it.
type Timing struct {
	Workers      int     `json:"workers"`
	WallSeconds  float64 `json:"wall_seconds"`
	PairsPlayed  int     `json:"pairs_played"`
	GamesPlayed  int     `json:"games_played"`
	GamesPerHour float64 `json:"games_per_hour"`
	// Streams gives per-stream figures over all journal games: the summed
	// game time and the games per hour of one worker.
	Streams []StreamTiming `json:"streams"`
}

// StreamTiming is one stream's part of timing.json.
type StreamTiming struct {
	Name             string  `json:"name"`
	GamesPlayed      int     `json:"games_played"`
	GameSeconds      float64 `json:"game_seconds"`
	GamesPerCoreHour float64 `json:"games_per_core_hour"`
}
