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

// TestBootstrapInterval checks the percentile interval of bootstrap
// replicates: the empirical 2.5% and 97.5% quantiles, NaN and infinities
// left out, the SD as SE, the normal interval below
// MinPercentileReplicates finite replicates and none below two.
func TestBootstrapInterval(t *testing.T) {
	reps := make([]float64, 0, 1003)
	for i := 1000; i >= 1; i-- { // unsorted on purpose
		reps = append(reps, float64(i))
	}
	reps = append(reps, math.NaN(), math.Inf(1), math.Inf(-1))
	iv := BootstrapInterval(500, reps)
	if iv.Value != 500 || iv.Lo != 25 || iv.Hi != 975 {
		t.Errorf("1..1000: %+v, want 500 [25, 975]", iv)
	}
	if want := math.Sqrt(1000 * 1001 / 12.0); math.Abs(float64(iv.SE)-want) > 0.01 {
		t.Errorf("1..1000: SE %v, want the sample SD %v", iv.SE, want)
	}
	if !math.IsNaN(reps[1000]) || reps[0] != 1000 {
		t.Error("BootstrapInterval reordered its argument")
	}
	// A ratio with a noisy denominator: the interval is skewed as the
	// replicates are, where the normal one would be symmetric.
	var ratio []float64
	for i := range 2000 {
		den := 1 + 0.3*(float64(i%2000)/1999-0.5)
		ratio = append(ratio, 2/den)
	}
	r := BootstrapInterval(2, ratio)
	if !(float64(r.Hi)-2 > 2-float64(r.Lo)) || !r.Covers(2) {
		t.Errorf("ratio: %+v, want an interval around 2 longer above than below", r)
	}
	few := []float64{1, 2, 3, math.NaN()}
	if got, want := BootstrapInterval(2, few), NewInterval(2, 1); got != want {
		t.Errorf("three finite replicates: %+v, want the normal interval %+v", got, want)
	}
	one := BootstrapInterval(2, []float64{1, math.NaN()})
	if one.Value != 2 || !math.IsNaN(float64(one.Lo)) || !math.IsNaN(float64(one.Hi)) || !math.IsNaN(float64(one.SE)) {
		t.Errorf("one finite replicate: %+v, want the value with an unknown interval", one)
	}
}
