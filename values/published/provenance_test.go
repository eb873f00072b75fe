package published

import (
	"strings"
	"testing"
)

// measuredDoc is an atlas-like file: one measured source with its
// provenance, values with intervals in two scales.
const measuredDoc = `variant: test
pieces:
  - {letter: P, name: pawn}
  - {letter: N, name: knight}
  - {letter: R, name: rook}
sources:
  - id: regression
    citation: this project's regression
    kind: measured
    provenance:
      method: regression
      unit: the regression's pawn
      config: configs/measure/x.yaml
      config_sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
      measurement: fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210
      games: 1200
      positions: 50000
      engine: 4f9d8fb
      date: 2026-12-02
      nodes: 2000
  - {id: other, citation: someone, kind: estimate}
values:
  - {piece: P, value: 1, source: regression, scale: "P=1"}
  - {piece: N, value: 3, lo: 2.5, hi: 3.5, source: regression, scale: "P=1"}
  - {piece: R, value: 5, lo: 4, hi: 6, source: regression, scale: "P=1"}
  - {piece: N, value: 3, lo: 2.6, hi: 3.4, source: regression, scale: "R=5"}
  - {piece: R, value: 5, source: regression, scale: "R=5"}
  - {piece: N, value: 3.5, source: other, scale: "P=1"}
`

func TestMeasuredSource(t *testing.T) {
	tb, err := Parse("m.yaml", []byte(measuredDoc))
	if err != nil {
		t.Fatal(err)
	}
	src, _ := tb.Source("regression")
	if p := src.Provenance; p == nil || p.Games != 1200 || p.Positions != 50000 || p.Engine != "4f9d8fb" || p.Nodes != 2000 || p.Date != "2026-12-02" || p.Measurement[:4] != "fedc" {
		t.Fatalf("provenance %+v", src.Provenance)
	}
	if e := tb.Entries[1]; !e.HasInterval || e.Lo != 2.5 || e.Hi != 3.5 {
		t.Errorf("entry %+v, want the interval [2.5, 3.5]", e)
	}
	// In P=1: the P=1 entry with its interval; one value per source.
	vs, err := tb.Values("N", PawnOne)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0].Source.ID != "regression" || !vs[0].HasInterval || vs[0].Lo != 2.5 || vs[1].Source.ID != "other" || vs[1].HasInterval {
		t.Errorf("N in P=1: %+v", vs)
	}
	// In R=5: the source's own R=5 entry, not the P=1 one rescaled.
	vs, _ = tb.Values("N", RookFive)
	if len(vs) != 1 || vs[0].Value != 3 || !vs[0].HasInterval || vs[0].Lo != 2.6 || vs[0].Hi != 3.4 {
		t.Errorf("N in R=5: %+v", vs)
	}
	// In P=2, a constant rescaling of the P=1 system: the interval scales.
	vs, _ = tb.Values("N", Scale("P=2"))
	if len(vs) != 2 || vs[0].Value != 6 || !vs[0].HasInterval || vs[0].Lo != 5 || vs[0].Hi != 7 {
		t.Errorf("N in P=2: %+v", vs)
	}
	// In N=1, dividing by the uncertain knight: no interval.
	vs, _ = tb.Values("R", KnightOne)
	if len(vs) != 1 || vs[0].HasInterval {
		t.Errorf("R in N=1: %+v, want a value without interval", vs)
	}
}

func TestMeasuredErrors(t *testing.T) {
	cases := []struct{ name, old, new, want string }{
		{"lo without hi", "lo: 2.5, hi: 3.5, ", "lo: 2.5, ", "needs both lo and hi"},
		{"interval off the value", "lo: 2.5, hi: 3.5", "lo: 3.2, hi: 3.5", "does not contain the value 3"},
		{"interval on a rank", "{piece: N, value: 3.5, source: other, scale: \"P=1\"}", "{piece: N, rank: 1, lo: 1, hi: 2, source: other}", "needs a value"},
		{"bad hash", "config_sha256: 0123", "config_sha256: 9123Z", "not 64 lower-case hex"},
		{"bad measurement hash", "measurement: fedc", "measurement: FEDC", `measurement "FEDC`},
		{"bad date", "date: 2026-12-02", "date: 2 Dec 2026", `date "2 Dec 2026"`},
		{"no games", "games: 1200", "games: 0", "games 0"},
		{"no engine", "engine: 4f9d8fb", "engine: ''", "no engine build"},
		{"no method", "method: regression", "method: ''", "no method"},
		{"provenance on an estimate", "kind: measured", "kind: estimate", "provenance is for measured sources"},
		{"unknown provenance field", "nodes: 2000", "nodes: 2000\n      seed: 1", `unknown field "seed"`},
		{"same scale twice", "{piece: R, value: 5, source: regression, scale: \"R=5\"}", "{piece: R, value: 5, source: regression, scale: \"R=5\"}\n  - {piece: R, value: 5, source: regression, scale: \"R=5\"}", "listed twice"},
	}
	for _, c := range cases {
		if !strings.Contains(measuredDoc, c.old) {
			t.Fatalf("%s: fixture lacks %q", c.name, c.old)
		}
		_, err := Parse("m.yaml", []byte(strings.Replace(measuredDoc, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// TestEmbeddedMeasured: the embedded atlas loads (empty while no variant
// is measured), and every file in it has measured sources with
// provenance.
func TestEmbeddedMeasured(t *testing.T) {
	cat, err := EmbeddedMeasured()
	if err != nil {
		t.Fatal(err)
	}
	for v, tb := range cat {
		for _, s := range tb.Sources {
			if s.Kind != Measured || s.Provenance == nil {
				t.Errorf("%s: source %q is not a measured source with provenance", v, s.ID)
			}
		}
	}
}
