// Package report works out what svc tells of a survey's results: the periods of a time range,
// summaries, score distributions and exports, as functions over a store.Store and a time,
// returning plain types. The JSON API and the results pages both call it.
package report

import (
	"regexp"
	"strconv"
	"time"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
)

// Period is a half-open time range [Start, End).
type Period struct {
	Start, End time.Time
}

var (
	quarterRE = regexp.MustCompile(`^q([1-4])-(\d{4})$`)
	customRE  = regexp.MustCompile(`^custom_(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})$`)
)

// Range turns a timeRange value (docs/api.md: all-time, the default; last-7-days;
// last-30-days; qN-YYYY; custom_YYYY-MM-DD_YYYY-MM-DD) into its current period and the previous
// period of equal length (nil for all-time). All ranges are UTC; created is the survey's creation
// time, where all-time starts. An invalid one is an error that wraps store.ErrInvalid.
func Range(s string, now, created time.Time) (Period, *Period, error) {
	now = now.UTC()
	rolling := func(days int) (Period, *Period, error) {
		d := time.Duration(days) * 24 * time.Hour
		return Period{now.Add(-d), now}, &Period{now.Add(-2 * d), now.Add(-d)}, nil
	}
	switch s {
	case "", "all-time":
		return Period{created.UTC(), now}, nil, nil
	case "last-7-days":
		return rolling(7)
	case "last-30-days":
		return rolling(30)
	}
	var cur, prev Period
	if m := quarterRE.FindStringSubmatch(s); m != nil {
		q, _ := strconv.Atoi(m[1])
		year, _ := strconv.Atoi(m[2])
		start := time.Date(year, time.Month(3*(q-1)+1), 1, 0, 0, 0, 0, time.UTC)
		cur, prev = Period{start, start.AddDate(0, 3, 0)}, Period{start.AddDate(0, -3, 0), start}
	} else if m := customRE.FindStringSubmatch(s); m != nil {
		first, err1 := time.Parse(time.DateOnly, m[1])
		last, err2 := time.Parse(time.DateOnly, m[2])
		if err1 != nil || err2 != nil {
			return Period{}, nil, store.Invalidf("timeRange %q holds a date that does not exist", wire.Truncate(s))
		}
		if last.Before(first) {
			return Period{}, nil, store.Invalidf("timeRange custom range ends before it starts")
		}
		// Counted in whole days, not as a time.Duration, which saturates at about 292 years.
		end := last.AddDate(0, 0, 1)
		days := int((end.Unix() - first.Unix()) / (24 * 60 * 60))
		cur, prev = Period{first, end}, Period{first.AddDate(0, 0, -days), first}
	} else {
		return Period{}, nil, store.Invalidf("timeRange %q is not all-time, last-7-days, last-30-days, qN-YYYY or custom_YYYY-MM-DD_YYYY-MM-DD", wire.Truncate(s))
	}
	// Both periods go out as RFC 3339 date-times, whose years run from 0000 to 9999.
	if prev.Start.Year() < 0 || cur.End.Year() > 9999 {
		return Period{}, nil, store.Invalidf("timeRange %q reaches outside the years 0000 to 9999 (with the period of equal length before it, which the reply also holds)", wire.Truncate(s))
	}
	return cur, &prev, nil
}
