package report

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/svc-feedback/svc/internal/answerjson"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// filteredStore is a store whose counts, texts and stats are those of the responses a filter
// picks, worked out from the responses themselves as the writes work them out
// (store.ResponseCounts), one page in memory at a time; the rest is the store's. Summary,
// Trends and the stats take it in place of the store, so that a filter has one meaning
// everywhere. Views and dismissals are the survey's, unfiltered: a view has no answers to
// filter by. Its texts come with its counts (count), never from its Responses, which are the
// store's own, unfiltered.
type filteredStore struct {
	store.Store
	def          *survey.Definition
	f            Filter
	maxPageBytes int
}

// Filtered returns s for reads of sv through f: s itself when f is empty.
func Filtered(s store.Store, sv store.Survey, f Filter, maxPageBytes int) store.Store {
	if f.Empty() {
		return s
	}
	fs := &filteredStore{Store: s, def: &sv.Definition, f: f, maxPageBytes: maxPageBytes}
	if ss := segmentReads(fs); ss != nil {
		return ss // one declared segment's values: from its counts when they are complete
	}
	return fs
}

// each calls fn with every response of the survey created in [from, to) that the filter picks.
func (fs *filteredStore) each(ctx context.Context, surveyID string, from, to time.Time, fn func(r store.Response) error) error {
	q := store.ResponseQuery{SurveyID: surveyID, After: from, Before: to.Add(-time.Nanosecond)}
	return eachMatch(ctx, fs.Store, q, fs.f, fs.maxPageBytes, fn)
}

// eachMatch calls fn with every response q finds that f picks, oldest first, reading the store
// a page at a time (exportPage responses, of at most maxPageBytes of answers).
func eachMatch(ctx context.Context, s store.Store, q store.ResponseQuery, f Filter, maxPageBytes int, fn func(r store.Response) error) error {
	q.Limit, q.Oldest, q.MaxBytes, q.Narrow = exportPage, true, maxPageBytes, f.narrowing()
	m := f.matcher()
	for {
		page, next, err := s.Responses(ctx, q)
		if err != nil {
			return err
		}
		for _, r := range page {
			if !m.Match(r) {
				continue
			}
			if err := fn(r); err != nil {
				return err
			}
		}
		if next == nil {
			return nil
		}
		q.Cursor = next
	}
}

// maxFilteredRespondents bounds the set of respondents filtered stats keep to count each once.
const maxFilteredRespondents = 100_000

// Counts implements store.Store: the counts of the responses picked, and the events' from the
// store.
func (fs *filteredStore) Counts(ctx context.Context, surveyID string, keys []string, from, to time.Time) (map[string]map[int]int64, error) {
	counts, _, err := fs.count(ctx, surveyID, keys, from, to, 0)
	return counts, err
}

// count returns Counts' counts and, newest first, the texts (store.SummaryTexts) of the newest
// keep responses it counted, as a store.TextReader gives them: the period's responses are read
// oldest first, and the newest keep are kept in a ring.
func (fs *filteredStore) count(ctx context.Context, surveyID string, keys []string, from, to time.Time, keep int) (map[string]map[int]int64, []store.ResponseTexts, error) {
	out := map[string]map[int]int64{}
	if slices.Contains(keys, store.EventsKey) {
		events, err := fs.Store.Counts(ctx, surveyID, []string{store.EventsKey}, from, to)
		if err != nil {
			return nil, nil, err
		}
		out[store.EventsKey] = events[store.EventsKey]
	}
	ring := make([]store.ResponseTexts, 0, keep)
	n := 0
	var obj answerjson.Reader
	err := fs.each(ctx, surveyID, from, to, func(r store.Response) error {
		a, err := obj.Decode(r.Data)
		if err != nil {
			return fmt.Errorf("response %s: %w", r.ID, err)
		}
		for _, c := range store.ResponseCounts(fs.def, a, r.Finished) {
			if !slices.Contains(keys, c.Key) {
				continue
			}
			if out[c.Key] == nil {
				out[c.Key] = map[int]int64{}
			}
			out[c.Key][c.N]++
		}
		if keep > 0 {
			t := store.ResponseTexts{ID: r.ID, CreatedAt: r.CreatedAt, Texts: store.SummaryTexts(a)}
			if len(ring) < keep {
				ring = append(ring, t)
			} else {
				ring[n%keep] = t
			}
			n++
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	newest := make([]store.ResponseTexts, len(ring))
	for i := range newest {
		newest[i] = ring[(n-1-i)%keep]
	}
	return out, newest, nil
}

// RangeStats implements store.Store: the responses picked in the range, and the events'
// counts from the store.
func (fs *filteredStore) RangeStats(ctx context.Context, surveyID string, from, to time.Time) (store.Stats, error) {
	st, err := fs.Store.RangeStats(ctx, surveyID, from, to)
	if err != nil {
		return store.Stats{}, err
	}
	st.TotalResponses, st.UniqueResponders, st.FinishedResponses = 0, 0, 0
	respondents := map[string]bool{}
	err = fs.each(ctx, surveyID, from, to, func(r store.Response) error {
		st.TotalResponses++
		if r.Finished {
			st.FinishedResponses++
		}
		if !respondents[r.Respondent] {
			if len(respondents) == maxFilteredRespondents {
				return store.Invalidf("the filter picks responses of more than %d people in the range, too many to count each once: narrow the range", maxFilteredRespondents)
			}
			respondents[r.Respondent] = true
			st.UniqueResponders++
		}
		return nil
	})
	return st, err
}
