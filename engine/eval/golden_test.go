package eval

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tamerlane/engine"
)

// The golden file records the evaluation (White's view) of random
// positions of every variant under the hand tables (handTable, which
// wrote data/weights before any tuned table was applied), as computed by
// the evaluator before the feature terms (features.go) existed. New terms
// get hand weight 0, so the hand tables must still give exactly these
// numbers. Rewrite (only when a hand table changes on purpose) with
//
//	go test ./engine/eval -run TestHandEvalGolden -golden
var golden = flag.Bool("golden", false, "rewrite testdata/hand-evals.txt from the current evaluator")

const goldenPath = "testdata/hand-evals.txt"

// TestHandEvalGolden checks that the hand tables evaluate every recorded
// position exactly as before (FEN, then the evaluation from White's view).
func TestHandEvalGolden(t *testing.T) {
	if *golden {
		writeGolden(t)
	}
	f, err := os.Open(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs := map[string]*Evaluator{}
	vars := map[string]*engine.Variant{}
	per := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.Split(text, "\t")
		if len(parts) != 3 {
			t.Fatalf("%s:%d: want variant, FEN and eval separated by tabs", goldenPath, line)
		}
		want, err := strconv.Atoi(parts[2])
		if err != nil {
			t.Fatalf("%s:%d: %v", goldenPath, line, err)
		}
		v := vars[parts[0]]
		if v == nil {
			if v, err = engine.NewVariant(parts[0], nil); err != nil {
				t.Fatalf("%s:%d: %v", goldenPath, line, err)
			}
			vars[v.Name] = v
			evs[v.Name] = New(handTable(t, v))
		}
		ev := evs[v.Name]
		pos, err := engine.ParseFEN(v, parts[1])
		if err != nil {
			t.Fatalf("%s:%d: %v", goldenPath, line, err)
		}
		if got := ev.EvaluateWhite(pos); got != want {
			t.Errorf("%s:%d: %s %s: eval %d, recorded %d", goldenPath, line, v.Name, parts[1], got, want)
		}
		per[v.Name]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, name := range engine.VariantNames() {
		if per[name] < 50 {
			t.Errorf("%s: only %d recorded positions", name, per[name])
		}
	}
}

func writeGolden(t *testing.T) {
	var b strings.Builder
	b.WriteString("# variant\tFEN\tevaluation (White's view) under the hand tables; see golden_test.go\n")
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		ev := New(handTable(t, v))
		for _, pos := range samples(v, 31, 80, 200) {
			fmt.Fprintf(&b, "%s\t%s\t%d\n", name, pos.FEN(), ev.EvaluateWhite(pos))
		}
	}
	if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goldenPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
