package values

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
)

// checkDistinct refuses a set of self-play run directories in which two
// can hold the same games (selfplay.SameGames): a measurement copied, or
// run twice with the same config, seed and tables, would count each of
// its games twice and halve its variances.
func checkDistinct(dirs []string) error {
	ids := make([]*selfplay.Identity, 0, len(dirs))
	for _, d := range dirs {
		id, err := selfplay.ReadIdentity(d)
		if err != nil {
			return err
		}
		for _, prev := range ids {
			if selfplay.SameGames(prev, id) {
				return fmt.Errorf("%s and %s are runs of the same configuration (hash %.12s, shards %s and %s): their games are the same games, "+
					"and pooled they would count twice; pool runs of different seeds", prev.Dir, d, id.ConfigHash, prev.Shard, id.Shard)
			}
		}
		ids = append(ids, id)
	}
	return nil
}

// ErrMixedSettings is wrapped by RegressionSettings when the measurements
// it pools were fitted with different regression settings.
var ErrMixedSettings = errors.New("mixed regression settings")

// RegressionSettings returns the regression settings of the values under
// root: those of the measurement when root is one, the settings every
// measurement under root shares when it holds several (a pool of runs of
// different seeds), and the defaults when it holds none (bare self-play
// runs). Measurements that disagree are an error naming two of them: the
// pooled values would otherwise take one's settings silently.
func RegressionSettings(root string) (RegressionConfig, error) {
	if IsRun(root) {
		return runRegression(root)
	}
	var runs []string
	err := fsx.WalkLinked(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && IsRun(path) {
			runs = append(runs, path)
			return fs.SkipDir
		}
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return RegressionConfig{}, err
	}
	sort.Strings(runs)
	var rc RegressionConfig
	for i, dir := range runs {
		c, err := runRegression(dir)
		if err != nil {
			return RegressionConfig{}, err
		}
		if i > 0 && c.effective() != rc.effective() {
			return RegressionConfig{}, fmt.Errorf("%s pools measurements with different regression settings: %s has %s, %s has %s; "+
				"choose them with the flags (--shared-pieces, --pairs, --min-ply, --quiet-plies, --min-games; the others take their defaults): %w",
				root, runs[0], rc.effective(), dir, c.effective(), ErrMixedSettings)
		}
		rc = c
	}
	return rc, nil
}

// runRegression reads the regression settings of a measurement run. The
// run's outside engines need not be installed here.
func runRegression(dir string) (RegressionConfig, error) {
	cfg, err := LoadRunConfig(filepath.Join(dir, "config.yaml"))
	if err != nil {
		return RegressionConfig{}, err
	}
	return cfg.Regression, nil
}

// effective returns the settings with their defaults filled in, so that
// a field left out and its default written out compare equal.
func (r RegressionConfig) effective() RegressionConfig { return r.Options().settings() }

// String returns the settings as the config writes them.
func (r RegressionConfig) String() string {
	return fmt.Sprintf("{min_ply: %d, quiet_plies: %d, min_games: %d, shared_pieces: %d, pairs: %t, scored_max_pawns: %g}",
		r.MinPly, r.QuietPlies, r.MinGames, r.SharedPieces, r.Pairs, r.ScoredMaxPawns)
}
