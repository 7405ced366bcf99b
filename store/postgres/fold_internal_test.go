package postgres

import (
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/store/storetest"
)

// TestConformanceFoldModes runs the conformance suite with the count log folded as soon as a
// batch logs a change, and never: the counts must come out the same from the rollups and from
// the log.
func TestConformanceFoldModes(t *testing.T) {
	for _, mode := range []struct {
		name string
		o    Options
	}{
		{"Eager", Options{foldAt: 1}},
		{"Never", Options{foldAt: 1 << 40, foldEvery: -1}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T) store.Store {
				o := mode.o
				s, err := Open(t.Context(), pgtest.URL(t), &o)
				if err != nil {
					t.Fatal(err)
				}
				return s
			})
		})
	}
}
