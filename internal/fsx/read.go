package fsx

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Size limits of the files a user hands to the commands. Each is far
// above what the project writes or ships (its configs are a few KiB, its
// tables and catalogue tables a few tens) and far below what would exhaust
// a machine's memory.
const (
	// MaxConfigBytes bounds a file read whole and decoded at once: a
	// configuration, an evaluation table, a published catalogue table.
	MaxConfigBytes = 4 << 20
	// MaxListBytes bounds a file of positions (an openings file), whose
	// lines are all kept in memory.
	MaxListBytes = 64 << 20
)

// ReadFile reads the regular file at path whole, as os.ReadFile does,
// but refuses, before reading anything, what is not a regular file (a
// directory, a named pipe, which would block forever, a device such as
// /dev/zero, which never ends, a socket) and a file of more than limit
// bytes. Errors name the path and say what it is; a missing file gives
// an error that wraps fs.ErrNotExist.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, tooLarge(path, st.Size(), limit)
	}
	// The file may grow while it is read: read one byte past the limit
	// to tell.
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(path, int64(len(b)), limit)
	}
	return b, nil
}

// Open opens the regular file at path for reading, as os.Open does, but
// refuses what is not a regular file (see ReadFile) without opening it,
// so that a named pipe cannot block the command. Errors are those of
// ReadFile.
func Open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		// Say "open", as os.Open would have: this is what Open failed at.
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			pe.Op = "open"
		}
		return nil, statError(path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st.Mode())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	// The path may have been replaced between the two looks.
	if fst, err := f.Stat(); err != nil || !os.SameFile(st, fst) {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s changed while it was opened", path)
		}
		return nil, err
	}
	return f, nil
}

// CheckRegular reports whether path is a regular file, without opening
// it: the error of os.Stat ("stat PATH: no such file or directory"; a
// loop of symbolic links and a link to a missing file are named as
// such), or one saying what path is instead (see ReadFile). Checks of a
// configuration's file fields use it.
func CheckRegular(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return statError(path, err)
	}
	if !st.Mode().IsRegular() {
		return notRegular(path, st.Mode())
	}
	return nil
}

// statError describes why path cannot be looked at: a loop of symbolic
// links and a link to a missing file are named as such (os.Stat says
// "too many levels of symbolic links" and "no such file or directory").
// The error wraps err.
func statError(path string, err error) error {
	switch {
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%s: a loop of symbolic links (a link that leads back to itself): %w", path, err)
	case errors.Is(err, fs.ErrNotExist):
		if lst, lerr := os.Lstat(path); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			return fmt.Errorf("%s: a symbolic link to %s, which does not exist: %w", path, target, err)
		}
	}
	return err
}

// notRegular says what path is instead of a regular file.
func notRegular(path string, m fs.FileMode) error {
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%s is %s, not a regular file", path, what)
}

// tooLarge says that path has more bytes than limit.
func tooLarge(path string, size, limit int64) error {
	return fmt.Errorf("%s is %s, more than the %s this kind of file may have", path, sizeString(size), sizeString(limit))
}

// sizeString writes a byte count in the largest binary unit that keeps
// it at least 1 (whole bytes below 1 KiB).
func sizeString(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
