package report

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/svc-feedback/svc/internal/answerjson"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Reads by a declared segment (docs/api.md#segments). A filter that is exactly values of one
// segment (metadata.{key}, language, or the answer of a single-select or rating question) is
// answered from the counts the store keeps per value of the team's declared segments, when the
// team declares that segment and the survey's counts of it are complete: its cost is then that
// of the unfiltered read. Otherwise, and for every other filter, the responses are read as
// filteredStore reads them. Views and dismissals stay the survey's, as with any filter.

// segmentTerm is a filter that may be read from segment counts: the segment, as a team
// declares it, and the values the filter picks.
type segmentTerm struct {
	segment string
	values  []string
	// language: a tag picks its regional forms too ("de" picks "de-AT").
	language bool
}

// segmentTermOf returns f as one segment's values, and false when f is anything else.
func segmentTermOf(f Filter, def *survey.Definition) (segmentTerm, bool) {
	rest := f
	var t segmentTerm
	switch {
	case len(f.metadata) == 1 && len(f.answers) == 0 && len(f.language) == 0:
		for k, vs := range f.metadata {
			t = segmentTerm{segment: store.SegmentMetadata + k, values: vs}
		}
		rest.metadata = nil
	case len(f.language) > 0 && len(f.metadata) == 0 && len(f.answers) == 0:
		t = segmentTerm{segment: store.SegmentLanguage, values: f.language, language: true}
		rest.language = nil
	case len(f.answers) == 1 && len(f.metadata) == 0 && len(f.language) == 0:
		for id, af := range f.answers {
			q, ok := def.Question(id)
			if !ok || af.min != nil || af.max != nil || len(af.values) == 0 {
				return segmentTerm{}, false
			}
			values, ok := answerValues(q.Type(), af.values)
			if !ok {
				return segmentTerm{}, false
			}
			t = segmentTerm{segment: store.SegmentAnswer + id, values: values}
		}
		rest.answers = nil
	default:
		return segmentTerm{}, false
	}
	return t, rest.Empty()
}

// SegmentOf returns the segment, as a team declares it (metadata.{key}, language or
// answer.{questionId}), whose counts could answer f: false when f is anything but values of one
// such segment.
func SegmentOf(f Filter, def *survey.Definition) (string, bool) {
	t, ok := segmentTermOf(f, def)
	return t.segment, ok
}

// answerValues are a question's filter values as its segment names them: a single-select's as
// given, a rating's scores as store.SegmentValue writes them.
func answerValues(typ string, values []string) ([]string, bool) {
	switch typ {
	case survey.TypeSingleSelect:
		return values, true
	case survey.TypeRating:
		out := make([]string, 0, len(values))
		for _, v := range values {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, false
			}
			out = append(out, strconv.FormatFloat(x, 'f', -1, 64))
		}
		return out, true
	}
	return nil, false
}

// buckets returns the segment's index in st and the buckets whose counts hold exactly the
// responses the term picks, or false when the counts cannot say (the segment is not declared,
// the counts are not complete, or a value picked may be counted under store.SegmentOther).
func (t segmentTerm) buckets(st store.SegmentState) (int, []string, bool) {
	i := slices.Index(st.Segments, t.segment)
	if i < 0 || !st.Complete || i >= len(st.Values) {
		return 0, nil, false
	}
	named, full := st.Values[i], len(st.Values[i]) >= store.MaxSegmentValues
	var out []string
	for _, v := range t.values {
		if t.language {
			if full {
				return 0, nil, false // a regional form may be among the others
			}
			for _, n := range named {
				if n == v || strings.HasPrefix(n, v+"-") {
					out = append(out, n)
				}
			}
			continue
		}
		switch {
		case slices.Contains(named, v):
			out = append(out, v)
		case full || !store.Nameable(v):
			return 0, nil, false // counted among the others, if at all
		default:
			out = append(out, v) // never seen: nothing counted under it
		}
	}
	slices.Sort(out)
	return i, slices.Compact(out), true
}

// segmentStore answers a filtered store's counts and stats from segment counts when it can,
// else through the filteredStore.
type segmentStore struct {
	*filteredStore
	sc   store.SegmentCounter
	term segmentTerm

	// The plan of the request's survey, read once: a summary asks for it several times.
	mu      sync.Mutex
	planned map[string]segmentPlan
}

// segmentPlan is what plan returns.
type segmentPlan struct {
	gen     int64
	index   int
	buckets []string
	ok      bool
}

// segmentReads returns fs's reads through segment counts when its filter is one segment's
// values and the store keeps segment counts; nil otherwise.
func segmentReads(fs *filteredStore) store.Store {
	sc, ok := fs.Store.(store.SegmentCounter)
	if !ok {
		return nil
	}
	t, ok := segmentTermOf(fs.f, fs.def)
	if !ok {
		return nil
	}
	return &segmentStore{filteredStore: fs, sc: sc, term: t}
}

// plan reads the survey's segment state: the generation, segment index and buckets to read,
// or false to read the responses.
func (ss *segmentStore) plan(ctx context.Context, surveyID string) (int64, int, []string, bool, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if p, ok := ss.planned[surveyID]; ok {
		return p.gen, p.index, p.buckets, p.ok, nil
	}
	st, err := ss.sc.SegmentState(ctx, surveyID)
	if err != nil {
		return 0, 0, nil, false, err
	}
	i, buckets, ok := ss.term.buckets(st)
	if ss.planned == nil {
		ss.planned = map[string]segmentPlan{}
	}
	ss.planned[surveyID] = segmentPlan{st.Gen, i, buckets, ok}
	return st.Gen, i, buckets, ok, nil
}

