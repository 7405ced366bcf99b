package countlog

import (
	"context"

	"github.com/svc-feedback/svc/store/internal/rollup"
)

// Row is one rollup row of a survey: Level is -1 for the lifetime totals, else an index into
// rollup.Sizes, and Bucket the day, hour or minute (0 for the totals).
type Row struct {
	Name   string
	Level  int
	Bucket int64
	Score  int
}

// Expand adds each change of m to the rollup rows it counts in: the totals, and its day, hour
// and minute.
func Expand(m map[Key]int64, into map[Row]int64) {
	for k, n := range m {
		if n == 0 {
			continue
		}
		into[Row{k.Name, -1, 0, k.Score}] += n
		at := k.Minute * rollup.MinuteMS
		for level, size := range rollup.Sizes {
			into[Row{k.Name, level, rollup.FloorDiv(at, size), k.Score}] += n
		}
	}
}

// Unfolded holds one survey's changes that are not yet in the rollups, for a read that adds
// them to what it reads there, in the same snapshot.
type Unfolded struct {
	byName map[string][]change
}

type change struct {
	score     int
	minute, n int64
}

// Add adds the changes of a row of the survey's log.
func (u *Unfolded) Add(row []byte) error {
	if u.byName == nil {
		u.byName = make(map[string][]change)
	}
	return Decode(row, func(k Key, n int64) {
		u.byName[k.Name] = append(u.byName[k.Name], change{k.Score, k.Minute, n})
	})
}

// Source returns src with the unfolded changes of name added to its totals and buckets. Its
// Answers are src's: they read the stored responses, which hold every write already.
func (u *Unfolded) Source(src rollup.Source, name string) rollup.Source {
	if len(u.byName[name]) == 0 {
		return src
	}
	return withUnfolded{src, u.byName[name]}
}

type withUnfolded struct {
	rollup.Source
	changes []change
}

func (w withUnfolded) Totals(ctx context.Context, counts map[int]int64, sign int64) error {
	if err := w.Source.Totals(ctx, counts, sign); err != nil {
		return err
	}
	for _, c := range w.changes {
		add(counts, c.score, sign*c.n)
	}
	return nil
}

func (w withUnfolded) Buckets(ctx context.Context, counts map[int]int64, sign int64, level int, first, end int64) error {
	if err := w.Source.Buckets(ctx, counts, sign, level, first, end); err != nil {
		return err
	}
	size := rollup.Sizes[level]
	for _, c := range w.changes {
		if b := rollup.FloorDiv(c.minute*rollup.MinuteMS, size); b >= first && b < end {
			add(counts, c.score, sign*c.n)
		}
	}
	return nil
}

// add adds n to a score's count, dropping a score that comes to zero, as the sources do.
func add(counts map[int]int64, score int, n int64) {
	counts[score] += n
	if counts[score] == 0 {
		delete(counts, score)
	}
}
