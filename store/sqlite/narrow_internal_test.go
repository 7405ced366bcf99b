package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/svc-feedback/svc/store/storetest"
)

// TestNarrowLeavesOutInTheQuery: SQLite tests a query's Narrow itself, with json_extract and
// json_each.
func TestNarrowLeavesOutInTheQuery(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.NarrowsInTheQuery(t, s)
}
