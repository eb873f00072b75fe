package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runCLIWithin runs the CLI as runCLI does, cancelled after d, and fails
// the test at once if it has not returned a few seconds later (a command
// deaf to its context, blocked or looping).
func runCLIWithin(t *testing.T, d time.Duration, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	type result struct {
		code      int
		out, errs string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(ctx, args, &out, &errb)
		done <- result{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.errs
	case <-time.After(d + 5*time.Second):
		t.Fatalf("%v: still running %v after it was cancelled", args, 5*time.Second)
	}
	return 0, "", ""
}

// TestUnreadableInputsRefused: a configuration, table or openings file
// that is a device, a directory or too large is refused with an error
// naming it and saying what it is, before any run directory is made,
// instead of being read until memory runs out (/dev/zero ended in
// "fatal error: out of memory") or copied into the run.
func TestUnreadableInputsRefused(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("name: big\n#"+strings.Repeat("x", 5<<20)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const device = "/dev/zero"
	if _, err := os.Stat(device); err != nil {
		t.Skipf("%s: %v", device, err)
	}
	for i, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"search", "--variant", "chess", "--depth", "1", "--weights", device}, device + " is a character device, not a regular file"},
		{[]string{"eval", "--variant", "chess", "--weights", dir}, dir + " is a directory, not a regular file"},
		{[]string{"search", "--variant", "chess", "--depth", "1", "--weights", big}, big + " is 5.0 MiB, more than the 4.0 MiB"},
		{[]string{"run", "-c", device, "--quiet"}, device + " is a character device"},
		{[]string{"run", "-c", big, "--quiet"}, big + " is 5.0 MiB, more than the 4.0 MiB"},
		{[]string{"selfplay", "-c", device, "--quiet"}, device + " is a character device"},
		{[]string{"selfplay", "--variant", "chess", "--weights", device, "--quiet"}, "--weights: " + device + " is a character device"},
		{[]string{"match", "--variant", "chess", "--openings", device, "--pairs", "1", "--quiet"}, "--openings: " + device + " is a character device"},
		{[]string{"match", "--variant", "chess", "-c", big, "--pairs", "1", "--quiet"}, big + " is 5.0 MiB"},
		{[]string{"tune", "-c", device, "--data", dir}, device + " is a character device"},
		{[]string{"tune", "--data", device}, device + " is a character device"},
		{[]string{"measure", "-c", device}, device + " is a character device"},
	} {
		out := filepath.Join(dir, "out", strings.Repeat("x", i+1))
		args := tc.args
		if args[0] != "search" && args[0] != "eval" {
			args = append(args, "-o", out)
		}
		code, _, errs := runCLIWithin(t, 10*time.Second, args...)
		if code == 0 || !strings.Contains(errs, tc.want) || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s was created (%v)", tc.args, out, err)
		}
	}
}

// TestHugeCountFlagsRefused: counts beyond their bounds are refused at
// once naming the flag, before any directory is made (selfplay --pairs
// 99999999999999 looped while building its streams and ignored the first
// SIGTERM; --workers 100000 played that many pairs at once, each with
// its players' hash tables).
func TestHugeCountFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(cfg, []byte("name: big\nselfplay:\n  nodes: 100\n  variants:\n    - {variant: chess, pairs: 99999999999999}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"selfplay", "--variant", "chess", "--pairs", "99999999999999"}, "--pairs: must be at most 1000000 (got 99999999999999)"},
		{[]string{"selfplay", "--variant", "chess", "--workers", "100000"}, "--workers: must be at most 1024 game pairs at once (got 100000)"},
		{[]string{"match", "--variant", "chess", "--pairs", "99999999999999"}, "--pairs: must be at most 1000000"},
		{[]string{"match", "--variant", "chess", "--workers", "-1"}, "--workers: must not be negative (got -1; 0: one per CPU)"},
		{[]string{"run", "--workers", "100000", "--quiet"}, "--workers: must be at most 1024 game pairs at once"},
		{[]string{"run", "-c", cfg, "--quiet"}, cfg + ":5: selfplay.variants[0].pairs: must be at most 1000000 (got 99999999999999)"},
		{[]string{"measure", "-c", cfg, "--workers", "100000"}, "--workers: must be at most 1024 game pairs at once"},
		{[]string{"quality", "--variant", "chess", "--positions", cfg, "--workers", "100000"}, "--workers: want 1 to 1024 positions judged at once"},
		{[]string{"openings", "--variant", "chess", "-n", "99999999999999"}, "-n 99999999999999: at most 1000000"},
		{[]string{"openings", "--variant", "chess", "--plies", "1000000000000"}, "--plies 1000000000000: at most 1000"},
	} {
		out := filepath.Join(dir, "out", strings.Repeat("x", i+1))
		code, _, errs := runCLIWithin(t, 10*time.Second, append(tc.args, "-o", out)...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s was created (%v)", tc.args, out, err)
		}
	}
}

