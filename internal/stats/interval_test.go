package stats

import (
	"encoding/json"
	"math"
	"testing"
)

func same(a, b Float) bool {
	return a == b || math.IsNaN(float64(a)) && math.IsNaN(float64(b))
}

func sameInterval(a, b Interval) bool {
	return same(a.Value, b.Value) && same(a.Lo, b.Lo) && same(a.Hi, b.Hi) && same(a.SE, b.SE)
}

// TestIntervalJSON checks the one encoding ({"value","lo","hi","se"}, NaN
// as null) round-trips, and that the field names of summary.json and
// report.json written before the interval types were merged
// ({"mean","low","high"}) still read.
func TestIntervalJSON(t *testing.T) {
	iv := NewInterval(0.5, 0.1)
	if got, want := float64(iv.Lo), 0.5-Z95*0.1; got != want {
		t.Fatalf("NewInterval lo = %v, want %v", got, want)
	}
	b, err := json.Marshal(iv)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	if err := json.Unmarshal(b, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"value", "lo", "hi", "se"} {
		if _, ok := keys[k]; !ok || len(keys) != 4 {
			t.Fatalf("encoding %s: want exactly the keys value, lo, hi, se", b)
		}
	}
	var back Interval
	if err := json.Unmarshal(b, &back); err != nil || !sameInterval(back, iv) {
		t.Fatalf("round trip %s: %+v, %v; want %+v", b, back, err, iv)
	}
	unknown, err := json.Marshal(UnknownInterval())
	if err != nil || string(unknown) != `{"value":null,"lo":null,"hi":null,"se":null}` {
		t.Fatalf("unknown interval encodes as %s, %v", unknown, err)
	}
	nan := Float(math.NaN())
	for _, c := range []struct {
		in   string
		want Interval
	}{
		{`{"mean":0.625,"low":0.5,"high":0.75}`, Interval{0.625, 0.5, 0.75, nan}},
		{`{"mean":null,"low":null,"high":null}`, UnknownInterval()},
		{`{"value":1,"lo":0,"hi":2,"mean":9,"low":9,"high":9}`, Interval{1, 0, 2, nan}},
		{`{"value":3}`, Interval{3, nan, nan, nan}},
	} {
		var got Interval
		if err := json.Unmarshal([]byte(c.in), &got); err != nil || !sameInterval(got, c.want) {
			t.Errorf("%s: got %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	var bad struct{ Score Interval }
	if err := json.Unmarshal([]byte(`{"Score":{"value":"x"}}`), &bad); err == nil {
		t.Error("a string value was accepted")
	}
}

func TestIntervalFormatClipCovers(t *testing.T) {
	for _, c := range []struct {
		iv   Interval
		want string
	}{
		{Interval{3.125, 2.904, 3.344, 0.1}, "3.12 [2.90, 3.34]"},
		{Interval{3.125, Float(math.NaN()), 3.344, 0.1}, "3.12"},
		{UnknownInterval(), "–"},
	} {
		if got := c.iv.Format(2); got != c.want {
			t.Errorf("Format(%+v) = %q, want %q", c.iv, got, c.want)
		}
	}
	if c := NewInterval(0.95, 0.1).Clip(0, 1); c.Hi != 1 || c.Lo != Float(0.95-Z95*0.1) {
		t.Errorf("Clip: %+v", c)
	}
	iv := Interval{1, 0.5, 1.5, 0.25}
	if !iv.Covers(0.5) || !iv.Covers(1.5) || iv.Covers(1.6) || iv.Covers(0.4) || UnknownInterval().Covers(0) {
		t.Errorf("Covers is wrong for %+v or the unknown interval", iv)
	}
}
