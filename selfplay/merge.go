package selfplay

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"tamerlane/internal/fsx"
)

// shardDir is one run directory given to Merge.
type shardDir struct {
	dir  string
	info runInfo
	cfg  *Config
	plan *Plan
}

// readRunDir reads a run directory's run.json and config.yaml (without
// checking that its table and opening files exist here).
func readRunDir(dir string) (*shardDir, error) {
	var info runInfo
	if err := fsx.ReadRun(dir, fsx.KindSelfplay, formatVersion, &info); err != nil {
		return nil, err
	}
	cfg, err := readRunConfig(dir)
	if err != nil {
		return nil, err
	}
	cfg.Defaults()
	return &shardDir{dir: dir, info: info, cfg: cfg}, nil
}

// readShardDir reads a run directory given to Merge: readRunDir and its
// plan (ReadPlan).
func readShardDir(dir string) (*shardDir, error) {
	sd, err := readRunDir(dir)
	if err != nil {
		return nil, err
	}
	if sd.plan, err = readPlanFile(dir); err == nil && sd.plan == nil {
		sd.plan, err = sd.configPlan()
	}
	if err != nil {
		return nil, err
	}
	return sd, nil
}

// LoadRunConfig reads the configuration of the self-play run in dir (its
// config.yaml, after checking run.json), to resume it; a directory of
// another kind of run is refused by name.
func LoadRunConfig(dir string) (*Config, error) {
	if err := fsx.CheckKind(dir, fsx.KindSelfplay); err != nil {
		return nil, err
	}
	sd, err := readRunDir(dir)
	if err != nil {
		return nil, err
	}
	return sd.cfg, nil
}

// Merge joins the run directories of the shards of one run into out. The
// shards must share one configuration (the hash in their run.json, which
// leaves out the shard fields), and together hold every pair of every
// stream exactly once; otherwise Merge fails naming the stream, the pair
// and the directories. out receives the configuration without shard
// fields, the journals in pair order and the outputs, which equal those
// of an unsharded run of the same configuration.
func Merge(out string, dirs []string) (*Summary, error) {
	if len(dirs) == 0 {
		return nil, errors.New("no shard directories to merge")
	}
	var shards []*shardDir
	for _, d := range dirs {
		if sameDir(d, out) {
			return nil, fmt.Errorf("the output directory %s is also a shard", out)
		}
		s, err := readShardDir(d)
		if err != nil {
			return nil, err
		}
		if len(shards) > 0 && s.info.ConfigHash != shards[0].info.ConfigHash {
			return nil, fmt.Errorf("%s and %s hold runs of different configurations (hash %.12s and %.12s)",
				shards[0].dir, d, shards[0].info.ConfigHash, s.info.ConfigHash)
		}
		if len(shards) > 0 {
			if v := changedTable(shards[0].info.DefaultTables, s.info.DefaultTables); v != "" {
				return nil, fmt.Errorf("%s and %s were played with different embedded %s tables (%.19s and %.19s)",
					shards[0].dir, d, v, shards[0].info.DefaultTables[v], s.info.DefaultTables[v])
			}
		}
		shards = append(shards, s)
	}
	cfg := *shards[0].cfg
	cfg.Shard = Shard{}
	hash := shards[0].info.ConfigHash
	plan := shards[0].plan.unsharded()
	streams, err := plan.streams(shards[0].dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", shards[0].dir, err)
	}

	// Collect and check every stream's pairs.
	type src struct {
		entry jEntry
		dir   string
	}
	merged := make([][]src, len(streams))
	for i, st := range streams {
		owner := make([]string, st.pairs)
		for _, s := range shards {
			entries, _, err := scanJournal(filepath.Join(s.dir, st.dir, journalName))
			if err != nil {
				return nil, err
			}
			for _, e := range entries {
				if e.pair >= st.pairs {
					return nil, fmt.Errorf("%s: pair %d of stream %s is out of range (%d pairs)", e.where(), e.pair, st.name, st.pairs)
				}
				if owner[e.pair] != "" {
					return nil, fmt.Errorf("pair %d of stream %s is in both %s and %s", e.pair, st.name, owner[e.pair], s.dir)
				}
				owner[e.pair] = s.dir
				merged[i] = append(merged[i], src{e, s.dir})
			}
		}
		var missing []string
		for p, o := range owner {
			if o == "" {
				missing = append(missing, fmt.Sprint(p))
			}
		}
		if len(missing) > 0 {
			more := ""
			if len(missing) > 10 {
				more = fmt.Sprintf(" and %d more", len(missing)-10)
				missing = missing[:10]
			}
			return nil, fmt.Errorf("stream %s misses pairs %s%s (not in any of the %d shard directories)", st.name, strings.Join(missing, ", "), more, len(shards))
		}
		slices.SortFunc(merged[i], func(a, b src) int { return a.entry.pair - b.entry.pair })
	}

	unlock, err := openRunDir(out, &cfg, plan, shards[0].info.DefaultTables)
	if err != nil {
		return nil, err
	}
	defer unlock()
	for i, st := range streams {
		sdir := filepath.Join(out, st.dir)
		if err := os.MkdirAll(sdir, 0o755); err != nil {
			return nil, err
		}
		path := filepath.Join(sdir, journalName)
		files := map[string]*os.File{}
		var entries []jEntry
		var off int64
		err := fsx.Write(path, func(w io.Writer) error {
			for _, s := range merged[i] {
				buf, err := readLine(files, s.entry)
				if err != nil {
					return err
				}
				w.Write(buf)
				w.Write([]byte{'\n'})
				entries = append(entries, jEntry{pair: s.entry.pair, file: path, line: len(entries) + 1, off: off, length: len(buf)})
				off += int64(len(buf) + 1)
			}
			return nil
		})
		for _, f := range files {
			f.Close()
		}
		if err != nil {
			return nil, err
		}
		st.entries = entries
	}
	res, err := writeRunOutputs(out, &cfg, hash, streams)
	if err != nil {
		return nil, err
	}
	tm := &Timing{}
	tm.Streams = res.streamTiming
	if err := fsx.WriteJSON(filepath.Join(out, TimingName), tm); err != nil {
		return nil, err
	}
	return res.Summary, nil
}

// sameDir reports whether two paths name the same existing directory.
func sameDir(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
