package rollup_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/store/internal/rollup"
)

// scores is a Source over ratings held in memory, at millisecond times: each method counts
// them afresh, so it is the reference the rollup algorithm must agree with. It counts its
// calls, to tell what CountEach saves.
type scores struct {
	at    []int64
	score []int
	calls map[string]int
}

func (s *scores) add(counts map[int]int64, sign int64, in func(at int64) bool) {
	for i, at := range s.at {
		if in(at) {
			counts[s.score[i]] += sign
			if counts[s.score[i]] == 0 {
				delete(counts, s.score[i])
			}
		}
	}
}

func (s *scores) Totals(_ context.Context, counts map[int]int64, sign int64) error {
	s.calls["Totals"]++
	s.add(counts, sign, func(int64) bool { return true })
	return nil
}

func (s *scores) Buckets(_ context.Context, counts map[int]int64, sign int64, level int, first, end int64) error {
	s.calls["Buckets"]++
	size := rollup.Sizes[level]
	s.add(counts, sign, func(at int64) bool { b := rollup.FloorDiv(at, size); return b >= first && b < end })
	return nil
}

func (s *scores) Answers(_ context.Context, counts map[int]int64, sign int64, lo, hi int64) error {
	s.calls["Answers"]++
	s.add(counts, sign, func(at int64) bool { return at >= lo && at < hi })
	return nil
}

func (s *scores) DaySpans(_ context.Context, spans []rollup.Span, add func(span int, score int, n int64)) error {
	s.calls["DaySpans"]++
	for j, sp := range spans {
		for i, at := range s.at {
			if d := rollup.FloorDiv(at, rollup.DayMS); d >= sp.First && d < sp.End {
				add(j, s.score[i], 1) // one call per rating: repeats of a (span, score) are summed
			}
		}
	}
	return nil
}

// within counts the ratings in [lo, hi) directly.
func (s *scores) within(lo, hi int64) map[int]int64 {
	out := map[int]int64{}
	for i, at := range s.at {
		if at >= lo && at < hi {
			out[s.score[i]]++
		}
	}
	return out
}

// TestCountEach: the counts of runs of consecutive periods (whole days, as a trend's buckets,
// or any instants) agree with the ratings counted directly, with the days read in one call when there is more than one period. Times straddle zero, where FloorDiv must
// floor.
func TestCountEach(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4)) // fixed: a failure must repeat
	src := &scores{calls: map[string]int{}}
	start := -3 * rollup.DayMS
	for range 2000 {
		src.at = append(src.at, start+rng.Int64N(40*rollup.DayMS))
		src.score = append(src.score, rng.IntN(11))
	}
	first, last := slices.Min(src.at), slices.Max(src.at)
	for i := range 200 {
		bounds := make([]int64, 2+i%40)
		for j := range bounds {
			bounds[j] = start - 5*rollup.DayMS + rng.Int64N(50*rollup.DayMS)
			if i%3 == 0 {
				bounds[j] = rollup.FloorDiv(bounds[j], rollup.DayMS) * rollup.DayMS
			}
		}
		slices.Sort(bounds)
		out := make([]map[int]int64, len(bounds)-1)
		for j := range out {
			out[j] = map[int]int64{}
		}
		clear(src.calls)
		wrapped := 0
		wrap := func(s rollup.Source) rollup.Source { wrapped++; return s }
		if err := rollup.CountEach(context.Background(), src, wrap, out, bounds, first, last); err != nil {
			t.Fatal(err)
		}
		for j := range out {
			if diff := cmp.Diff(src.within(bounds[j], bounds[j+1]), out[j]); diff != "" {
				t.Fatalf("bounds %v, period %d (-direct +CountEach):\n%s", bounds, j, diff)
			}
		}
		if wrapped != 1 {
			t.Errorf("bounds %v: wrap called %d times, want once", bounds, wrapped)
		}
		if len(out) > 1 && src.calls["DaySpans"] > 1 {
			t.Errorf("bounds %v: DaySpans read %d times, want at most once", bounds, src.calls["DaySpans"])
		}
		if len(out) == 1 && src.calls["DaySpans"] > 0 {
			t.Errorf("one period read DaySpans: Count alone reads nothing at once")
		}
	}
}

// TestCountEachReadsDaysOnce: a trend of 30 whole days makes one read of the days in all,
// where one Count per day reads them once a day; a trend whose first bucket starts an hour
// into a day reads that hour apart.
func TestCountEachReadsDaysOnce(t *testing.T) {
	src := &scores{calls: map[string]int{}}
	for d := range int64(60) {
		src.at = append(src.at, d*rollup.DayMS+rollup.HourMS)
		src.score = append(src.score, int(d%5))
	}
	for _, tc := range []struct {
		start int64
		calls map[string]int
	}{
		{0, map[string]int{"DaySpans": 1}},
		{rollup.HourMS, map[string]int{"DaySpans": 1, "Buckets": 1}}, // the day less its first hour
	} {
		bounds := make([]int64, 31)
		for i := range bounds {
			bounds[i] = int64(10+i) * rollup.DayMS
		}
		bounds[0] += tc.start
		out := make([]map[int]int64, 30)
		for i := range out {
			out[i] = map[int]int64{}
		}
		clear(src.calls)
		if err := rollup.CountEach(context.Background(), src, nil, out, bounds, src.at[0], src.at[len(src.at)-1]); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.calls, src.calls); diff != "" {
			t.Errorf("from %d ms: the source's calls (-want +got):\n%s", bounds[0], diff)
		}
		for i := range out {
			if diff := cmp.Diff(map[int]int64{(10 + i) % 5: 1}, out[i]); diff != "" {
				t.Errorf("from %d ms: day %d (-want +got):\n%s", bounds[0], 10+i, diff)
			}
		}
	}
}
