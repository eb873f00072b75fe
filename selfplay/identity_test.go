package selfplay

import (
	"os"
	"path/filepath"
	"testing"
)

// Overlaps agrees with Has: two shards overlap exactly when some pair
// index belongs to both.
func TestShardOverlaps(t *testing.T) {
	for n := 1; n <= 6; n++ {
		for m := 1; m <= 6; m++ {
			for a := range n {
				for b := range m {
					s, u := Shard{Index: a, Count: n}, Shard{Index: b, Count: m}
					want := false
					for i := range n * m {
						want = want || (s.Has(i) && u.Has(i))
					}
					if got := s.Overlaps(u); got != want {
						t.Errorf("%s overlaps %s: %v, want %v", s, u, got, want)
					}
				}
			}
		}
	}
	if !(Shard{}).Overlaps(Shard{Index: 1, Count: 3}) {
		t.Error("an unsharded run does not overlap its shards")
	}
}

func TestSameGames(t *testing.T) {
	tables := map[string]string{"chess": "weights-sha256:aa"}
	base := Identity{ConfigHash: "h", Shard: Shard{}, DefaultTables: tables}
	cases := []struct {
		name string
		b    Identity
		want bool
	}{
		{"copy", base, true},
		{"another config", Identity{ConfigHash: "g", DefaultTables: tables}, false},
		{"another table", Identity{ConfigHash: "h", DefaultTables: map[string]string{"chess": "weights-sha256:bb"}}, false},
		{"an older run without tables", Identity{ConfigHash: "h"}, true},
		{"a shard of it", Identity{ConfigHash: "h", Shard: Shard{Index: 1, Count: 2}, DefaultTables: tables}, true},
	}
	for _, c := range cases {
		if got := SameGames(&base, &c.b); got != c.want {
			t.Errorf("%s: SameGames %v, want %v", c.name, got, c.want)
		}
	}
	a, b := Identity{ConfigHash: "h", Shard: Shard{Index: 0, Count: 2}}, Identity{ConfigHash: "h", Shard: Shard{Index: 1, Count: 2}}
	if SameGames(&a, &b) {
		t.Error("shards 0/2 and 1/2 of one run hold the same games")
	}
}

func TestReadIdentity(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, RunInfoName), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"format": "tamerlane-selfplay/1", "kind": "selfplay", "config_hash": "abc", "shard": "1/3", "default_tables": {"chess": "d"}}`)
	id, err := ReadIdentity(dir)
	if err != nil {
		t.Fatal(err)
	}
	if id.Dir != dir || id.ConfigHash != "abc" || id.Shard != (Shard{Index: 1, Count: 3}) || id.DefaultTables["chess"] != "d" {
		t.Errorf("identity %+v", id)
	}
	write(`{"format": "tamerlane-selfplay/1", "kind": "selfplay", "config_hash": "abc"}`)
	if id, err := ReadIdentity(dir); err != nil || id.Shard != (Shard{}) {
		t.Errorf("a record without a shard: %+v, %v; want the whole run", id, err)
	}
	write(`{"format": "tamerlane-selfplay/1", "kind": "selfplay", "config_hash": "abc", "shard": "3/3"}`)
	if _, err := ReadIdentity(dir); err == nil {
		t.Error("shard 3/3 accepted")
	}
}
