package selfplay

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"tamerlane/internal/fsx"
)

// runInfo is run.json: the identity of the run in a directory.
type runInfo struct {
	Format     string `json:"format"`
	Kind       string `json:"kind"`
	ConfigHash string `json:"config_hash"`
	Shard      string `json:"shard"`
	// DefaultTables maps each variant played with the embedded default
	// table to that table's digest (Config.DefaultTables); absent in runs
	// begun before it was recorded.
	DefaultTables map[string]string `json:"default_tables,omitempty"`
}

// openRunDir creates and locks the run directory, claims it for the
// configuration and its plan (see claimDir) after recording its variant
// files (recordVariants), and removes the temporaries an interrupted
// run left and its summary.json, so that while the run plays readers see
// it in progress (InProgress) and take its games from the journals, not
// from the outputs of an earlier part (they are written again, whole, when
// it stops); the caller must call unlock.
func openRunDir(dir string, cfg *Config, plan *Plan, tables map[string]string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if unlock, err = LockDir(dir, "run"); err != nil {
		return nil, err
	}
	if err = recordVariants(dir, cfg); err == nil {
		err = claimDir(dir, cfg, plan, tables)
	}
	if err == nil {
		_, err = fsx.CleanTemps(dir)
	}
	if err == nil {
		if rerr := os.Remove(filepath.Join(dir, SummaryName)); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = rerr
		}
	}
	if err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// claimDir checks that dir is empty of runs or holds this configuration's
// run played with the same default tables (tables, see
// Config.DefaultTables), and records the configuration and the plan there
// (streams.json, written again on every start so that a run begun before
// plans were written gets one). A directory
// whose run.json names another configuration or other tables is taken
// over only when no pair was ever journaled in it (an earlier run failed
// before its first game), so that a corrected rerun is not refused.
func claimDir(dir string, cfg *Config, plan *Plan, tables map[string]string) error {
	if err := fsx.CheckKind(dir, fsx.KindSelfplay); err != nil {
		return err
	}
	hash := plan.ConfigHash
	planPath := filepath.Join(dir, PlanName)
	info := runInfo{Format: formatVersion, Kind: fsx.KindSelfplay, ConfigHash: hash, Shard: cfg.Shard.String(), DefaultTables: tables}
	path := filepath.Join(dir, RunInfoName)
	var old runInfo
	err := fsx.ReadJSON(path, &old, formatVersion)
	switch {
	case err == nil:
		changed := changedTable(old.DefaultTables, tables)
		if old.ConfigHash == hash && old.Shard == info.Shard && changed == "" {
			return fsx.WriteJSON(planPath, plan)
		}
		played, perr := hasJournaledPairs(dir)
		if perr != nil {
			return perr
		}
		if played {
			if changed != "" {
				return fmt.Errorf("%s was played with another embedded %s table (%.27s, this binary's %.27s): resuming would mix two players; "+
					"finish it with the binary that began it, or start a new directory", dir, changed, old.DefaultTables[changed], tables[changed])
			}
			if old.ConfigHash != hash {
				return fmt.Errorf("%s holds a run of another configuration (hash %.12s, this one %.12s): use another directory or the same configuration", dir, old.ConfigHash, hash)
			}
			return fmt.Errorf("%s holds shard %s, not %s", dir, old.Shard, info.Shard)
		}
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	y, err := cfg.Marshal()
	if err != nil {
		return err
	}
	if err := fsx.WriteFile(filepath.Join(dir, ConfigName), y); err != nil {
		return err
	}
	// The plan before run.json: a reader that sees the run sees its plan.
	if err := fsx.WriteJSON(planPath, plan); err != nil {
		return err
	}
	return fsx.WriteJSON(path, info)
}

// changedTable returns the first variant (in name order) whose default
// table digest differs between a run's record and this binary, or "".
// A record without digests (a run begun before they were kept) matches.
func changedTable(recorded, now map[string]string) string {
	if recorded == nil {
		return ""
	}
	for _, name := range slices.Sorted(maps.Keys(recorded)) {
		if d, ok := now[name]; ok && d != recorded[name] {
			return name
		}
	}
	return ""
}

// hasJournaledPairs reports whether any stream journal in dir holds data.
func hasJournaledPairs(dir string) (bool, error) {
	js, err := filepath.Glob(filepath.Join(dir, "*", journalName))
	if err != nil {
		return false, err
	}
	for _, j := range js {
		st, err := os.Stat(j)
		if err != nil {
			return false, err
		}
		if st.Size() > 0 {
			return true, nil
		}
	}
	return false, nil
}
