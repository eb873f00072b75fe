package fsx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Run kinds: each kind of run directory is marked by one file, written by
// the command that owns the directory. A command refuses a directory that
// holds the marker of another kind, so that, say, `tamerlane tune -o` on a
// pipeline directory cannot overwrite the pipeline's accepted tables.
const (
	// KindSelfplay is a self-play, match or merged run (`selfplay`,
	// `match`, `merge`), marked by run.json.
	KindSelfplay = "selfplay"
	// KindTune is a tuning run (`tune`), marked by tune.json.
	KindTune = "tune"
	// KindPipeline is a pipeline run (`run`), marked by pipeline.json.
	KindPipeline = "pipeline"
	// KindMeasure is a piece-value measurement (`measure`), marked by
	// measure.json.
	KindMeasure = "measure"
)

// Marker returns the file name that marks a directory of the given kind,
// or "" for an unknown kind.
func Marker(kind string) string {
	switch kind {
	case KindSelfplay:
		return "run.json"
	case KindTune:
		return "tune.json"
	case KindPipeline:
		return "pipeline.json"
	case KindMeasure:
		return "measure.json"
	}
	return ""
}

// Kinds lists every run kind.
func Kinds() []string { return []string{KindSelfplay, KindTune, KindPipeline, KindMeasure} }

// DirKind returns the kind of run dir holds ("" when none). A directory
// that holds the markers of two kinds is an error.
func DirKind(dir string) (string, error) {
	found := ""
	for _, k := range Kinds() {
		_, err := os.Stat(filepath.Join(dir, Marker(k)))
		switch {
		case err == nil:
			if found != "" {
				return "", fmt.Errorf("%s holds both a %s run (%s) and a %s run (%s)", dir, found, Marker(found), k, Marker(k))
			}
			found = k
		case !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
	}
	return found, nil
}

// CheckKind returns an error when dir holds a run of another kind than
// kind; a missing or unmarked directory is fine.
func CheckKind(dir, kind string) error {
	got, err := DirKind(dir)
	if err != nil {
		return err
	}
	if got != "" && got != kind {
		return fmt.Errorf("%s holds a %s run (%s), not a %s run: use another directory", dir, got, Marker(got), kind)
	}
	return nil
}

// ReadRun reads the marker file of a run directory of the given kind into
// v, checking its format (see ReadJSON). A directory without the marker
// gives "DIR is not a KIND run directory (no MARKER)".
func ReadRun(dir, kind, format string, v any) error {
	err := ReadJSON(filepath.Join(dir, Marker(kind)), v, format)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s is not a %s run directory (no %s): %w", dir, kind, Marker(kind), err)
	}
	return err
}
