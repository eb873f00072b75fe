package values

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tamerlane/selfplay"
)

// TestConcludeRecord: a plan is concluded at the round after those begun
// ("now") or at a later round, never before a round that has begun, once
// (the same round again is kept, another refused), and not after it has
// ended; a damaged record is an error naming its file.
func TestConcludeRecord(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	idir := filepath.Join(t.TempDir(), "imbalance")
	if _, err := conclude(idir, ConcludeNow, now); err == nil || !strings.Contains(err.Error(), "played no round") {
		t.Errorf("conclude now before a round: %v", err)
	}
	for _, r := range []string{"round-000", "round-001", "round-002", "round-x", "start.json"} {
		if err := os.MkdirAll(filepath.Join(idir, r), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conclude(idir, 2, now); err == nil || !strings.Contains(err.Error(), "round 2 has begun") {
		t.Errorf("conclude at a round begun: %v", err)
	}
	if r, err := readConclusion(idir); r != 0 || err != nil {
		t.Errorf("a refused conclusion was recorded: %d, %v", r, err)
	}
	if r, err := conclude(idir, ConcludeNow, now); r != 3 || err != nil {
		t.Errorf("conclude now after rounds 0-2: round %d, %v; want 3", r, err)
	}
	if r, err := conclude(idir, 3, now); r != 3 || err != nil {
		t.Errorf("the same round again: %d, %v", r, err)
	}
	if _, err := conclude(idir, 9, now); err == nil || !strings.Contains(err.Error(), "was concluded at round 3") {
		t.Errorf("another round after a conclusion: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(idir, concludeFile))
	if err != nil || !strings.Contains(string(b), `"end_round": 3`) || !strings.Contains(string(b), `"recorded": "2026-12-03T12:00:00Z"`) {
		t.Errorf("conclude.json %s (%v)", b, err)
	}
	if err := os.WriteFile(filepath.Join(idir, concludeFile), []byte(`{"end_round": 0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readConclusion(idir); err == nil || !strings.Contains(err.Error(), concludeFile) {
		t.Errorf("a record of round 0: %v", err)
	}
	if err := os.WriteFile(filepath.Join(idir, planFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := conclude(idir, ConcludeNow, now); err == nil || !strings.Contains(err.Error(), "has ended") {
		t.Errorf("conclude an ended plan: %v", err)
	}
	for _, s := range []string{"0", "-1", "x", ""} {
		if _, err := ParseConclude(s); err == nil {
			t.Errorf("ParseConclude(%q) accepted", s)
		}
	}
	if r, err := ParseConclude("now"); r != ConcludeNow || err != nil {
		t.Errorf("ParseConclude(now) = %d, %v", r, err)
	}
}

// TestMeasureConclude: a measurement concluded at round 2 plays two
// rounds of its pieces' matches and then its check matches, records the
// pieces it stopped in plan.json, says so in its values document, and
// resumes to the same values, with or without -conclude again.
func TestMeasureConclude(t *testing.T) {
	cfg := matchesOnly(t, "{pieces: [N, R], half_width: 0.01, batch_pairs: 4, max_pairs: 400, check_pairs: 4, start: {N: 3, R: 5}}")
	dir := filepath.Join(t.TempDir(), "m")
	measure := func(conclude int) *Document {
		t.Helper()
		if err := Run(context.Background(), cfg, dir, RunOptions{Workers: 2, Factory: selfplay.GreedyFactory(), Conclude: conclude}); err != nil {
			t.Fatal(err)
		}
		return measureDir(t, dir, nil, Options{})
	}
	doc := measure(2)
	idir := filepath.Join(dir, "chess", "imbalance")
	var plan ImbalanceResult
	b, err := os.ReadFile(filepath.Join(idir, planFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &plan); err != nil {
		t.Fatal(err)
	}
	checks := 0
	for _, m := range plan.Matches {
		switch {
		case m.Check:
			checks++
		case m.Pairs > 8:
			t.Errorf("%s: %d pairs, beyond the two rounds of 4 before the conclusion", m.Name, m.Pairs)
		}
	}
	if checks == 0 || plan.EndRound != 2 || plan.Rounds != 3 {
		t.Errorf("plan: %d checks, end round %d, %d rounds; want checks, 2 and 3 (two rounds and a check round)", checks, plan.EndRound, plan.Rounds)
	}
	want := []ConcludedPlan{{Dir: idir, Variant: "chess", EndRound: 2, Pieces: []string{"N", "R"}}}
	wb, _ := json.Marshal(want)
	if g, _ := json.Marshal(doc.ConcludedPlans); string(g) != string(wb) {
		t.Errorf("concluded plans %s, want %s", g, wb)
	}
	if md := doc.Markdown(); !strings.Contains(md, "**Concluded imbalance plan** "+idir+": ended at round 2 by `tamerlane measure -conclude`, before its targets or caps (the matches of N, R stopped there)") {
		t.Errorf("the values document does not say the plan was concluded:\n%s", md)
	}
	a, _ := json.Marshal(doc)
	for _, again := range []int{0, ConcludeNow, 5} {
		if b, _ := json.Marshal(measure(again)); string(a) != string(b) {
			t.Errorf("resumed with conclude %d: the document differs:\n%s\n%s", again, a, b)
		}
	}
	if err := Run(context.Background(), cfg, dir, RunOptions{Factory: selfplay.GreedyFactory(), Conclude: 2, Stage: "selfplay"}); err == nil {
		t.Error("a conclusion with the self-play stage alone was accepted")
	}
}
