package selfplay

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestMatchSPRT plays the greedy player (A) against a random mover (B)
// with an SPRT: H1 must be accepted, at the same pair whatever the number
// of workers, and the outputs must hold exactly the pairs counted.
func TestMatchSPRT(t *testing.T) {
	dir := t.TempDir()
	random := writeFile(t, dir, "random.yaml", "# the test factory plays random moves for this table\n")
	base := DefaultConfig()
	base.MaxPlies = 100
	base.Openings.MaxScore = 0
	spec := MatchSpec{Variant: "chess", B: random, NameA: "greedy", NameB: "random", Pairs: 200, Seed: 9,
		SPRT: &SPRTConfig{Elo0: 0, Elo1: 20}, Base: base}
	var results []*MatchResult
	var dirs []string
	for _, workers := range []int{1, 3} {
		d := filepath.Join(dir, "w"+string(rune('0'+workers)))
		res, err := Match(context.Background(), spec, d, RunOptions{Workers: workers, Factory: testFactory()})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
		dirs = append(dirs, d)
	}
	r := results[0]
	if r.SPRT == nil || r.SPRT.Decision != "H1" || r.SPRT.DecidedAt == 0 || r.SPRT.DecidedAt >= 200 {
		t.Fatalf("SPRT %+v", r.SPRT)
	}
	if r.Pairs != r.SPRT.DecidedAt || r.Games != 2*r.Pairs {
		t.Fatalf("%d pairs, %d games, decided at %d", r.Pairs, r.Games, r.SPRT.DecidedAt)
	}
	if !(float64(r.Elo.Elo) > 0) || !(float64(r.Score.Value) > 0.5) || math.IsNaN(float64(r.SPRT.LLR)) {
		t.Fatalf("greedy vs random: %+v", r)
	}
	if results[1].SPRT.DecidedAt != r.SPRT.DecidedAt {
		t.Fatalf("decided at %d with 1 worker, %d with 3", r.SPRT.DecidedAt, results[1].SPRT.DecidedAt)
	}
	sameOutputs(t, dirs[0], dirs[1])
	games, err := ReadPGN(filepath.Join(dirs[0], "match-chess", PGNName))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != r.Games || games[0].Tag("White") != "greedy" || games[1].Tag("White") != "random" {
		t.Fatalf("%d games; first White %q, second White %q", len(games), games[0].Tag("White"), games[1].Tag("White"))
	}
	// Resuming a decided match plays nothing.
	res, err := Match(context.Background(), spec, dirs[1], RunOptions{Workers: 2, Factory: testFactory()})
	if err != nil || res.SPRT.DecidedAt != r.SPRT.DecidedAt || res.Pairs != r.Pairs {
		t.Fatalf("resume: %+v, %v", res, err)
	}
}

