package rollup

import "context"

// SpanReader is a Source that can also sum many spans of whole days at once. CountEach uses it
// to read the days of many periods (a trend's buckets) in one query, where Count would make
// one query per period.
type SpanReader interface {
	Source
	// DaySpans calls add with the counts of each span [spans[i].First, spans[i].End) of days
	// (day numbers, as Buckets takes), by score, in any order; a (span, score) may come more
	// than once, to be summed.
	DaySpans(ctx context.Context, spans []Span, add func(span int, score int, n int64)) error
}

// Span is a run of buckets [First, End).
type Span struct{ First, End int64 }

// CountEach adds the counts of each period [bounds[i], bounds[i+1]) to out[i] (len(bounds)-1
// maps), as Count would for each alone, for a question whose ratings all lie in [first, last].
// When src is a SpanReader and there is more than one period, the spans of whole days that
// the periods' counts need are read from it at once, and only the rest (hours and minutes at
// partial days) per period. wrap, which may be nil, wraps the source the periods are counted
// from (to add the count log's unfolded changes, say), so that it applies to what is read at
// once too.
func CountEach(ctx context.Context, src Source, wrap func(Source) Source, out []map[int]int64, bounds []int64, first, last int64) error {
	if len(bounds) < 2 {
		return nil
	}
	if sr, ok := src.(SpanReader); ok && len(bounds) > 2 {
		// Count's calls depend only on the bounds, never on what it reads: a dry run tells
		// which spans of days it will ask for.
		var dry dryRun
		scratch := map[int]int64{}
		for i := range out {
			if err := Count(ctx, &dry, scratch, bounds[i], bounds[i+1], first, last); err != nil {
				return err
			}
		}
		if len(dry.spans) > 0 {
			r, err := readSpans(ctx, sr, dry.spans)
			if err != nil {
				return err
			}
			src = r
		}
	}
	if wrap != nil {
		src = wrap(src)
	}
	for i := range out {
		if err := Count(ctx, src, out[i], bounds[i], bounds[i+1], first, last); err != nil {
			return err
		}
	}
	return nil
}

// dryRun is a Source that reads nothing and notes the spans of days asked for.
type dryRun struct {
	spans []Span
	seen  map[Span]bool
}

func (d *dryRun) Totals(context.Context, map[int]int64, int64) error { return nil }

func (d *dryRun) Answers(context.Context, map[int]int64, int64, int64, int64) error { return nil }

func (d *dryRun) Buckets(_ context.Context, _ map[int]int64, _ int64, level int, first, end int64) error {
	sp := Span{first, end}
	if level != 0 || d.seen[sp] {
		return nil
	}
	if d.seen == nil {
		d.seen = make(map[Span]bool)
	}
	d.seen[sp] = true
	d.spans = append(d.spans, sp)
	return nil
}

// spans is a Source whose whole-day buckets of the spans read at once come from memory;
// everything else is read from the Source it wraps.
type spans struct {
	Source
	counts map[Span]map[int]int64
}

func readSpans(ctx context.Context, src SpanReader, list []Span) (*spans, error) {
	s := &spans{Source: src, counts: make(map[Span]map[int]int64, len(list))}
	for _, sp := range list {
		s.counts[sp] = make(map[int]int64)
	}
	err := src.DaySpans(ctx, list, func(i int, score int, n int64) {
		s.counts[list[i]][score] += n
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (s *spans) Buckets(ctx context.Context, counts map[int]int64, sign int64, level int, first, end int64) error {
	c, ok := s.counts[Span{first, end}]
	if level != 0 || !ok {
		return s.Source.Buckets(ctx, counts, sign, level, first, end)
	}
	for score, n := range c {
		counts[score] += sign * n
		if counts[score] == 0 {
			delete(counts, score) // as the sources do
		}
	}
	return nil
}
