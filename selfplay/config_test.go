package selfplay

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestConfigErrors checks that every kind of mistake names the file, the
// line and the field.
func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "bad.fen", "# openings\n"+engine.MustVariant("chess", nil).StartFEN+"\nnot a fen\n")
	cases := []struct {
		name, yaml string
		line       int
		field      string
		msg        string
	}{
		{"unknown field", "seed: 1\nnodez: 5\nvariants: [{variant: chess, pairs: 1}]\n", 2, "nodez", "unknown field"},
		{"unknown nested field", "variants:\n  - variant: chess\n    pairs: 1\n    tabel: x\n", 4, "variants[0].tabel", "unknown field"},
		{"wrong type", "seed: 1\nnodes: lots\nvariants: [{variant: chess, pairs: 1}]\n", 2, "nodes", "wrong type"},
		{"wrong type in list", "variants:\n  - {variant: chess, pairs: many}\n", 2, "variants[0].pairs", "wrong type"},
		{"list expected", "variants: chess\n", 1, "variants", "want a list"},
		{"repeated key", "seed: 1\nseed: 2\nvariants: [{variant: chess, pairs: 1}]\n", 2, "seed", "given twice"},
		{"bad variant", "variants:\n  - variant: chess\n    pairs: 1\n  - variant: tamerlain\n    pairs: 1\n", 4, "variants[1].variant", "unknown variant"},
		{"bad rule option", "variants:\n  - variant: tamerlane\n    rules: swap=never\n    pairs: 1\n", 3, "variants[0].rules", "swap=never"},
		{"rule syntax", "variants:\n  - variant: tamerlane\n    rules: swap\n    pairs: 1\n", 3, "variants[0].rules", "key=value"},
		{"negative nodes", "nodes: -5\nvariants: [{variant: chess, pairs: 1}]\n", 1, "nodes", "negative"},
		{"zero pairs", "variants:\n  - variant: chess\n    pairs: 0\n", 3, "variants[0].pairs", "positive"},
		{"missing pairs", "variants:\n  - variant: chess\n", 2, "variants[0].pairs", "positive"},
		{"missing opening file", "variants:\n  - variant: chess\n    pairs: 1\n    openings_file: nowhere.fen\n", 4, "variants[0].openings_file", "nowhere.fen"},
		{"bad opening FEN", "variants:\n  - variant: chess\n    pairs: 1\n    openings_file: bad.fen\n", 4, "variants[0].openings_file", "bad.fen:3"},
		{"missing table", "variants:\n  - variant: chess\n    pairs: 1\n    table: none.yaml\n", 4, "variants[0].table", "none.yaml"},
		{"bad imbalance piece", "imbalances:\n  - name: x\n    variant: chess\n    pairs: 1\n    first_removes: [Z]\n", 5, "imbalances[0].first_removes[0]", "no piece \"Z\""},
		{"royal imbalance piece", "imbalances:\n  - name: x\n    variant: chess\n    pairs: 1\n    second_removes: [K]\n", 5, "imbalances[0].second_removes[0]", "royal"},
		{"bad sprt", "matches:\n  - variant: chess\n    a: ''\n    b: ''\n    pairs: 10\n    sprt: {elo0: 5, elo1: 0}\n", 6, "matches[0].sprt", "elo0"},
		{"duplicate stream", "variants:\n  - {variant: chess, pairs: 1}\n  - {variant: chess, pairs: 2}\n", 3, "variants[1]", "used twice"},
		{"negative max plies", "max_plies: -1\nvariants: [{variant: chess, pairs: 1}]\n", 1, "max_plies", "at least 1"},
		{"bad shard", "shard: {index: 2, count: 2}\nvariants: [{variant: chess, pairs: 1}]\n", 1, "shard", "index < count"},
		{"nothing to play", "seed: 1\n", 0, "variants", "nothing to play"},
		{"syntax", "seed: [1\n", 0, "", ""},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, dir, fmt.Sprintf("c%d.yaml", i), c.yaml)
			_, err := LoadConfig(path)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			want := path + ":"
			if c.line > 0 {
				want = fmt.Sprintf("%s:%d: %s: ", path, c.line, c.field)
			} else if c.field != "" {
				want = path + ": " + c.field + ": "
			}
			if !strings.HasPrefix(msg, want) || !strings.Contains(msg, c.msg) {
				t.Fatalf("error %q\nwant prefix %q containing %q", msg, want, c.msg)
			}
		})
	}
}

// TestConfigDefaultsAndRoundTrip checks defaults, path resolution and that
// the written config.yaml reads back to the same configuration hash.
func TestConfigDefaultsAndRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "tables"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "tables/t.yaml", "not read by the greedy player\n")
	cfg, err := LoadConfig(writeFile(t, dir, "c.yaml", "variants:\n  - {variant: chess, pairs: 2, table: tables/t.yaml}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Nodes != defaultNodes || cfg.MaxPlies != defaultMaxPlies || !cfg.Openings.Material || cfg.Dataset.PositionsPerGame != 10 ||
		cfg.Adjudication.Resign.MoveCount != 3 || !cfg.Adjudication.Resign.TwoSided {
		t.Fatalf("defaults not set: %+v", cfg)
	}
	if want := filepath.Join(dir, "tables", "t.yaml"); cfg.Variants[0].Table != want {
		t.Fatalf("table %q, want %q", cfg.Variants[0].Table, want)
	}
	h1, err := cfg.Hash()
	if err != nil {
		t.Fatal(err)
	}
	y, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseConfig(y, filepath.Join(t.TempDir(), "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(); err != nil {
		t.Fatal(err)
	}
	h2, _ := back.Hash()
	if h1 != h2 {
		t.Fatalf("hash changed through config.yaml:\n%s", y)
	}
	// Moving the table elsewhere keeps the hash (it covers contents, not paths).
	writeFile(t, dir, "t2.yaml", "not read by the greedy player\n")
	back.Variants[0].Table = filepath.Join(dir, "t2.yaml")
	if h3, _ := back.Hash(); h3 != h1 {
		t.Fatal("hash depends on the table's path")
	}
	back.Shard, back.Workers = Shard{1, 4}, 7
	if h4, _ := back.Hash(); h4 != h1 {
		t.Fatal("hash depends on shard or workers")
	}
	back.Seed++
	if h5, _ := back.Hash(); h5 == h1 {
		t.Fatal("hash ignores the seed")
	}
}

// TestExperimentConfigs: the self-play configs of configs/experiments
// validate (their comments cite results of running them); those of
// configs/experiments/outside-engine validate offline (everything but
// whether the outside engine they name, Fairy-Stockfish, is installed).
func TestExperimentConfigs(t *testing.T) {
	files, err := filepath.Glob("../configs/experiments/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no experiment configs: %v", err)
	}
	outside, err := filepath.Glob("../configs/experiments/outside-engine/*.yaml")
	if err != nil || len(outside) == 0 {
		t.Fatalf("no outside-engine experiment configs: %v", err)
	}
	for _, f := range append(files, outside...) {
		cfg, err := readConfig(f)
		if err == nil {
			if slices.Contains(outside, f) {
				err = cfg.ValidateOffline()
			} else {
				err = cfg.Validate()
			}
		}
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(cfg.Variants)+len(cfg.Imbalances)+len(cfg.Matches) == 0 {
			t.Errorf("%s: no stream", f)
		}
	}
}