// TestImbalanceFEN checks the deterministic choice of removed pieces.
func TestImbalanceFEN(t *testing.T) {
	cases := []struct {
		variant       string
		first, second []string
		swapped       bool
		want          string
	}{
		// Chess: mirrored arrays, scanned from file a; a removed rook drops its castling right.
		{"chess", []string{"R"}, []string{"N"}, false, "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1"},
		{"chess", []string{"R"}, []string{"N"}, true, "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQk - 0 1"},
		{"chess", []string{"Q"}, []string{"P", "P"}, false, "rnbqkbnr/2pppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1"},
		// Tamerlane II: mirrored.
		{"tamerlane2", []string{"N"}, []string{"C"}, false, "e3o1o1c1e/rnbsmkmsbnr/ppppppppppp/11/11/11/11/11/PPPPPPPPPPP/R1BSMKMSBNR/E1C1O1O1C1E w EGeg - 0 1"},
		// Tamerlane: Black's array is rotated, so Black loses the knight on j9 (its own left).
		{"tamerlane", []string{"N"}, []string{"N"}, false, "e1c1d1d1c1e/rntgwkfgt1r/prpnptpgpwpkpfpepcpdpp/11/11/11/11/PPPDPCPEPFPKPWPGPTPNPR/R1TGFKWGTNR/E1C1D1D1C1E w Ss 00 0 1"},
		// A file after @ picks the piece of that file of the player's array:
		// the f-pawn (classical pawn odds), for Black f7.
		{"chess", []string{"P@f"}, nil, false, "rnbqkbnr/pppppppp/8/8/8/8/PPPPP1PP/RNBQKBNR w KQkq - 0 1"},
		{"chess", []string{"P@f"}, nil, true, "rnbqkbnr/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"chess", []string{"N@g"}, []string{"P@d", "P@e"}, false, "rnbqkbnr/ppp2ppp/8/8/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1"},
		// A replacement: Tamerlane II's eagle and queen appear only by
		// promotion; a rook of the array becomes one (White's a-rook, then
		// Black's a-rook for the second side).
		{"tamerlane2", []string{"R@a>A"}, []string{"R>Q"}, false, "e1c1o1o1c1e/qnbsmkmsbnr/ppppppppppp/11/11/11/11/11/PPPPPPPPPPP/ANBSMKMSBNR/E1C1O1O1C1E w EGeg - 0 1"},
		// In Tamerlane's rotated arrays Black's file b is the board's j.
		{"tamerlane", []string{"N@b"}, []string{"N@b"}, false, "e1c1d1d1c1e/rntgwkfgt1r/prpnptpgpwpkpfpepcpdpp/11/11/11/11/PPPDPCPEPFPKPWPGPTPNPR/R1TGFKWGTNR/E1C1D1D1C1E w Ss 00 0 1"},
	}
	for _, c := range cases {
		v := engine.MustVariant(c.variant, nil)
		got, err := imbalanceFEN(v, nil, c.first, c.second, c.swapped)
		if err != nil {
			t.Fatalf("%s %v/%v: %s: %v", c.variant, c.first, c.second, err.field, err.err)
		}
		if got != c.want {
			t.Errorf("%s %v vs %v swapped %v:\n got %s\nwant %s", c.variant, c.first, c.second, c.swapped, got, c.want)
		}
	}
}

// TestImbalanceFENErrors: a remove that names no file of the board, or a
// file without that piece, is an error naming the config field.
func TestImbalanceFENErrors(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	for _, c := range []struct {
		first       []string
		field, want string
	}{
		{[]string{"P@z"}, "first_removes[0]", "file after @"},
		{[]string{"P@"}, "first_removes[0]", "file after @"},
		{[]string{"N", "N@a"}, "first_removes[1]", `no piece "N@a" left`},
		{[]string{"P@f", "P@f"}, "first_removes[1]", `no piece "P@f" left`},
		{[]string{"X@f"}, "first_removes[0]", `no piece "X"`},
		{[]string{"N>K"}, "first_removes[0]", "after > must be a non-royal piece"},
		{[]string{"N>Z"}, "first_removes[0]", "after > must be a non-royal piece"},
		{[]string{"Z>Q"}, "first_removes[0]", `no piece "Z"`},
	} {
		_, err := imbalanceFEN(v, nil, c.first, nil, false)
		if err == nil || err.field != c.field || !strings.Contains(err.err.Error(), c.want) {
			t.Errorf("%v: %+v, want %s: ...%s", c.first, err, c.field, c.want)
		}
	}
}

// TestReaderErrors checks that the data-set and PGN readers name the file
// and the line of a mistake.
func TestReaderErrors(t *testing.T) {
	dir := t.TempDir()
	good := `{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","result":1,"score":5,"ply":3,"game":0,"variant":"chess","rules":""}` + "\n"
	for _, c := range []struct{ name, text, want string }{
		{"bad json", good + "{\"fen\": 1}\n", ":2:"},
		{"bad result", good + good + strings.Replace(good, `"result":1`, `"result":2`, 1), ":3: result"},
		{"unknown key", strings.Replace(good, `"ply"`, `"plies"`, 1), ":1:"},
		{"torn", good + good[:20], ":2: truncated"},
	} {
		p := writeFile(t, dir, strings.ReplaceAll(c.name, " ", "_")+".jsonl", c.text)
		_, err := ReadDataset(p)
		if err == nil || !strings.Contains(err.Error(), p+c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, p+c.want)
		}
	}
	recs, err := ReadDataset(writeFile(t, dir, "ok.jsonl", good+good))
	if err != nil || len(recs) != 2 || recs[1].Score != 5 || recs[1].Ply != 3 {
		t.Fatalf("good data set: %v %+v", err, recs)
	}
	n := 0
	for _, err := range Records(filepath.Join(dir, "ok.jsonl")) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		break
	}
	if n != 1 {
		t.Fatal("iterator did not stop")
	}
	p := writeFile(t, dir, "bad.pgn", "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 {c} e5 {unterminated\n")
	if _, err := ReadPGN(p); err == nil || !strings.Contains(err.Error(), p+":4: unterminated") {
		t.Errorf("pgn: err %v", err)
	}
	p = writeFile(t, dir, "ok.pgn", "[Event \"x\"]\n[Variant \"chess\"]\n\n1. e4 {+0.10/3} 1... e5 {book} 2. Nf3 1-0\n\n[Event \"y\"]\n\n1. d4 *\n")
	games, err := ReadPGN(p)
	if err != nil || len(games) != 2 || len(games[0].Moves) != 3 || games[0].Comments[1] != "book" || games[1].Result != "*" {
		t.Fatalf("pgn: %v %+v", err, games)
	}
	if _, moves, err := games[0].Replay(); err != nil || len(moves) != 3 {
		t.Fatalf("replay: %v", err)
	}
}

