package values

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"tamerlane/internal/fsx"
	"tamerlane/variantfile"
)

// BuildsDir is the directory of a measurement that records the engine
// builds that played it: one file per build (Build), written when a
// `tamerlane measure` starts or resumes the run, so that a run resumed
// by another build names both.
const BuildsDir = "builds"

// Build identifies the program that played a measurement's games.
type Build struct {
	// Revision is the commit the binary was built from and Modified
	// whether its tree had changes (Go's vcs build settings; empty when
	// the build recorded none, as `go build -buildvcs=false` or a build
	// outside the repository).
	Revision string `json:"revision,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the toolchain's version.
	Go string `json:"go"`
	// Executable is the SHA-256 of the executable's bytes: the build
	// exactly, with or without a revision.
	Executable string `json:"executable_sha256,omitempty"`
	// Recorded is when a run first recorded this build (RFC 3339, UTC).
	Recorded string `json:"recorded"`
	// Unrecorded marks the builds that played a run before runs recorded
	// them (a run started by an older binary, resumed by a newer one):
	// which they were, the run does not say.
	Unrecorded bool `json:"unrecorded,omitempty"`
}

// Name is the build's name in an atlas's provenance: the revision (with
// "+modified" for a changed tree), else the executable's SHA-256.
func (b Build) Name() string {
	switch {
	case b.Unrecorded:
		return "unrecorded build"
	case b.Revision != "" && b.Modified:
		return b.Revision + "+modified"
	case b.Revision != "":
		return b.Revision
	case b.Executable != "":
		return "executable sha256:" + b.Executable
	}
	return "unknown build (" + b.Go + ")"
}

// currentBuild returns the build of the running program.
func currentBuild() Build {
	b := Build{Recorded: time.Now().UTC().Format(time.RFC3339)}
	if info, ok := debug.ReadBuildInfo(); ok {
		b.Go = info.GoVersion
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Revision = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if f, err := os.Open(exe); err == nil {
			h := sha256.New()
			if _, err := io.Copy(h, f); err == nil {
				b.Executable = hex.EncodeToString(h.Sum(nil))
			}
			f.Close()
		}
	}
	return b
}

// buildFile names a build's file in BuildsDir: its revision and
// executable digest, so that two builds never share one and the same
// build always writes the same.
func (b Build) buildFile() string {
	key := b.Revision + "|" + fmt.Sprint(b.Modified) + "|" + b.Executable + "|" + b.Go
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8]) + ".json"
}

// recordBuild records the running program's build in dir's BuildsDir,
// unless it is recorded there already. Two stages of one run may start
// at once: each build has its own file, written atomically. A run that
// has played (it has a variant's directory) without recording its
// builds gets an Unrecorded entry first, so that its atlas does not name
// the resuming build alone.
func recordBuild(dir string) error {
	b := currentBuild()
	bdir := filepath.Join(dir, BuildsDir)
	path := filepath.Join(bdir, b.buildFile())
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	_, err := os.Stat(bdir)
	first := errors.Is(err, os.ErrNotExist)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	// The copies of its variant files are written before the first build
	// is recorded; they are not games.
	played := slices.ContainsFunc(entries, func(e os.DirEntry) bool {
		return e.IsDir() && e.Name() != BuildsDir && e.Name() != variantfile.RecordDir
	})
	if err := os.MkdirAll(bdir, 0o755); err != nil {
		return err
	}
	if first && played {
		if err := fsx.WriteJSON(filepath.Join(bdir, "unrecorded.json"), Build{Unrecorded: true}); err != nil {
			return err
		}
	}
	return fsx.WriteJSON(path, b)
}

// ReadBuilds returns the builds recorded in a measurement directory, the
// first recorded first (none for a run made before runs recorded them).
func ReadBuilds(dir string) ([]Build, error) {
	files, err := filepath.Glob(filepath.Join(dir, BuildsDir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Build
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var bd Build
		if err := json.Unmarshal(b, &bd); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		out = append(out, bd)
	}
	// The unrecorded builds played first.
	slices.SortStableFunc(out, func(a, b Build) int {
		switch {
		case a.Unrecorded && !b.Unrecorded:
			return -1
		case b.Unrecorded && !a.Unrecorded:
			return 1
		}
		return strings.Compare(a.Recorded, b.Recorded)
	})
	return out, nil
}