// Counts implements store.Store.
func (ss *segmentStore) Counts(ctx context.Context, surveyID string, keys []string, from, to time.Time) (map[string]map[int]int64, error) {
	out, err := ss.PeriodCounts(ctx, surveyID, keys, []time.Time{from, to})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// PeriodCounts implements store.PeriodCounter: the segment keys of each key asked, summed over
// the buckets picked, in one read of the store (one per period without a PeriodCounter).
func (ss *segmentStore) PeriodCounts(ctx context.Context, surveyID string, keys []string, bounds []time.Time) ([]map[string]map[int]int64, error) {
	if len(bounds) < 2 {
		return nil, store.Invalidf("period counts need at least two bounds")
	}
	gen, index, buckets, ok, err := ss.plan(ctx, surveyID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return ss.eachPeriod(ctx, surveyID, keys, bounds, ss.filteredStore.Counts)
	}
	var read []string
	innerOf := map[string]string{}
	for _, k := range keys {
		if k == store.EventsKey { // the survey's, unfiltered
			read, innerOf[k] = append(read, k), k
			continue
		}
		for _, b := range buckets {
			sk := store.SegmentKey(gen, index, b, k)
			read, innerOf[sk] = append(read, sk), k
		}
	}
	var raw []map[string]map[int]int64
	if pc, ok := ss.Store.(store.PeriodCounter); ok {
		raw, err = pc.PeriodCounts(ctx, surveyID, read, bounds)
	} else {
		raw, err = ss.eachPeriod(ctx, surveyID, read, bounds, ss.Store.Counts)
	}
	if err != nil {
		return nil, err
	}
	out := make([]map[string]map[int]int64, len(raw))
	for p, counts := range raw {
		out[p] = make(map[string]map[int]int64, len(keys))
		for _, k := range keys {
			out[p][k] = map[int]int64{}
		}
		for sk, m := range counts {
			for n, c := range m {
				out[p][innerOf[sk]][n] += c
			}
		}
	}
	return out, nil
}

// eachPeriod reads each period's counts with one call of counts.
func (ss *segmentStore) eachPeriod(ctx context.Context, surveyID string, keys []string, bounds []time.Time,
	counts func(context.Context, string, []string, time.Time, time.Time) (map[string]map[int]int64, error)) ([]map[string]map[int]int64, error) {
	out := make([]map[string]map[int]int64, len(bounds)-1)
	for i := range out {
		c, err := counts(ctx, surveyID, keys, bounds[i], bounds[i+1])
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// RangeStats implements store.Store: the events' from the store, the responses' from those
// counted under the buckets picked.
func (ss *segmentStore) RangeStats(ctx context.Context, surveyID string, from, to time.Time) (store.Stats, error) {
	gen, index, buckets, ok, err := ss.plan(ctx, surveyID)
	if err != nil {
		return store.Stats{}, err
	}
	if !ok {
		return ss.filteredStore.RangeStats(ctx, surveyID, from, to)
	}
	st, err := ss.Store.RangeStats(ctx, surveyID, from, to)
	if err != nil {
		return store.Stats{}, err
	}
	rs, err := ss.sc.SegmentResponses(ctx, surveyID, gen, index, buckets, from, to)
	if err != nil {
		return store.Stats{}, err
	}
	st.TotalResponses, st.UniqueResponders, st.FinishedResponses = rs.TotalResponses, rs.UniqueResponders, rs.FinishedResponses
	return st, nil
}

// countsAndLatest reads a summary's counts of p from the segment counts and its newest texts
// from the segment's responses among the period's newest latestScan (all of the period's
// responses, not only the segment's); done is false when the
// segment counts cannot say (see buckets).
func (ss *segmentStore) countsAndLatest(ctx context.Context, sv store.Survey, keys []string, p Period, open map[string]map[string]bool, maxPageBytes int) (map[string]map[int]int64, map[string][]LatestAnswer, bool, error) {
	if _, _, _, ok, err := ss.plan(ctx, sv.ID); err != nil || !ok {
		return nil, nil, false, err
	}
	counts, err := ss.Counts(ctx, sv.ID, keys, p.Start, p.End)
	if err != nil {
		return nil, nil, false, err
	}
	latest := map[string][]LatestAnswer{}
	if len(open) == 0 || !p.End.After(p.Start) {
		return counts, latest, true, nil
	}
	// A short first page, as latestTexts reads, since the newest few usually hold the answers.
	// Not narrowed: the store then reads the newest latestScan responses at most, as for an
	// unfiltered summary, rather than as many as it takes to find that many of the segment's.
	q := store.ResponseQuery{SurveyID: sv.ID, After: p.Start, Before: p.End.Add(-1), Limit: 8 * latestAnswers, MaxBytes: maxPageBytes}
	m := ss.f.matcher()
	var obj answerjson.Reader
	for scanned := 0; scanned < latestScan; q.Limit = min(100, latestScan-scanned) {
		page, next, err := ss.Store.Responses(ctx, q)
		if err != nil {
			return nil, nil, false, err
		}
		var picked []store.ResponseTexts
		for _, r := range page {
			if !m.Match(r) {
				continue
			}
			a, err := obj.Decode(r.Data)
			if err != nil {
				continue // answers that are not an object hold no text
			}
			picked = append(picked, store.ResponseTexts{ID: r.ID, CreatedAt: r.CreatedAt, Texts: store.SummaryTexts(a)})
		}
		pickLatest(latest, newTextReader(), picked, open)
		scanned += len(page)
		if next == nil || len(page) == 0 || haveAll(latest, open) {
			break
		}
		q.Cursor = next
	}
	return counts, latest, true, nil
}
