package eval

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/enginetest"
)

// samples returns random playout positions of every length up to plies.
func samples(v *engine.Variant, seed uint64, games, plies int) []*engine.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []*engine.Position
	for g := 0; g < games; g++ {
		n := rng.IntN(plies + 1)
		out = append(out, enginetest.Playout(v, rng, n))
	}
	return out
}

func defaultWeights(t testing.TB, v *engine.Variant) *Weights {
	t.Helper()
	w, err := Default(v)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestTablesLoad loads every data/weights/*.yaml for its variant, checks
// that every variant has one, and that the embedded default is that file.
func TestTablesLoad(t *testing.T) {
	dir := filepath.Join("..", "..", "data", "weights")
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		v, err := engine.NewVariant(name, nil)
		if err != nil {
			t.Errorf("%s: not a variant: %v", f, err)
			continue
		}
		w, err := LoadFile(v, f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		have[name] = true
		if w.Provenance.Source == "" || w.Provenance.Date == "" || w.Provenance.Notes == "" {
			t.Errorf("%s: incomplete provenance %+v", f, w.Provenance)
		}
		d := defaultWeights(t, v)
		if diff, _ := Diff(w, d); len(diff) > 0 {
			t.Errorf("%s: embedded default differs: %v", f, diff)
		}
	}
	for _, name := range engine.VariantNames() {
		if !have[name] {
			t.Errorf("no table data/weights/%s.yaml", name)
		}
	}
}

// TestRegistryIgnoresOptions: rule options change movement, not the
// registry.
func TestRegistryIgnoresOptions(t *testing.T) {
	for _, o := range []string{"giraffe=2", "picket=bishop,citadels=off", "swap=off"} {
		opts, _ := engine.ParseOptions(o)
		v := engine.MustVariant("tamerlane", opts)
		if !slices.Equal(RegistryOf(v).Names(), RegistryOf(engine.MustVariant("tamerlane", nil)).Names()) {
			t.Errorf("%s: different registry", o)
		}
		w := defaultWeights(t, v)
		ev := New(w)
		for _, pos := range samples(v, 3, 20, 80) {
			_ = ev.Evaluate(pos)
		}
	}
}

func TestWeightCounts(t *testing.T) {
	for _, name := range engine.VariantNames() {
		r := RegistryOf(engine.MustVariant(name, nil))
		if r.Len() < 20 || r.Len() > 800 {
			t.Errorf("%s: %d weights", name, r.Len())
		}
		for i := 0; i < r.Len(); i++ {
			if j, ok := r.Index(r.Name(i)); !ok || j != i {
				t.Errorf("%s: index of %s = %d, want %d", name, r.Name(i), j, i)
			}
			if r.Doc(i) == "" {
				t.Errorf("%s: %s has no doc", name, r.Name(i))
			}
		}
		t.Logf("%-18s %3d weights, phase total %d", name, r.Len(), r.PhaseTotal())
	}
}

// TestParity checks eval = Σ w_i x_i on random positions of every variant
// and of the example variant files (configs/variants), with the default
// tables and with random non-integer weights.
func TestParity(t *testing.T) {
	for _, v := range allVariants(t) {
		name := v.Name
		tables := []*Weights{defaultWeights(t, v)}
		rw := NewWeights(v)
		rng := rand.New(rand.NewPCG(11, 12))
		for i := range rw.Values {
			rw.Values[i] = math.Round((rng.Float64()*60-30)*1000) / 1000
		}
		tables = append(tables, rw)
		for ti, w := range tables {
			ev := New(w)
			var buf []Feature
			for _, pos := range samples(v, 5, 30, 150) {
				buf = ev.Features(pos, buf[:0])
				var sum float64
				last := int32(-1)
				for _, f := range buf {
					if f.Index <= last {
						t.Fatalf("%s: features not in increasing order", name)
					}
					last = f.Index
					sum += w.Values[f.Index] * float64(f.Value)
				}
				got := ev.EvaluateWhite(pos)
				if math.Abs(float64(got)-sum) > 0.51 {
					t.Errorf("%s table %d: %s: Evaluate %d, Σ w·x = %.4f", name, ti, pos.FEN(), got, sum)
				}
				stm := ev.Evaluate(pos)
				if pos.SideToMove() == engine.Black {
					stm = -stm
				}
				if stm != got {
					t.Errorf("%s: Evaluate side-to-move sign wrong", name)
				}
			}
		}
	}
}

// rotate returns the position turned by 180 degrees with the colours
// swapped and the other side to move: its evaluation (White's view) is the
// negation of pos's.
func rotate(t *testing.T, pos *engine.Position) *engine.Position {
	v := pos.Variant()
	tok := func(pc engine.Piece) string {
		s := v.Def(pc.Type()).Token
		if pc.Color() == engine.White { // swapped
			return strings.ToLower(s)
		}
		return s
	}
	var b strings.Builder
	for r := v.Ranks - 1; r >= 0; r-- {
		sr := v.Ranks - 1 - r
		if s := engine.SquareAt(v.Files, sr); v.IsCitadel(s) && pos.At(s) != engine.Empty {
			b.WriteString("[" + tok(pos.At(s)) + "]")
		}
		empty := 0
		for f := 0; f < v.Files; f++ {
			pc := pos.At(engine.SquareAt(v.Files-1-f, sr))
			if pc == engine.Empty {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteString(tok(pc))
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if s := engine.SquareAt(-1, sr); v.IsCitadel(s) && pos.At(s) != engine.Empty {
			b.WriteString("[" + tok(pos.At(s)) + "]")
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	side := " b "
	if pos.SideToMove() == engine.Black {
		side = " w "
	}
	fourth := "-"
	if v.PawnOfPawns {
		fourth = strconv.Itoa(pos.PawnOfPawnsArrivals(engine.Black)) + strconv.Itoa(pos.PawnOfPawnsArrivals(engine.White))
	}
	fen := b.String() + side + "- " + fourth
	q, err := engine.ParseFEN(v, fen)
	if err != nil {
		t.Fatalf("rotate %s: %v", pos.FEN(), err)
	}
	return q
}

// TestSymmetry: turning the board and swapping colours negates the eval,
// in the built-in variants and the example variant files.
func TestSymmetry(t *testing.T) {
	for _, v := range allVariants(t) {
		name := v.Name
		ev := New(defaultWeights(t, v))
		for _, pos := range samples(v, 9, 40, 120) {
			q := rotate(t, pos)
			a, b := ev.EvaluateWhite(pos), ev.EvaluateWhite(q)
			if a != -b {
				ra, pa := ev.Raw(pos)
				rb, pb := ev.Raw(q)
				t.Errorf("%s: eval %d, rotated %d\n%s\n%s\n%v %d\n%v %d", name, a, b, pos.FEN(), q.FEN(), ra, pa, rb, pb)
			}
		}
	}
}

// TestStartPositionBalanced checks that every term but the tempo cancels
// in each variant's start position, under the embedded (possibly tuned)
// table: the evaluation is the tempo's middlegame weight (the start is
// at full phase).
func TestStartPositionBalanced(t *testing.T) {
	for _, v := range allVariants(t) {
		name := v.Name
		w := defaultWeights(t, v)
		ev := New(w)
		pos := engine.NewPosition(v)
		raw, phase := ev.Raw(pos)
		if phase != Phase {
			t.Errorf("%s: start phase %d, want %d", name, phase, Phase)
		}
		for k, x := range raw {
			if k != "tempo" && k != "royal.attacked" && x != 0 {
				// The Tamerlane arrays are rotated, so every term but tempo cancels.
				t.Errorf("%s: start position term %s = %d", name, k, x)
			}
		}
		tempo, ok := w.Get("tempo.mg")
		if !ok {
			t.Fatalf("%s: no tempo.mg weight", name)
		}
		if e, want := ev.Evaluate(pos), int(math.Round(tempo)); e != want {
			t.Errorf("%s: start eval %d, want the tempo %d", name, e, want)
		}
	}
}

func TestEvaluateNoAlloc(t *testing.T) {
	for _, v := range allVariants(t) {
		name := v.Name
		ev := New(defaultWeights(t, v))
		ps := samples(v, 1, 8, 100)
		n := testing.AllocsPerRun(20, func() {
			for _, p := range ps {
				ev.Evaluate(p)
			}
		})
		if n != 0 {
			t.Errorf("%s: Evaluate allocates %.1f times", name, n)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		w := NewWeights(v)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range w.Values {
			switch i % 4 {
			case 0:
				w.Values[i] = float64(rng.IntN(2000) - 1000)
			case 1:
				w.Values[i] = rng.NormFloat64() * 100
			case 2:
				w.Values[i] = rng.Float64() * 1e-7
			default:
				w.Values[i] = 0.1 + 0.2
			}
		}
		w.Provenance = Provenance{Source: "texel tuning: test", Date: "2026-11-21",
			Notes: "line one\nline: two # not a comment\n  indented", Run: "run-7", Positions: 123456, Loss: 0.0712345678901}
		dir := t.TempDir()
		path := filepath.Join(dir, name+".yaml")
		if err := w.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		got, err := LoadFile(v, path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range w.Values {
			if math.Float64bits(got.Values[i]) != math.Float64bits(w.Values[i]) {
				t.Errorf("%s: %s = %v after round trip, want %v", name, w.reg.names[i], got.Values[i], w.Values[i])
			}
		}
		if got.Provenance != w.Provenance {
			t.Errorf("%s: provenance %+v, want %+v", name, got.Provenance, w.Provenance)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("WriteFile left %d files", len(entries))
		}
		// Writing the loaded table again gives the same bytes.
		var a, b bytes.Buffer
		if err := w.Write(&a); err != nil {
			t.Fatal(err)
		}
		if err := got.Write(&b); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%s: second write differs", name)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	good := handTableText(t, v)
	// Each case names the line and the field its error must carry
	// ("file:line: field: ..."), and a fragment of the reason.
	cases := []struct {
		name, text  string
		line        int
		field, want string
	}{
		{"unknown weight", strings.Replace(good, "material.N.mg:", "material.Z.mg:", 1), lineOf(t, good, "material.N.mg:"), "weights.material.Z.mg", `unknown weight "material.Z.mg"`},
		{"missing weight", strings.Replace(good, "  tempo.eg: 6\n", "", 1), lineOf(t, good, "weights:"), "weights", "missing weight tempo.eg"},
		{"bad value", strings.Replace(good, "material.B.eg: 325", "material.B.eg: lots", 1), lineOf(t, good, "material.B.eg:"), "weights.material.B.eg", `want float64, got !!str "lots"`},
		{"bool value", strings.Replace(good, "material.B.eg: 325", "material.B.eg: true", 1), lineOf(t, good, "material.B.eg:"), "weights.material.B.eg", `want float64, got !!bool`},
		{"empty value", strings.Replace(good, "material.B.eg: 325", "material.B.eg:", 1), lineOf(t, good, "material.B.eg:"), "weights.material.B.eg", "no value"},
		{"inf value", strings.Replace(good, "material.B.eg: 325", "material.B.eg: .inf", 1), lineOf(t, good, "material.B.eg:"), "weights.material.B.eg", "value +Inf out of range"},
		{"wrong variant", strings.Replace(good, "variant: chess", "variant: shatranj", 1), lineOf(t, good, "variant: chess"), "variant", `table is for variant "shatranj", want "chess"`},
		{"no variant", strings.Replace(good, "variant: chess\n", "", 1), 0, "variant", "missing"},
		{"duplicate", strings.Replace(good, "  tempo.eg: 6\n", "  tempo.eg: 6\n  tempo.eg: 7\n", 1), lineOf(t, good, "tempo.eg:") + 1, "weights.tempo.eg", `"tempo.eg" given twice`},
		{"unknown key", strings.Replace(good, "variant: chess", "variant: chess\ncolour: blue", 1), lineOf(t, good, "variant: chess") + 1, "colour", `unknown field "colour"`},
		{"no source", strings.Replace(good, "  source: hand values\n", "", 1), lineOf(t, good, "provenance:"), "provenance.source", "missing"},
		{"no date", strings.Replace(good, "  date: ", "  run: ", 1), lineOf(t, good, "provenance:"), "provenance.date", "missing"},
		{"bad provenance key", strings.Replace(good, "  source: hand values\n", "  source: hand values\n  author: me\n", 1), lineOf(t, good, "source:") + 1, "provenance.author", `unknown field "author"`},
		{"fractional positions", strings.Replace(good, "  source: hand values\n", "  source: hand values\n  positions: 1.5\n", 1), lineOf(t, good, "source:") + 1, "provenance.positions", "want int64"},
		{"negative positions", strings.Replace(good, "  source: hand values\n", "  source: hand values\n  positions: -3\n", 1), lineOf(t, good, "source:") + 1, "provenance.positions", "non-negative"},
		{"not a mapping", "- chess\n", 1, "", "want a mapping"},
	}
	for _, c := range cases {
		_, err := Load(v, strings.NewReader(c.text), "tables/chess.yaml")
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		prefix := "tables/chess.yaml:" + strconv.Itoa(c.line) + ": "
		if c.line == 0 {
			prefix = "tables/chess.yaml: "
		}
		if c.field != "" {
			prefix += c.field + ": "
		}
		found := false
		for _, e := range strings.Split(err.Error(), "\n") {
			found = found || strings.HasPrefix(e, prefix) && strings.Contains(e, c.want)
		}
		if !found {
			t.Errorf("%s: error %q, want a line with prefix %q and %q", c.name, err, prefix, c.want)
		}
	}
	// A YAML syntax error names the file and the line too.
	_, err := Load(v, strings.NewReader("variant: chess\nweights: [\n"), "x.yaml")
	if err == nil || !strings.HasPrefix(err.Error(), "x.yaml:2: ") {
		t.Errorf("syntax error: %v", err)
	}
	// A table of another variant.
	other := engine.MustVariant("shako", nil)
	if _, err := Load(other, strings.NewReader(good), "chess.yaml"); err == nil || !strings.Contains(err.Error(), "want \"shako\"") {
		t.Errorf("wrong variant: %v", err)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, name := range engine.VariantNames() {
		b.Run(name, func(b *testing.B) {
			v := engine.MustVariant(name, nil)
			ev := New(defaultWeights(b, v))
			ps := samples(v, 2, 64, 120)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ev.Evaluate(ps[i&63])
			}
		})
	}
}

// TestReachMatchesGenerator: engine.Position.Reach (the mobility count)
// equals the number of distinct destinations of the piece's pseudo-legal
// moves, leaving out what Reach leaves out (double steps, citadel steps,
// castling, en passant, lifts) and the enemy's waiting pawn of pawns; and
// ReachAvoiding counts exactly those squares.
func TestReachMatchesGenerator(t *testing.T) {
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		for _, pos := range samples(v, 21, 40, 160) {
			var ml engine.MoveList
			pos.GeneratePseudo(&ml)
			us := pos.SideToMove()
			noCap := pos.WaitingPawnOfPawns(us.Other())
			dests := map[engine.Square]map[engine.Square]bool{}
			for _, m := range ml.Slice() {
				switch m.Kind() {
				case engine.KindDouble, engine.KindCastle, engine.KindEnPassant, engine.KindLift, engine.KindExchange:
					continue
				}
				from, to := m.From(), m.To()
				if v.IsCitadel(to) {
					continue
				}
				d := v.Def(pos.At(from).Type())
				hasDouble := false
				for _, c := range d.Moves {
					hasDouble = hasDouble || c.Kind == engine.DoubleStep
				}
				if hasDouble && from.File() == to.File() && (from.Rank()-to.Rank() == 2 || to.Rank()-from.Rank() == 2) {
					continue
				}
				if dests[from] == nil {
					dests[from] = map[engine.Square]bool{}
				}
				dests[from][to] = true
			}
			for _, s := range pos.Pieces(us) {
				if s == pos.WaitingPawnOfPawns(us) {
					continue
				}
				want := len(dests[s])
				got := pos.Reach(s, nil)
				if noCap != engine.NoSquare {
					// Reach counts the uncapturable waiting pawn as a target.
					var cover [engine.NumSquares]uint8
					pos.Reach(s, &cover)
					if cover[noCap] != 0 && got == want+1 {
						continue
					}
				}
				if got != want {
					t.Errorf("%s %s: Reach(%s) = %d, generator %d", name, pos.FEN(), s, got, want)
				}
				// ReachAvoiding counts the same squares, one at a time (a
				// piece whose Reach counts the waiting pawn was skipped above).
				var avoid [engine.NumSquares]uint8
				for to := range engine.Square(engine.NumSquares) {
					avoid[to] = 1
					n, a := pos.ReachAvoiding(s, nil, &avoid)
					avoid[to] = 0
					if in := dests[s][to]; n != got || a != 0 && a != 1 || (a == 1) != in {
						t.Errorf("%s %s: ReachAvoiding(%s) with %s avoided = %d, %d; generator has it: %v", name, pos.FEN(), s, to, n, a, dests[s][to])
					}
				}
			}
		}
	}
}
