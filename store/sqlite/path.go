package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkPath tells, in words, why the database at path cannot be opened for writing, before
// SQLite is asked: SQLite reports a missing directory, a read-only one and a read-only file
// alike as "unable to open database file: no such file or directory". It returns nil when
// the path looks usable, leaving the rest to SQLite.
func checkPath(path string) error {
	dir := filepath.Dir(path)
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("sqlite: cannot open the database %s: the directory %s does not exist", path, dir)
	case err != nil:
		return fmt.Errorf("sqlite: cannot open the database %s: %w", path, err)
	case !info.IsDir():
		return fmt.Errorf("sqlite: cannot open the database %s: %s is not a directory", path, dir)
	}
	info, err = os.Stat(path)
	exists := err == nil
	if exists && info.IsDir() {
		return fmt.Errorf("sqlite: cannot open the database %s: it is a directory, not a file", path)
	}
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644); err != nil {
		switch {
		case errors.Is(err, fs.ErrPermission) && !exists:
			return fmt.Errorf("sqlite: cannot create the database %s: the directory %s is not writable by this process", path, dir)
		case errors.Is(err, fs.ErrPermission):
			return fmt.Errorf("sqlite: cannot open the database %s for writing: the file is not writable by this process", path)
		}
		return fmt.Errorf("sqlite: cannot open the database %s for writing: %w", path, err)
	} else {
		f.Close()
	}
	// SQLite keeps its write-ahead log and shared memory in files beside the database.
	probe, err := os.CreateTemp(dir, ".svc-write-check-*")
	if err != nil {
		return fmt.Errorf("sqlite: cannot use the database %s: the directory %s is not writable, and SQLite writes its -wal and -shm files there", path, dir)
	}
	probe.Close()
	_ = os.Remove(probe.Name())
	return nil
}
