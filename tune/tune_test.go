package tune

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"tamerlane/internal/stats"
	"testing"

	"gonum.org/v1/gonum/mat"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/selfplay"
)

// truth is the table the synthetic results are drawn from: the default
// table with the Knight and Bishop values changed, so that a fit from the
// defaults must move to find them.
func truth(t *testing.T, v *engine.Variant) *eval.Weights {
	t.Helper()
	w, err := eval.Default(v)
	if err != nil {
		t.Fatal(err)
	}
	w = w.Clone()
	for name, x := range map[string]float64{"material.N.mg": 260, "material.N.eg": 260, "material.B.mg": 390, "material.B.eg": 390} {
		if err := w.Set(name, x); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// writeSyntheticRun writes a self-play-like run directory whose positions
// come from random playouts and whose results are drawn from the logistic
// model of the true table with K = 0.5 (a soft sigmoid keeps the
// lopsided positions of random play informative).
func writeSyntheticRun(t *testing.T, dir string, v *engine.Variant, games int, seed uint64) {
	t.Helper()
	writeSyntheticRunFrom(t, dir, truth(t, v), games, seed)
}

// writeSyntheticRunFrom is writeSyntheticRun with the results drawn from
// table tw.
func writeSyntheticRunFrom(t *testing.T, dir string, tw *eval.Weights, games int, seed uint64) {
	t.Helper()
	v := engine.MustVariant(tw.Variant(), nil)
	ev := eval.New(tw)
	rng := rand.New(rand.NewPCG(seed, 7))
	stream := filepath.Join(dir, v.Name)
	if err := os.MkdirAll(stream, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(stream, "positions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for g := 0; g < games; g++ {
		p := engine.NewPosition(v)
		plies := 20 + rng.IntN(60)
		var ml engine.MoveList
		for ply := 0; ply < plies; ply++ {
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			p.Make(ml.Moves[rng.IntN(ml.N)])
		}
		if r, _ := p.Outcome(); r != engine.Ongoing || p.InCheck() {
			continue
		}
		e := float64(ev.EvaluateWhite(p))
		prob := 1 / (1 + math.Pow(10, -0.5*e/400))
		result := 0.0
		if rng.Float64() < prob {
			result = 1
		}
		rec := selfplay.Record{FEN: p.FEN(), Result: result, Score: int(e), Ply: plies, Game: int64(g), Variant: v.Name, Rules: v.Options.String()}
		if err := enc.Encode(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestFitRecoversMaterialAndExportReproducesEval fits the material weights
// of synthetic data drawn from a known table: the fit recovers the changed
// values within their 95% intervals (and within 15%), and the exported
// table, loaded by the engine, evaluates every position as the fitted
// weights times the features.
func TestFitRecoversMaterialAndExportReproducesEval(t *testing.T) {
	// The large sample must also pin every value down to 15% (one SE).
	games, precision := 24000, 0.15
	if testing.Short() || raceOn {
		games, precision = 3000, math.Inf(1)
	}
	v := engine.MustVariant("chess", nil)
	data := t.TempDir()
	writeSyntheticRun(t, data, v, games, 1)
	out := t.TempDir()
	cfg, err := ParseConfig([]byte("free: [material.]\nquiet: false\nvalidation: 0.1\nprior_sd: 0 # an unbiased fit: no prior\n"), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), []string{data}, out, cfg.Options(nil))
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Fit("chess")
	if f == nil {
		t.Fatal("no chess fit")
	}
	// Piece values (mean of the middlegame and endgame weights) against
	// the truth: within 4 standard errors, mostly inside the 95% intervals.
	tw := truth(t, v)
	covered := 0
	for _, pv := range f.Pieces {
		if pv.Piece == "K" || pv.Piece == "P" {
			continue
		}
		mg, _ := tw.Get("material." + pv.Piece + ".mg")
		eg, _ := tw.Get("material." + pv.Piece + ".eg")
		want := (mg + eg) / 2
		got, se := float64(pv.Value), float64(pv.SE)
		if math.Abs(got-want) <= 1.96*se {
			covered++
		}
		if math.Abs(got-want) > 4*se || se > precision*want {
			t.Errorf("%s: fitted %.1f ± %.1f, true %.1f", pv.Piece, got, se, want)
		}
	}
	if covered < 2 {
		t.Errorf("only %d of 4 true values inside the 95%% intervals", covered)
	}
	if !(f.TrainMSE < f.StartTrainMSE) {
		t.Errorf("train MSE did not drop: %v -> %v", f.StartTrainMSE, f.TrainMSE)
	}

	// Export and load into the engine.
	path := filepath.Join(t.TempDir(), "chess.yaml")
	if err := Export(out, "chess", path); err != nil {
		t.Fatal(err)
	}
	w, err := eval.LoadFile(v, path)
	if err != nil {
		t.Fatal(err)
	}
	if w.Provenance.Positions != int64(f.Positions) || w.Provenance.Source != "texel tuning" {
		t.Errorf("provenance %+v", w.Provenance)
	}
	ev := eval.New(w)
	rng := rand.New(rand.NewPCG(3, 3))
	var buf []eval.Feature
	for i := 0; i < 200; i++ {
		p := engine.NewPosition(v)
		var ml engine.MoveList
		for ply := 0; ply < 40; ply++ {
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			p.Make(ml.Moves[rng.IntN(ml.N)])
		}
		buf = ev.Features(p, buf[:0])
		var sum float64
		for _, x := range buf {
			sum += float64(f.Weights[x.Index].Value) * float64(x.Value)
		}
		if got := ev.EvaluateWhite(p); math.Abs(float64(got)-sum) > 1 {
			t.Fatalf("%s: engine eval %d, fitted weights give %.2f", p.FEN(), got, sum)
		}
	}
}

// TestLoadFilters checks the position filters and the error for a
// truncated record.
func TestLoadFilters(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	dir := t.TempDir()
	writeSyntheticRun(t, dir, v, 300, 2)
	all, err := Load([]string{dir}, LoadOptions{KeepDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	late, err := Load([]string{dir}, LoadOptions{KeepDuplicates: true, MinPly: 60})
	if err != nil {
		t.Fatal(err)
	}
	if late["chess"].Train.Len() >= all["chess"].Train.Len() || late["chess"].Dropped["opening ply"] == 0 {
		t.Errorf("min_ply dropped nothing: %d vs %d", late["chess"].Train.Len(), all["chess"].Train.Len())
	}
	split, err := Load([]string{dir}, LoadOptions{KeepDuplicates: true, ValidFraction: 0.3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if n := split["chess"].Train.Len() + split["chess"].Valid.Len(); n != all["chess"].Train.Len() {
		t.Errorf("split lost positions: %d != %d", n, all["chess"].Train.Len())
	}
	// Truncate the last record mid-line.
	file := filepath.Join(dir, "chess", "positions.jsonl")
	b, _ := os.ReadFile(file)
	if err := os.WriteFile(file, b[:len(b)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load([]string{dir}, LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "positions.jsonl:") {
		t.Errorf("truncated data set: got %v, want an error naming the file and line", err)
	}
}

// TestLoadRunInProgress: a self-play run still playing (run.json, no
// summary.json yet) is read from its journals, and gives the positions
// its finished outputs give, the source marked as in progress.
func TestLoadRunInProgress(t *testing.T) {
	dir := greedyRun(t, "seed: 3\nnodes: 100\nmax_plies: 80\nopenings: {plies: 4, max_score: 0}\n"+
		"dataset: {positions_per_game: 8, skip_plies: 4}\nvariants:\n  - {variant: chess, pairs: 4}\n")
	opt := LoadOptions{ValidFraction: 0.25, Seed: 2}
	done, err := Load([]string{dir}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, selfplay.SummaryName)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "chess", selfplay.DatasetName)); err != nil {
		t.Fatal(err)
	}
	running, err := Load([]string{dir}, opt)
	if err != nil {
		t.Fatal(err)
	}
	a, b := done["chess"], running["chess"]
	if a.Read == 0 || a.Read != b.Read || a.Train.Len() != b.Train.Len() || a.Valid.Len() != b.Valid.Len() {
		t.Fatalf("finished run: %d read, %d+%d kept; running: %d read, %d+%d kept",
			a.Read, a.Train.Len(), a.Valid.Len(), b.Read, b.Train.Len(), b.Valid.Len())
	}
	if len(b.Sources) != 1 || !strings.HasSuffix(b.Sources[0], "(in progress)") {
		t.Errorf("sources of the running run: %q", b.Sources)
	}
}

// TestRatioDeltaMethod checks a ratio and its interval against a hand
// computation of the delta method.
func TestRatioDeltaMethod(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	w, _ := eval.Default(v)
	f := &VariantFit{Variant: "chess"}
	reg := w.Registry()
	for i := 0; i < reg.Len(); i++ {
		f.Weights = append(f.Weights, Weight{Name: reg.Name(i), Value: stats.Float(w.Values[i])})
	}
	f.cov = mat.NewSymDense(reg.Len(), nil)
	// Pawn weights (indices of material.P) and Knight weights.
	pi, _ := reg.Index("material.P.mg")
	ni, _ := reg.Index("material.N.mg")
	f.cov.SetSym(pi, pi, 16)
	f.cov.SetSym(pi+1, pi+1, 16)
	f.cov.SetSym(ni, ni, 100)
	f.cov.SetSym(ni+1, ni+1, 100)
	f.cov.SetSym(pi, ni, 10)
	f.pieceValues(w)
	var knight PieceValue
	for _, pv := range f.Pieces {
		if pv.Piece == "N" {
			knight = pv
		}
	}
	iv, err := f.Ratio(knight, "P", 1)
	if err != nil {
		t.Fatal(err)
	}
	// a = (N.mg+N.eg)/2, b = (P.mg+P.eg)/2 (325 and 100 in the hand
	// table); var a = (100+100)/4 = 50, var b = (16+16)/4 = 8,
	// cov = 10/4 = 2.5.
	a, b := (w.Values[ni]+w.Values[ni+1])/2, (w.Values[pi]+w.Values[pi+1])/2
	r := a / b
	se := math.Sqrt(r * r * (50/(a*a) + 8/(b*b) - 2*2.5/(a*b)))
	if math.Abs(float64(iv.Value)-r) > 1e-9 || math.Abs(float64(iv.Hi-iv.Value)-1.959963984540054*se) > 1e-9 {
		t.Errorf("ratio %v [%v, %v], want %v ± %v", iv.Value, iv.Lo, iv.Hi, r, 1.96*se)
	}
}

// TestConfigErrors checks that configuration mistakes name file and line.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"lamda: 0.5\n", `t.yaml:1: lamda: unknown field "lamda"`},
		{"lambda: 2\n", "t.yaml:1: lambda: 2 is not in [0, 1]"},
		{"prior_sd: -1\n", "t.yaml:1: prior_sd: -1 is negative"},
		{"validation: x\n", "t.yaml:1: validation: wrong type"},
		// A typo in a free prefix is refused: it would fit nothing.
		{"variants: [chess]\nfree:\n  - material.\n  - materal.\n", `t.yaml:4: free[1]: prefix "materal." matches no weight of chess`},
		{"max_iterations: -1\n", "t.yaml:1: max_iterations: must not be negative"},
	} {
		_, err := ParseConfig([]byte(tc.yaml), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

// TestStartTableRelative checks that a configuration's start table is
// read relative to the configuration file's directory, not the working
// directory.
func TestStartTableRelative(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	w, err := eval.Default(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Set("material.N.mg", 333); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := w.WriteFile(filepath.Join(dir, "start.yaml")); err != nil {
		t.Fatal(err)
	}
	cpath := filepath.Join(dir, "tune.yaml")
	if err := os.WriteFile(cpath, []byte("variants: [chess]\ntables: {chess: start.yaml}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(cpath)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	got, err := c.Options(nil).Start(v)
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := got.Get("material.N.mg"); x != 333 {
		t.Errorf("start table material.N.mg = %v, want 333 (from %s)", x, dir)
	}
}
