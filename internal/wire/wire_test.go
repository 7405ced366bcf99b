package wire

import (
	"testing"
	"time"
)

// TestAppendTimeMatchesLayout compares the fast time writer with time.Format over many
// instants, the edges of years and milliseconds included.
func TestAppendTimeMatchesLayout(t *testing.T) {
	times := []time.Time{
		time.Date(2026, 11, 21, 10, 4, 5, 123_456_789, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999_999_999, time.FixedZone("x", -3600)),
		time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 1_000_000, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.UnixMilli(0),
	}
	for i := range 2000 {
		times = append(times, time.UnixMilli(int64(i)*7_919_993_071+1))
	}
	for _, tm := range times {
		if got, want := string(AppendTime(nil, tm)), tm.UTC().Format(timeLayout); got != want {
			t.Errorf("AppendTime(%v) = %s, want %s", tm, got, want)
		}
	}
}
