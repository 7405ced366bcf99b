package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/storetest"
)

// TestConformanceFoldModes runs the conformance suite with the count log folded by every batch,
// and never: the counts must come out the same from the rollups alone and from the log alone.
func TestConformanceFoldModes(t *testing.T) {
	for _, mode := range []struct {
		name string
		o    Options
	}{
		{"EveryBatch", Options{foldAt: 1}},
		{"Never", Options{foldAt: 1 << 40, foldEvery: -1}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T) store.Store {
				o := mode.o
				s, err := Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), &o)
				if err != nil {
					t.Fatal(err)
				}
				return s
			})
		})
	}
}
