// Package countlog carries count changes from writes to the rollups. A batch of writes does not
// update the rollup rows (lifetime totals, days, hours and minutes of every count it touches):
// it records its changes, summed per count and minute, as one compact row per survey in the
// same transaction, so nothing acknowledged is lost on a crash. A folder later reads those
// rows in bulk, adds them into the rollups and deletes them, in one transaction; readers add
// the few rows not yet folded to what they read from the rollups, in one snapshot. A rollup
// row then changes once per fold rather than once per batch, and the writes of several
// instances no longer queue on the same hot rows.
//
// Every Store backend keeps its log in a table of its own; this package holds what they share:
// the changes, their encoding, their expansion into rollup rows and the reads of unfolded rows.
package countlog

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/svc-feedback/svc/store/internal/rollup"
)

// Key is one count of a survey in one UTC minute: a key (a question id or one of the summary's
// keys) and a number (a score, an option, a position).
type Key struct {
	Name   string
	Score  int
	Minute int64 // minutes since the Unix epoch
}

// Changes are count changes by survey, summed per Key.
type Changes map[string]map[Key]int64

// Add adds n to the count (name, score) of survey at at (Unix milliseconds).
func (c Changes) Add(survey, name string, score int, at, n int64) {
	m := c[survey]
	if m == nil {
		m = make(map[Key]int64)
		c[survey] = m
	}
	m[Key{name, score, rollup.FloorDiv(at, rollup.MinuteMS)}] += n
}

// Len is the number of changes, over all surveys.
func (c Changes) Len() int {
	n := 0
	for _, m := range c {
		n += len(m)
	}
	return n
}

// format is the first byte of an encoded row, so that a later encoding can tell its rows from
// these.
const format = 1

// Encode appends the changes of one survey to dst, compactly: the distinct names once, then
// each change as varints (name index, score, minute, n). Changes that come to zero are left out.
func Encode(dst []byte, m map[Key]int64) []byte {
	names := make(map[string]uint64)
	var order []string
	for k, n := range m {
		if _, ok := names[k.Name]; !ok && n != 0 {
			names[k.Name] = uint64(len(order))
			order = append(order, k.Name)
		}
	}
	dst = append(dst, format)
	dst = binary.AppendUvarint(dst, uint64(len(order)))
	for _, name := range order {
		dst = binary.AppendUvarint(dst, uint64(len(name)))
		dst = append(dst, name...)
	}
	for k, n := range m {
		if n == 0 {
			continue
		}
		dst = binary.AppendUvarint(dst, names[k.Name])
		dst = binary.AppendVarint(dst, int64(k.Score))
		dst = binary.AppendVarint(dst, k.Minute)
		dst = binary.AppendVarint(dst, n)
	}
	return dst
}

// errCorrupt is the error of a row this package did not write.
var errCorrupt = errors.New("countlog: malformed row of count changes")

// Decode calls fn for each change of a row Encode wrote.
func Decode(b []byte, fn func(k Key, n int64)) error {
	if len(b) == 0 || b[0] != format {
		return errCorrupt
	}
	r := reader{b: b[1:]}
	count := r.uvarint()
	if count > uint64(len(r.b)) { // every name takes a byte at least
		return errCorrupt
	}
	names := make([]string, 0, count)
	for range count {
		size := r.uvarint()
		if r.err != nil || size > uint64(len(r.b)) {
			return errCorrupt
		}
		names = append(names, string(r.b[:size]))
		r.b = r.b[size:]
	}
	for len(r.b) > 0 && r.err == nil {
		i := r.uvarint()
		score, minute, n := r.varint(), r.varint(), r.varint()
		if r.err != nil || i >= uint64(len(names)) {
			return errCorrupt
		}
		fn(Key{names[i], int(score), minute}, n)
	}
	if r.err != nil {
		return fmt.Errorf("%w: %w", errCorrupt, r.err)
	}
	return nil
}

// reader reads varints, keeping the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err, r.b = errors.New("truncated varint"), nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err, r.b = errors.New("truncated varint"), nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// AddRow adds the changes of a row Encode wrote, of survey, to c.
func (c Changes) AddRow(survey string, row []byte) error {
	m := c[survey]
	if m == nil {
		m = make(map[Key]int64)
		c[survey] = m
	}
	return Decode(row, func(k Key, n int64) { m[k] += n })
}

// Merge adds o's changes to c.
func (c Changes) Merge(o Changes) {
	for survey, om := range o {
		if len(om) == 0 {
			continue
		}
		m := c[survey]
		if m == nil {
			m = make(map[Key]int64, len(om))
			c[survey] = m
		}
		for k, n := range om {
			m[k] += n
		}
	}
}
