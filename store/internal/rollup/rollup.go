// Package rollup counts rating scores over a time range from per-day, per-hour and per-minute
// rollups, reading stored answers only for the parts of minutes at the range's edges, so the
// cost of a range does not grow with the number of responses in it. Every Store backend keeps
// the same rollups on write and counts through this one algorithm; only the queries differ.
package rollup

import "context"

// Bucket sizes in milliseconds, largest first: the levels of Source.Buckets.
const (
	MinuteMS = int64(60_000)
	HourMS   = 60 * MinuteMS
	DayMS    = 24 * HourMS
)

// Sizes are the rollup levels' bucket sizes, largest first.
var Sizes = []int64{DayMS, HourMS, MinuteMS}

// Source reads one question's counts from a backend. Each method adds sign times the counts it
// reads to counts (a score that comes to zero may be left at zero).
type Source interface {
	// Totals adds the question's lifetime totals.
	Totals(ctx context.Context, counts map[int]int64, sign int64) error
	// Buckets adds the counts of buckets [first, end) of level (an index into Sizes).
	Buckets(ctx context.Context, counts map[int]int64, sign int64, level int, first, end int64) error
	// Answers adds the scores of the responses created in [lo, hi), read from their answers.
	Answers(ctx context.Context, counts map[int]int64, sign int64, lo, hi int64) error
}

// Count adds the counts of [lo, hi) to counts, for a question whose ratings all lie in
// [first, last] (the survey's first and last response). An edge of the range outside the data
// moves to its day's bound, which needs no finer rollup: no data lies there to change the
// counts. When what lies outside the range is shorter than the range, the counts are the
// lifetime totals minus the outside; otherwise the range is counted directly.
func Count(ctx context.Context, src Source, counts map[int]int64, lo, hi, first, last int64) error {
	day := Sizes[0]
	dataLo, dataHi := FloorDiv(first, day)*day, (FloorDiv(last, day)+1)*day
	if lo <= first {
		lo = dataLo
	}
	if hi > last {
		hi = dataHi
	}
	if hi <= lo {
		return nil
	}
	if outside := (lo - dataLo) + (dataHi - hi); outside < hi-lo {
		if err := src.Totals(ctx, counts, 1); err != nil {
			return err
		}
		if err := countRange(ctx, src, counts, -1, dataLo, lo, 0); err != nil {
			return err
		}
		return countRange(ctx, src, counts, -1, hi, dataHi, 0)
	}
	return countRange(ctx, src, counts, 1, lo, hi, 0)
}

// countRange adds sign times the counts of [lo, hi), using rollup level for whole buckets and
// finer levels for the rest. A bucket that the range covers only in part is counted at the
// finer level, or, when the range covers more than half of it, as the whole bucket minus the
// part outside the range: either way the finer level reads at most half a bucket.
func countRange(ctx context.Context, src Source, counts map[int]int64, sign, lo, hi int64, level int) error {
	if hi <= lo {
		return nil
	}
	if level == len(Sizes) {
		return src.Answers(ctx, counts, sign, lo, hi) // less than a minute at an edge
	}
	size := Sizes[level]
	first, end := FloorDiv(lo+size-1, size), FloorDiv(hi, size) // whole buckets are [first, end)
	finer := func(sign, lo, hi int64) error { return countRange(ctx, src, counts, sign, lo, hi, level+1) }
	if first > end { // inside one bucket
		start, stop := end*size, (end+1)*size
		if 2*(hi-lo) <= size {
			return finer(sign, lo, hi)
		}
		if err := finer(-sign, start, lo); err != nil {
			return err
		}
		if err := finer(-sign, hi, stop); err != nil {
			return err
		}
		return src.Buckets(ctx, counts, sign, level, end, end+1)
	}
	if lo < first*size { // a part of bucket first-1
		if 2*(first*size-lo) <= size {
			if err := finer(sign, lo, first*size); err != nil {
				return err
			}
		} else {
			first--
			if err := finer(-sign, first*size, lo); err != nil {
				return err
			}
		}
	}
	if end*size < hi { // a part of bucket end
		if 2*(hi-end*size) <= size {
			if err := finer(sign, end*size, hi); err != nil {
				return err
			}
		} else {
			end++
			if err := finer(-sign, hi, end*size); err != nil {
				return err
			}
		}
	}
	if first >= end {
		return nil
	}
	return src.Buckets(ctx, counts, sign, level, first, end)
}

// FloorDiv is the bucket of a time in milliseconds, for negative times too.
func FloorDiv(at, size int64) int64 {
	d := at / size
	if at%size < 0 {
		d--
	}
	return d
}