// TestImbalanceFENFromPosition checks that an imbalance removes its
// pieces from a given position as from the array: White's scanned from
// rank 1 up, Black's from rank 8 down, each rank from file a; "P@d" is
// the pawn standing on the d-file. The side to move is kept, the clocks
// restart.
func TestImbalanceFENFromPosition(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	root := mustFEN(t, v, "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 9")
	for _, c := range []struct {
		swapped bool
		want    string
	}{
		// The first player (White) without its a1 rook; Black without the c8 bishop and the d5 pawn.
		{false, "r2q1rk1/pp2bppp/2n1pn2/8/3P4/2NBPN2/PP3PPP/2BQ1RK1 w - - 0 1"},
		// The first player (Black) without its a8 rook; White without the c1 bishop and the d4 pawn.
		{true, "2bq1rk1/pp2bppp/2n1pn2/3p4/8/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 1"},
	} {
		got, err := imbalanceFEN(v, root, []string{"R"}, []string{"B", "P@d"}, c.swapped)
		if err != nil {
			t.Fatalf("swapped %v: %s: %v", c.swapped, err.field, err.err)
		}
		if got != c.want {
			t.Errorf("swapped %v:\n got %s\nwant %s", c.swapped, got, c.want)
		}
	}
	// A piece the position does not have, and a removal that leaves the
	// side not to move in check, are errors naming the field.
	for _, c := range []struct {
		fen, field, want string
		second           []string
	}{
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "second_removes[0]", `no piece "B" left to remove from black's pieces in 4k3/`, []string{"B"}},
		{"4k3/4n3/8/8/8/8/8/4RK2 w - - 0 1", "first_removes", "invalid position", []string{"N"}},
	} {
		_, err := imbalanceFEN(v, mustFEN(t, v, c.fen), nil, c.second, false)
		if err == nil || err.field != c.field || !strings.Contains(err.err.Error(), c.want) {
			t.Errorf("%s: %+v, want %s: ...%s", c.fen, err, c.field, c.want)
		}
	}
}

// mustFEN parses fen or fails the test.
func mustFEN(t *testing.T, v *engine.Variant, fen string) *engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
