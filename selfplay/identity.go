package selfplay

import (
	"fmt"
	"maps"
	"path/filepath"

	"tamerlane/internal/fsx"
)

// Identity is what decides the games of a run directory, as its run.json
// records it: the configuration hash, the embedded tables its players
// used, and the shard. Two runs with the same configuration and tables
// play the same game pairs (every game is a function of the seed and its
// pair index), so where their shards share a pair index they hold the
// same games.
type Identity struct {
	// Dir is the run directory.
	Dir string
	// ConfigHash is Config.Hash of the run's configuration.
	ConfigHash string
	// Shard is the part of the pairs the directory plays ("0/1": all).
	Shard Shard
	// DefaultTables maps each variant played with the embedded default
	// table to that table's digest (nil in runs begun before it was
	// recorded).
	DefaultTables map[string]string
}

// ReadIdentity reads the identity of the run in dir (its run.json).
func ReadIdentity(dir string) (*Identity, error) {
	path := filepath.Join(dir, RunInfoName)
	var ri runInfo
	if err := fsx.ReadJSON(path, &ri, formatVersion); err != nil {
		return nil, err
	}
	var sh Shard // a record without a shard is a whole run
	if ri.Shard != "" {
		var err error
		if sh, err = ParseShard(ri.Shard); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	return &Identity{Dir: dir, ConfigHash: ri.ConfigHash, Shard: sh, DefaultTables: ri.DefaultTables}, nil
}

// SameGames reports whether runs a and b can hold the same games: the
// same configuration, the same tables (where both recorded them), and
// shards that share a pair index. Pooled, such runs would count those
// games twice.
func SameGames(a, b *Identity) bool {
	if a.ConfigHash != b.ConfigHash || !sameTables(a.DefaultTables, b.DefaultTables) {
		return false
	}
	return a.Shard.Overlaps(b.Shard)
}

// sameTables reports whether two records of default tables agree; a
// record without digests (an older run) agrees with any.
func sameTables(a, b map[string]string) bool {
	if a == nil || b == nil {
		return true
	}
	return maps.Equal(a, b)
}

// Overlaps reports whether shards s and t have a pair index in common:
// pair i is in shard a/n when i mod n = a, so a/n and b/m share one
// exactly when a ≡ b modulo gcd(n, m) (Chinese remainder theorem).
func (s Shard) Overlaps(t Shard) bool {
	n, m := max(s.Count, 1), max(t.Count, 1)
	g := gcd(n, m)
	return s.Index%g == t.Index%g
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
