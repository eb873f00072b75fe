package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpeningsForMatch checks that "tamerlane openings" writes a file
// whose positions "tamerlane match --openings" plays, that an existing
// file is refused without --force, and that the scorer is one engine.
func TestOpeningsForMatch(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "openings.txt")
	args := []string{"openings", "--variant", "chess", "-n", "3", "--plies", "4", "--score-nodes", "50", "-o", file}
	if code, out, errs := runCLI(t, args...); code != 0 || !strings.Contains(out, "wrote 3 openings") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var fens []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if !strings.HasPrefix(l, "#") {
			fens = append(fens, l)
		}
	}
	if len(fens) != 3 || !strings.Contains(string(data), "within 50 cp") {
		t.Fatalf("file:\n%s", data)
	}
	if code, _, errs := runCLI(t, args...); code == 0 || !strings.Contains(errs, "exists") {
		t.Errorf("an existing file was replaced without --force: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, append(args, "--force")...); code != 0 {
		t.Errorf("--force: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "openings", "--variant", "chess", "-o", filepath.Join(dir, "x.txt"), "--weights", "a.yaml", "--engine", "stockfish"); code == 0 || !strings.Contains(errs, "exclude each other") {
		t.Errorf("--weights with --engine: exit %d, %s", code, errs)
	}

	out := filepath.Join(dir, "match")
	if code, _, errs := runCLI(t, "match", "--variant", "chess", "--openings", file, "--pairs", "1", "--nodes", "50", "--workers", "1", "--quiet", "-o", out); code != 0 {
		t.Fatalf("match: exit %d, %s", code, errs)
	}
	// The match compared with itself, pair by pair.
	if code, stdout, errs := runCLI(t, "compare", "--a", out, "--b", out); code != 0 || !strings.Contains(stdout, "| match-chess | 1 |") {
		t.Errorf("compare: exit %d, %s %s", code, stdout, errs)
	}
	if code, _, errs := runCLI(t, "compare", "--a", out); code == 0 || !strings.Contains(errs, "--b") {
		t.Errorf("compare without --b: exit %d, %s", code, errs)
	}
	j, err := os.Open(filepath.Join(out, "match-chess", "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	sc := bufio.NewScanner(j)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	if !sc.Scan() {
		t.Fatal("empty journal")
	}
	var pair struct {
		Games []struct {
			FEN  string   `json:"fen"`
			Book []string `json:"book"`
		} `json:"games"`
	}
	if err := json.Unmarshal(sc.Bytes(), &pair); err != nil {
		t.Fatal(err)
	}
	if len(pair.Games) != 2 || pair.Games[0].FEN != fens[0] || len(pair.Games[0].Book) != 0 {
		t.Errorf("the match's first pair started from %+v, want %s", pair.Games, fens[0])
	}
}
