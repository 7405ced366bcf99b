//go:build !cgo

package sqlite_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/svc-feedback/svc/store/sqlite"
)

// Built without cgo, the package compiles and Open says what is missing. CI runs this with
// CGO_ENABLED=0.
func TestOpenWithoutCgo(t *testing.T) {
	_, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if !errors.Is(err, sqlite.ErrNeedsCgo) {
		t.Fatalf("Open without cgo: error = %v, want ErrNeedsCgo", err)
	}
}
