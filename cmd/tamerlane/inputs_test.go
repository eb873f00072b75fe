package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
		{[]string{"measure", "-c", device}, device + " is a character device"},
	} {
		out := filepath.Join(dir, "out", strings.Repeat("x", i+1))
		args := tc.args
		if args[0] != "search" && args[0] != "eval" {
			args = append(args, "-o", out)
		}
		code, _, errs := runCLI(t, args...)
		if code == 0 || !strings.Contains(errs, tc.want) || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s was created (%v)", tc.args, out, err)
		}
	}
}
