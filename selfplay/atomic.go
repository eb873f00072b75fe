package selfplay

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// writeAtomic writes a file through a temporary file in the same
// directory, synced and renamed over the target, so that the target is
// always either the old or the new complete file.
func writeAtomic(path string, write func(w *bufio.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 1<<16)
	if err = write(w); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = w.Flush(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// writeFileAtomic writes data atomically.
func writeFileAtomic(path string, data []byte) error {
	return writeAtomic(path, func(w *bufio.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// syncDir syncs a directory so that a rename in it is durable. Errors are
// ignored: some systems cannot sync directories.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
