package report

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/svc-feedback/svc/store"
)

// Segment choices: what a filter bar offers to pick a survey's responses by, beside their
// answers (each metadata key, the language, the page), with the values seen most often. They
// are read from the survey's newest responses only, so that finding them costs the same at any
// number of responses.

// Segment kinds: where a segment's values come from.
const (
	SegmentMetadata = "metadata" // a metadata key: the filter metadata.{key}
	SegmentLanguage = "language" // the language answered in: the filter language
	SegmentPage     = "page"     // the path of the page answered on: the filter page
)

// Bounds of the choices, so that neither a survey's history nor a hostile app's metadata makes
// them dear: the responses read, the values offered per segment, the segments offered, the
// distinct values counted in all, and the length of a value offered (a longer one is left to
// the free text box).
const (
	SegmentScan           = 1000
	maxSegmentValues      = 20
	maxSegmentKeys        = 30
	maxSegmentKeysCounted = 100
	maxSegmentDistinct    = 5000
	maxSegmentValueChars  = 200
)

// SegmentChoices are the segments a survey's newest responses hold.
type SegmentChoices struct {
	// Segments are the metadata keys (in the order of their names), then the language and the
	// page, each only when some response read has one.
	Segments []SegmentChoice
	// Read is how many responses were read; Newest says the survey has more, so that the
	// choices are those of its newest Read responses.
	Read   int
	Newest bool
}

// SegmentChoice is one segment: its filter parameter, its kind and key, and its values.
type SegmentChoice struct {
	// Param is the query parameter that filters by it: metadata.{key}, language or page.
	Param string
	// Kind is SegmentMetadata, SegmentLanguage or SegmentPage; Key the metadata key.
	Kind, Key string
	// Values are its most frequent values, most frequent first (ties in the order of the
	// values), at most 20; More says there were others.
	Values []ValueCount
	More   bool
}

// ValueCount is a value and how many of the responses read held it.
type ValueCount struct {
	Value string
	Count int
}

// segmentTally counts the values of the segments as responses are read, within the bounds.
type segmentTally struct {
	counts   map[string]map[string]int // by parameter, by value
	holders  map[string]int            // how many responses held each parameter
	more     map[string]bool           // a value was left out: too long, or past the bounds
	distinct int
}

// add counts one response's value of the segment param.
func (t *segmentTally) add(param, value string) {
	if value == "" {
		return
	}
	values, ok := t.counts[param]
	if !ok {
		if len(t.counts) >= maxSegmentKeysCounted && strings.HasPrefix(param, "metadata.") {
			return // the language and the page are always counted
		}
		values = map[string]int{}
		t.counts[param] = values
	}
	t.holders[param]++
	if _, seen := values[value]; !seen && (t.distinct == maxSegmentDistinct || utf8.RuneCountInString(value) > maxSegmentValueChars) {
		t.more[param] = true
		return
	}
	if values[value] == 0 {
		t.distinct++
	}
	values[value]++
}

// responseSegments adds the segments of response r to t: each metadata key's value, the
// language and the page. Hidden fields, when responses hold them, add theirs here too, as
// hidden.{name}, the parameter their filter takes.
func responseSegments(r store.Response, t *segmentTally) {
	meta := responseMetadata(r)
	for k, v := range meta {
		t.add("metadata."+k, v)
	}
	t.add(SegmentLanguage, r.Language)
	t.add(SegmentPage, PagePath(meta))
}

// ReadSegmentChoices reads the segments of the survey surveyID's newest responses (at most
// SegmentScan of them, in pages of at most maxPageBytes of answers).
func ReadSegmentChoices(ctx context.Context, s store.Store, surveyID string, maxPageBytes int) (SegmentChoices, error) {
	t := &segmentTally{counts: map[string]map[string]int{}, holders: map[string]int{}, more: map[string]bool{}}
	var out SegmentChoices
	q := store.ResponseQuery{SurveyID: surveyID, MaxBytes: maxPageBytes}
	for out.Read < SegmentScan {
		q.Limit = min(exportPage, SegmentScan-out.Read)
		page, next, err := s.Responses(ctx, q)
		if err != nil {
			return SegmentChoices{}, fmt.Errorf("segment choices of survey %s: %w", surveyID, err)
		}
		for _, r := range page {
			responseSegments(r, t)
		}
		out.Read += len(page)
		if next == nil {
			return t.choices(out), nil
		}
		q.Cursor = next
	}
	out.Newest = true
	return t.choices(out), nil
}

// choices are the tally's segments: the metadata keys most responses held, in the order of
// their names, then the language and the page; each with its most frequent values.
func (t *segmentTally) choices(out SegmentChoices) SegmentChoices {
	var keys []string
	for p := range t.counts {
		if strings.HasPrefix(p, "metadata.") {
			keys = append(keys, p)
		}
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(t.holders[b], t.holders[a]), strings.Compare(a, b)) })
	keys = keys[:min(len(keys), maxSegmentKeys)]
	slices.Sort(keys)
	for _, p := range append(keys, SegmentLanguage, SegmentPage) {
		values, ok := t.counts[p]
		if !ok {
			continue
		}
		c := SegmentChoice{Param: p, Kind: p, More: t.more[p]}
		if key, ok := strings.CutPrefix(p, "metadata."); ok {
			c.Kind, c.Key = SegmentMetadata, key
		}
		for v, n := range values {
			c.Values = append(c.Values, ValueCount{Value: v, Count: n})
		}
		slices.SortFunc(c.Values, func(a, b ValueCount) int {
			return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Value, b.Value))
		})
		if len(c.Values) > maxSegmentValues {
			c.Values, c.More = c.Values[:maxSegmentValues], true
		}
		if len(c.Values) > 0 || c.More {
			out.Segments = append(out.Segments, c)
		}
	}
	return out
}
