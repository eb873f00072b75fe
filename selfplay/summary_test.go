package selfplay

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"tamerlane/selfplay/elo"
)

// TestReadSummaryFormat1 reads a summary.json written before the interval
// types were merged (its score is {"mean","low","high"}; testdata file
// from an imbalance round of a chess measurement) and checks the score
// reads into the merged interval, agrees with what pairScore computes
// from the same pentanomial today, and survives a round trip in the
// current encoding.
func TestReadSummaryFormat1(t *testing.T) {
	sum, err := ReadSummary(filepath.Join("testdata", "summary-format1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Streams) == 0 {
		t.Fatal("no streams read")
	}
	for _, s := range sum.Streams {
		got := s.Score
		if float64(got.Value) != float64(s.FirstPlayer.Score) || math.IsNaN(float64(got.Lo)) || math.IsNaN(float64(got.Hi)) {
			t.Fatalf("%s: score %+v, first player's score %v", s.Name, got, s.FirstPlayer.Score)
		}
		want := pairScore(elo.Pentanomial(s.Pentanomial))
		for _, c := range [][2]float64{{float64(got.Value), float64(want.Value)}, {float64(got.Lo), float64(want.Lo)}, {float64(got.Hi), float64(want.Hi)}} {
			if math.Abs(c[0]-c[1]) > 0.5e-4 { // the old file rounds to 4 decimals
				t.Errorf("%s: read %+v, pairScore gives %+v", s.Name, got, want)
			}
		}
		b, err := json.Marshal(s.Score)
		if err != nil {
			t.Fatal(err)
		}
		var back StreamSummary
		if err := json.Unmarshal([]byte(`{"score":`+string(b)+`}`), &back); err != nil ||
			back.Score.Value != got.Value || back.Score.Lo != got.Lo || back.Score.Hi != got.Hi {
			t.Errorf("%s: %s reads back as %+v, %v", s.Name, b, back.Score, err)
		}
	}
}
