package stats

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

func TestZ(t *testing.T) {
	if d := math.Abs(Z(0.95) - Z95); d > 1e-12 {
		t.Errorf("Z(0.95) = %v, Z95 = %v", Z(0.95), Z95)
	}
	if z := Z(0.99); math.Abs(z-2.5758293035489) > 1e-9 {
		t.Errorf("Z(0.99) = %v", z)
	}
}

// TestPinvSym checks the pseudo-inverse of a singular matrix: the inverse
// on its range, and the null coordinate reported as not identified.
func TestPinvSym(t *testing.T) {
	// diag(4, 2) on coordinates 0 and 1; coordinates 2 and 3 are tied
	// (only their sum is determined): [[1, 1], [1, 1]].
	a := mat.NewSymDense(4, []float64{
		4, 0, 0, 0,
		0, 2, 0, 0,
		0, 0, 1, 1,
		0, 0, 1, 1,
	})
	inv, ident, err := PinvSym(a)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.25, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.25, 0.25, 0, 0, 0.25, 0.25}
	for i := range 4 {
		for j := range 4 {
			if d := math.Abs(inv.At(i, j) - want[4*i+j]); d > 1e-12 {
				t.Errorf("inv[%d][%d] = %v, want %v", i, j, inv.At(i, j), want[4*i+j])
			}
		}
	}
	if !ident[0] || !ident[1] || ident[2] || ident[3] {
		t.Errorf("identified %v, want [true true false false]", ident)
	}
	zero, ident, err := PinvSym(mat.NewSymDense(2, nil))
	if err != nil || zero.At(0, 0) != 0 || ident[0] {
		t.Errorf("zero matrix: %v %v %v", mat.Formatted(zero), ident, err)
	}
}

func TestConverged(t *testing.T) {
	for _, c := range []struct {
		status optimize.Status
		err    error
		f0, f  float64
		want   bool
	}{
		{optimize.Success, nil, 1, 0.5, true},
		{optimize.IterationLimit, optimize.IterationLimit.Err(), 1, 0.9, true},
		{optimize.Failure, optimize.ErrLinesearcherFailure, 1, 1, true},
		{optimize.Failure, optimize.ErrNonDescentDirection, 1, 1, false},
		{optimize.Failure, optimize.ErrLinesearcherFailure, 1, math.NaN(), false},
		{optimize.NotTerminated, errors.New("boom"), 1, 0.5, false},
	} {
		got, err := Converged(c.status, c.err, c.f0, c.f)
		if got != c.want || (err == nil) != c.want {
			t.Errorf("%v %v %v->%v: %v, %v; want %v", c.status, c.err, c.f0, c.f, got, err, c.want)
		}
	}
}

func TestFloatJSON(t *testing.T) {
	type doc struct {
		A Float  `json:"a"`
		B Float4 `json:"b"`
		C Float  `json:"c"`
		D Float4 `json:"d"`
	}
	b, err := json.Marshal(doc{A: 1.0 / 3, B: 1.0 / 3, C: Float(math.NaN()), D: -0.00001})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"a":0.3333333333333333,"b":0.3333,"c":null,"d":0}` {
		t.Errorf("got %s", b)
	}
	var back doc
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.A != 1.0/3 || back.B != 0.3333 || !math.IsNaN(float64(back.C)) {
		t.Errorf("read back %+v", back)
	}
	if Format(math.NaN(), 1) != "–" || Float4(2.25).Format(1) != "2.2" && Float4(2.25).Format(1) != "2.3" || Float(1).Format(2) != "1.00" {
		t.Errorf("Format: %q %q %q", Format(math.NaN(), 1), Float4(2.25).Format(1), Float(1).Format(2))
	}
}
