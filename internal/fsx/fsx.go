// Package fsx is the one home of the project's file helpers: atomic
// writes (a temporary file in the same directory, synced, given mode 0644
// and renamed over the target, so that a reader sees the old or the new
// complete file and never half of one), indented JSON, JSON reading with a
// format check, removal of the temporaries a killed process left behind,
// the run-kind markers that keep one command from writing over a
// directory that belongs to another, and the reading of the files a user
// names (configs, tables, openings), which refuses what is not a regular
// file or is too large before reading it.
package fsx

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Mode is the permission of every file written here (before umask).
const Mode fs.FileMode = 0o644

// tmpInfix marks a temporary file: "." + base + tmpInfix + random suffix.
const tmpInfix = ".tmp"

// File is a file being written atomically: write through its embedded
// buffered writer, then Commit (or Abort).
type File struct {
	*bufio.Writer
	path string
	tmp  *os.File
}

// Create starts writing path atomically. The caller must call Commit or
// Abort.
func Create(path string) (*File, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+tmpInfix+"*")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err) // the target, not the temporary name
	}
	if err := tmp.Chmod(Mode); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &File{Writer: bufio.NewWriterSize(tmp, 1<<16), path: path, tmp: tmp}, nil
}

// Commit flushes, syncs and renames the temporary file over the target.
// On error the temporary file is removed and the target is unchanged.
func (f *File) Commit() error {
	err := f.Flush()
	if err == nil {
		err = f.tmp.Sync()
	}
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.tmp.Name())
		return fmt.Errorf("%s: %w", f.path, err)
	}
	syncDir(filepath.Dir(f.path))
	return nil
}

// Abort discards the temporary file; the target is unchanged. Calling it
// after Commit does nothing harmful.
func (f *File) Abort() {
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// Write writes path atomically with what write produces; when write
// fails the target is unchanged.
func Write(path string, write func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(f.Writer); err != nil {
		f.Abort()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Commit()
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteJSON writes v to path atomically as JSON indented by two spaces,
// with a final newline and without HTML escaping.
func WriteJSON(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return WriteFile(path, buf.Bytes())
}

// ReadJSON decodes the JSON file path into v. When format is not empty,
// the file's top-level "format" field must equal it. Errors name the file;
// a missing file gives an error that wraps fs.ErrNotExist.
func ReadJSON(path string, v any, format string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if format != "" {
		var head struct {
			Format string `json:"format"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if head.Format != format {
			return fmt.Errorf("%s: format %q, this program reads %q", path, head.Format, format)
		}
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// IsTemp reports whether a file name is one of this package's temporary
// files.
func IsTemp(name string) bool {
	if !strings.HasPrefix(name, ".") {
		return false
	}
	i := strings.LastIndex(name, tmpInfix)
	return i > 1 && i+len(tmpInfix) < len(name)
}

// CleanTemps removes the temporary files that an interrupted atomic write
// (kill -9, power loss) left in dir and its subdirectories, and returns
// their paths. Call it only while holding the directory's lock, so that
// no write of this run is in progress.
func CleanTemps(dir string) ([]string, error) {
	var removed []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() && IsTemp(d.Name()) {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			removed = append(removed, path)
		}
		return nil
	})
	return removed, err
}

// syncDir syncs a directory so that a rename in it is durable. Errors are
// ignored: some systems cannot sync directories.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
