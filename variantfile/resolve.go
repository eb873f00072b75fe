package variantfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
)

// Resolve returns the variant a command line or a configuration names:
// the variant of the variant file at file when file is not "" (a file sets
// its rules itself, so rules must be empty, and name, if given, must be
// the file's variant's), else the built-in variant name under the rule
// options rules. It is the one way every command and configuration turns
// a --variant / --variant-file pair or a variant: / variant_file: pair
// into a variant; the caller resolves file relative to its configuration.
func Resolve(name, rules, file string) (*engine.Variant, error) {
	if file == "" {
		return engine.VariantWithRules(name, rules)
	}
	if rules != "" {
		return nil, fmt.Errorf("rules %q: the variant file %s sets its rules itself", rules, file)
	}
	v, err := Load(file)
	if err != nil {
		return nil, err
	}
	if name != "" && name != v.Name {
		return nil, fmt.Errorf("variant %q, but the variant file %s defines %q: give one of them, or the file's name", name, file, v.Name)
	}
	return v, nil
}

// RecordDir is the directory of a run directory that holds the copies of
// the variant files its run plays.
const RecordDir = "variants"

// recordSum is the suffix of the file beside a recorded copy that holds
// the copy's SHA-256 and the path it was copied from.
const recordSum = ".sha256"

// Recorded returns the path of the recorded copy of variant name's file in
// run directory dir.
func Recorded(dir, name string) string {
	return filepath.Join(dir, RecordDir, name+".yaml")
}

// RecordedFile returns the copy of variant name's file that the run
// directory dir recorded (Record), and whether there is one; a built-in
// variant's name has none.
func RecordedFile(dir, name string) (string, bool) {
	if name == "" || IsBuiltinName(name) {
		return "", false
	}
	p := Recorded(dir, name)
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	return p, true
}

// RecordedVariant returns the variant called name under the rule options
// rules as the run directory dir plays it, and the file it was read from:
// the copy of its variant file that dir recorded, else the built-in
// variant (file "").
func RecordedVariant(dir, name, rules string) (*engine.Variant, string, error) {
	if p, ok := RecordedFile(dir, name); ok {
		v, err := Resolve(name, rules, p)
		return v, p, err
	}
	v, err := engine.VariantWithRules(name, rules)
	return v, "", err
}

// Record keeps the variant file at path in run directory dir, so that the
// run can be resumed and read without it: at the run's start it copies
// the file to dir/variants/<variant>.yaml and writes its SHA-256 and path
// beside it (<variant>.yaml.sha256); when dir already holds a copy for the
// variant, it checks that the file at path is byte for byte the recorded
// one and refuses, naming both files, when it is not (a changed variant
// would mix two games in one run). It returns the recorded copy's path.
func Record(dir, path string) (string, error) {
	data, err := fsx.ReadFile(path, fsx.MaxConfigBytes)
	if err != nil {
		return "", err
	}
	v, err := Read(data, path)
	if err != nil {
		return "", err
	}
	copyPath := Recorded(dir, v.Name)
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	old, err := os.ReadFile(copyPath)
	switch {
	case err == nil:
		if sameFile(path, copyPath) {
			return copyPath, checkRecorded(copyPath, old)
		}
		oldSum := sha256.Sum256(old)
		if !bytes.Equal(old, data) {
			return "", fmt.Errorf("variant file %s (sha256 %.12s) differs from the copy %s (sha256 %.12s) recorded when the run in %s began: "+
				"a run plays one variant; restore the file or start a new run directory", path, hexSum, copyPath, hex.EncodeToString(oldSum[:]), dir)
		}
		return copyPath, checkRecorded(copyPath, old)
	case !errors.Is(err, os.ErrNotExist):
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(copyPath), 0o755); err != nil {
		return "", err
	}
	if err := fsx.WriteFile(copyPath, data); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	if err := fsx.WriteFile(copyPath+recordSum, []byte(hexSum+"  "+abs+"\n")); err != nil {
		return "", err
	}
	return copyPath, nil
}

// RecordAll records every variant file of files in run directory dir
// (Record), stopping at the first error.
func RecordAll(dir string, files ...string) error {
	for _, f := range files {
		if _, err := Record(dir, f); err != nil {
			return err
		}
	}
	return nil
}

// checkRecorded checks that a recorded copy still has the SHA-256
// recorded beside it.
func checkRecorded(copyPath string, data []byte) error {
	b, err := os.ReadFile(copyPath + recordSum)
	if err != nil {
		return fmt.Errorf("the recorded variant file %s has no %s beside it: %w", copyPath, recordSum, err)
	}
	want, _, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("the recorded variant file %s (sha256 %.12s) is not the one recorded in %s (sha256 %.12s)", copyPath, got, copyPath+recordSum, want)
	}
	return nil
}

// sameFile reports whether a and b name one file.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// Use is one configuration entry that names a variant: its variant:
// field and a pointer to its variant_file: field.
type Use struct {
	Variant string  // the entry's variant name
	File    *string // the entry's variant file ("": none)
}

// Supply makes file (a variant file given on a command line) the variant
// file of every use that names the file's variant without a variant file
// of its own. A file whose variant no such use names is an error: the
// configuration (config names it) would not play it.
func Supply(file, config string, uses ...Use) error {
	v, err := Load(file)
	if err != nil {
		return err
	}
	used := false
	for _, u := range uses {
		if u.Variant == v.Name && *u.File == "" {
			*u.File, used = file, true
		}
	}
	if !used {
		return fmt.Errorf("the variant file %s defines %s, which %s names nowhere without a variant_file", file, v.Name, config)
	}
	return nil
}
