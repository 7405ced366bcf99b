package countlog

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A row decodes to the changes encoded, less those that came to zero; a row cut short or
// altered is an error, never a panic or a wrong change.
func TestEncodeDecode(t *testing.T) {
	c := Changes{}
	c.Add("s1", "nps", 9, 1_764_000_000_123, 3)
	c.Add("s1", "nps", 9, 1_764_000_000_999, 2) // the same minute
	c.Add("s1", "\x1freached", 4, -90_000, -1)  // before 1970: the minute floors
	c.Add("s1", "gone", 1, 0, 1)
	c.Add("s1", "gone", 1, 0, -1)
	row := Encode(nil, c["s1"])
	got := map[Key]int64{}
	if err := Decode(row, func(k Key, n int64) { got[k] += n }); err != nil {
		t.Fatal(err)
	}
	want := map[Key]int64{{"nps", 9, 29_400_000}: 5, {"\x1freached", 4, -2}: -1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	for i := range len(row) {
		_ = Decode(row[:i], func(Key, int64) {}) // must not panic
		if i < 2 {
			if err := Decode(row[:i], func(Key, int64) {}); err == nil {
				t.Errorf("a row of %d bytes decoded", i)
			}
		}
	}
	// One name, "a", then a change of name 5.
	if err := Decode([]byte{format, 1, 1, 'a', 5, 0, 0, 2}, func(Key, int64) {}); err == nil {
		t.Error("a change of a name the row does not have decoded")
	}
	if err := Decode([]byte{format + 1}, func(Key, int64) {}); err == nil {
		t.Error("a row of another format decoded")
	}
}

// Unfolded changes are added to a source's totals and to the buckets that hold their minute.
func TestUnfoldedBuckets(t *testing.T) {
	c := Changes{}
	c.Add("s", "nps", 7, 90*60_000, 2)  // minute 90: hour 1, day 0
	c.Add("s", "nps", 7, 200*60_000, 1) // minute 200: hour 3
	var u Unfolded
	if err := u.Add(Encode(nil, c["s"])); err != nil {
		t.Fatal(err)
	}
	src := u.Source(zero{}, "nps")
	counts := map[int]int64{}
	_ = src.Totals(t.Context(), counts, 1)
	_ = src.Buckets(t.Context(), counts, -1, 1, 1, 3) // hours [1, 3): minute 90 only
	if want := map[int]int64{7: 1}; !cmp.Equal(counts, want) {
		t.Errorf("totals minus hours 1-2 = %v, want %v", counts, want)
	}
	if got := u.Source(zero{}, "other"); got != (zero{}) {
		t.Error("a key without unfolded changes should read its source alone")
	}
}

// zero is a source with nothing in it.
type zero struct{}

func (zero) Totals(context.Context, map[int]int64, int64) error { return nil }
func (zero) Buckets(context.Context, map[int]int64, int64, int, int64, int64) error {
	return nil
}
func (zero) Answers(context.Context, map[int]int64, int64, int64, int64) error { return nil }
