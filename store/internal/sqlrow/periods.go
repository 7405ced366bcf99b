package sqlrow

import (
	"time"

	"github.com/svc-feedback/svc/store"
)

// PeriodMS checks the bounds of store.PeriodCounter's periods and returns them in Unix
// milliseconds.
func PeriodMS(bounds []time.Time) ([]int64, error) {
	if len(bounds) < 2 {
		return nil, store.Invalidf("periods need at least two bounds, got %d", len(bounds))
	}
	ms := make([]int64, len(bounds))
	for i, t := range bounds {
		if i > 0 && t.Before(bounds[i-1]) {
			return nil, store.Invalidf("period bound %d is before the one before it", i)
		}
		ms[i] = MS(t)
	}
	return ms, nil
}

// NewPeriodCounts returns n periods' counts, each with an empty map for each key, and the keys
// without repeats, to be counted once each.
func NewPeriodCounts(n int, keys []string) ([]map[string]map[int]int64, []string) {
	out := make([]map[string]map[int]int64, n)
	for i := range out {
		out[i] = make(map[string]map[int]int64, len(keys))
	}
	var once []string
	for _, k := range keys {
		if _, ok := out[0][k]; ok {
			continue
		}
		once = append(once, k)
		for i := range out {
			out[i][k] = make(map[int]int64)
		}
	}
	return out, once
}