// TestNonFiniteFlagsRefused: NaN, Inf and absurd numbers in --tc and
// --scored-max-pawns are refused naming the flag, before anything is
// played or read (--tc NaN+0 played by nodes, --tc 10+NaN lost every
// game on time, --scored-max-pawns NaN was taken for "not given").
func TestNonFiniteFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	fens := filepath.Join(dir, "fens.txt")
	if err := os.WriteFile(fens, []byte("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "--variant", "chess", "--engine-b", "sh", "--tc", "NaN+0"}, `--tc "NaN+0": SECONDS must be a number from 0.001 to 86400 (a day), not NaN`},
		{[]string{"match", "--variant", "chess", "--engine-b", "sh", "--tc", "Inf+0"}, `--tc "Inf+0": SECONDS must be`},
		{[]string{"match", "--variant", "chess", "--engine-b", "sh", "--tc", "1e20+0"}, `--tc "1e20+0": SECONDS must be`},
		{[]string{"match", "--variant", "chess", "--engine-b", "sh", "--tc", "10+NaN"}, `--tc "10+NaN": INCREMENT must be a number from 0 to 86400 (a day), not NaN`},
		{[]string{"quality", "--variant", "chess", "--positions", fens, "--engine-b", "sh", "--tc", "NaN+0"}, `--tc "NaN+0": SECONDS must be`},
		{[]string{"values", "--run", dir, "--scored-max-pawns", "NaN"}, "--scored-max-pawns: NaN is not a number of pawns"},
		{[]string{"values", "--run", dir, "--scored-max-pawns", "Inf"}, "--scored-max-pawns: +Inf is not a number of pawns"},
	} {
		args := tc.args
		out := filepath.Join(dir, "out", strings.Repeat("x", i+1))
		if args[0] == "match" {
			args = append(args, "-o", out)
		}
		code, _, errs := runCLIWithin(t, 10*time.Second, args...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s was created (%v)", tc.args, out, err)
		}
	}
}

// TestSymlinkInputsNamed: a loop of symbolic links or a link to a missing
// file given as a config or a table is named as such; run -c took both
// for a missing file and looked for an embedded config of that name.
func TestSymlinkInputsNamed(t *testing.T) {
	dir := t.TempDir()
	loop := filepath.Join(dir, "loop.yaml")
	dangling := filepath.Join(dir, "dangling.yaml")
	if err := os.Symlink(loop, loop); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "gone.yaml"), dangling); err != nil {
		t.Fatal(err)
	}
	loopMsg := loop + ": a loop of symbolic links"
	danglingMsg := dangling + ": a symbolic link to " + filepath.Join(dir, "gone.yaml") + ", which does not exist"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-c", loop, "-o", filepath.Join(dir, "r1"), "--quiet"}, loopMsg},
		{[]string{"run", "-c", dangling, "-o", filepath.Join(dir, "r2"), "--quiet"}, danglingMsg},
		{[]string{"selfplay", "-c", loop, "-o", filepath.Join(dir, "s1"), "--quiet"}, loopMsg},
		{[]string{"search", "--variant", "chess", "--depth", "1", "--weights", loop}, loopMsg},
	} {
		code, _, errs := runCLIWithin(t, 10*time.Second, tc.args...)
		if code == 0 || !strings.Contains(errs, tc.want) || strings.Contains(errs, "no embedded config") {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
}
