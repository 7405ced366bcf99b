package storetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

func testEventsHistoryStats(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	events := []store.Event{
		{Respondent: "ann", Type: store.EventView, At: t0},
		{Respondent: "ann", Type: store.EventView, At: t0.Add(2 * time.Minute)},
		{Respondent: "bob", Type: store.EventView, At: t0.Add(time.Minute)},
		{Respondent: "bob", Type: store.EventDismiss, At: t0.Add(3 * time.Minute)},
		{Respondent: "ann", Type: store.EventView, At: t0.Add(time.Minute)}, // older than ann's latest
	}
	for _, e := range events {
		e.SurveyID = sv.ID
		if err := s.RecordEvent(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	for _, who := range []string{"ann", "cat"} {
		put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: who, Data: survey.Answers{}, At: t0.Add(4 * time.Minute)})
	}
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{}, At: t0.Add(5 * time.Minute)})
	// A response created earlier than ann's newest (an import, or a clock set back) leaves her
	// last response where it was.
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{}, At: t0.Add(30 * time.Second)})
	// Responses of new respondents written at once, as group commit shares one transaction
	// between them: each respondent is counted once.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: fmt.Sprintf("dan%d", i%2), Data: survey.Answers{}, At: t0.Add(4 * time.Minute)}
			if _, _, err := s.PutResponse(ctx, w); err != nil {
				t.Errorf("PutResponse(%s): %v", w.ID, err)
			}
		}()
	}
	wg.Wait()
	wantErr(t, "RecordEvent bad type", s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: "x", Type: "click", At: t0}), store.ErrInvalid)
	wantErr(t, "RecordEvent unknown survey", s.RecordEvent(ctx, store.Event{SurveyID: ids.New(), Respondent: "x", Type: store.EventView, At: t0}), store.ErrNotFound)

	st, err := s.Stats(ctx, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := store.Stats{TotalViews: 4, UniqueViewers: 2, TotalDismissals: 1, UniqueDismissers: 1, TotalResponses: 12, UniqueResponders: 4}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
	h, err := s.History(ctx, sv.ID, "ann")
	if err != nil {
		t.Fatal(err)
	}
	at := func(d time.Duration) *time.Time { x := t0.Add(d); return &x }
	if diff := cmp.Diff(store.History{LastRespondedAt: at(5 * time.Minute), LastViewedAt: at(2 * time.Minute)}, h); diff != "" {
		t.Errorf("History(ann) (-want +got):\n%s", diff)
	}
	h, err = s.History(ctx, sv.ID, "cat")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.History{LastRespondedAt: at(4 * time.Minute)}, h); diff != "" {
		t.Errorf("History(cat), who only responded (-want +got):\n%s", diff)
	}
	h, err = s.History(ctx, sv.ID, "nobody")
	if err != nil || h != (store.History{}) {
		t.Errorf("History(unknown) = %+v, %v; want empty", h, err)
	}
	_, err = s.Stats(ctx, ids.New())
	wantErr(t, "Stats(unknown survey)", err, store.ErrNotFound)
}

func testCounts(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	midnight := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	// Scores on several days and at day edges.
	scores := []struct {
		at    time.Time
		nps   int
		stars int
	}{
		{midnight.Add(-time.Millisecond), 10, 1}, // last instant of Mar 9
		{midnight, 9, 5},                         // first instant of Mar 10
		{midnight.Add(13 * time.Hour), 9, 4},
		{midnight.Add(36 * time.Hour), 0, 4}, // Mar 11, 12:00
		{midnight.Add(72 * time.Hour), 7, 3}, // Mar 13, 00:00
	}
	var lastID string
	for _, sc := range scores {
		lastID = ids.New()
		put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: lastID, Respondent: "r" + lastID,
			Data: survey.Answers{"nps": survey.Number(sc.nps), "stars": survey.Number(sc.stars), "comments": survey.Text("x")}, At: sc.at})
	}
	check := func(name string, from, to time.Time, want map[string]map[int]int64) {
		t.Helper()
		got, err := s.Counts(ctx, sv.ID, []string{"nps", "stars"}, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: Counts (-want +got):\n%s", name, diff)
		}
	}
	check("everything", midnight.Add(-48*time.Hour), midnight.Add(96*time.Hour), map[string]map[int]int64{
		"nps": {10: 1, 9: 2, 0: 1, 7: 1}, "stars": {1: 1, 5: 1, 4: 2, 3: 1},
	})
	check("whole day Mar 10", midnight, midnight.Add(24*time.Hour), map[string]map[int]int64{
		"nps": {9: 2}, "stars": {5: 1, 4: 1},
	})
	check("partial edges", midnight.Add(-time.Millisecond), midnight.Add(72*time.Hour), map[string]map[int]int64{
		"nps": {10: 1, 9: 2, 0: 1}, "stars": {1: 1, 5: 1, 4: 2},
	})
	check("inside one day", midnight.Add(time.Hour), midnight.Add(14*time.Hour), map[string]map[int]int64{
		"nps": {9: 1}, "stars": {4: 1},
	})
	check("empty range", midnight, midnight, map[string]map[int]int64{"nps": {}, "stars": {}})

	// An update moves the response's scores; counts stay on its creation day.
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: lastID, Respondent: "r" + lastID,
		Data: survey.Answers{"nps": survey.Number(1)}, At: midnight.Add(100 * time.Hour)})
	check("after update", midnight.Add(72*time.Hour), midnight.Add(96*time.Hour), map[string]map[int]int64{
		"nps": {1: 1}, "stars": {},
	})
}

// anyRange is what testCountsAnyRange and testPeriodCounts put and count: responses dense in
// some hours and minutes and sparse in others, over three days from midnight.
type anyRange struct {
	sv       store.Survey
	rng      *rand.Rand
	midnight time.Time
	ratings  []anyRating
}

type anyRating struct {
	at               time.Time
	nps, stars       int
	hasNPS, hasStars bool
}

func putAnyRange(t *testing.T, s store.Store) *anyRange {
	mustTeam(t, s, "a")
	a := &anyRange{sv: mustSurvey(t, s, newSurvey("a", t0)), rng: rand.New(rand.NewPCG(1, 2)), // fixed: a failure must repeat
		midnight: time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)}
	for range 400 {
		var at time.Time
		switch a.rng.IntN(3) {
		case 0: // anywhere in three days
			at = a.midnight.Add(time.Duration(a.rng.Int64N(int64(72 * time.Hour))))
		case 1: // dense: in the hour from 13:00 on the second day
			at = a.midnight.Add(37*time.Hour + time.Duration(a.rng.Int64N(int64(time.Hour))))
		default: // dense: in the minute from 13:07 on the second day
			at = a.midnight.Add(37*time.Hour + 7*time.Minute + time.Duration(a.rng.Int64N(int64(time.Minute))))
		}
		at = at.Truncate(time.Millisecond)
		r := anyRating{at: at, nps: a.rng.IntN(11), stars: 1 + a.rng.IntN(5), hasNPS: a.rng.IntN(5) > 0, hasStars: a.rng.IntN(5) > 0}
		data := survey.Answers{}
		if r.hasNPS {
			data["nps"] = survey.Number(r.nps)
		}
		if r.hasStars {
			data["stars"] = survey.Number(r.stars)
		}
		put(t, s, store.ResponseWrite{SurveyID: a.sv.ID, ID: ids.New(), Respondent: "r", Data: data, At: at})
		a.ratings = append(a.ratings, r)
	}
	return a
}

// instant is any instant from a day before the responses to a day after, on a day, hour or
// minute boundary or not.
func (a *anyRange) instant() time.Time {
	at := a.midnight.Add(-24*time.Hour + time.Duration(a.rng.Int64N(int64(5*24*time.Hour))))
	switch a.rng.IntN(4) {
	case 0:
		return at.Truncate(24 * time.Hour)
	case 1:
		return at.Truncate(time.Hour)
	case 2:
		return at.Truncate(time.Minute)
	}
	return at.Truncate(time.Millisecond)
}

// counts counts the ratings put in [from, to) here.
func (a *anyRange) counts(from, to time.Time) map[string]map[int]int64 {
	want := map[string]map[int]int64{"nps": {}, "stars": {}}
	for _, r := range a.ratings {
		if r.at.Before(from) || !r.at.Before(to) {
			continue
		}
		if r.hasNPS {
			want["nps"][r.nps]++
		}
		if r.hasStars {
			want["stars"][r.stars]++
		}
	}
	return want
}

// testCountsAnyRange checks the counts of many ranges, on bucket boundaries and between them,
// against counts made here from the responses put.
func testCountsAnyRange(t *testing.T, s store.Store) {
	a := putAnyRange(t, s)
	for i := range 150 {
		from, to := a.instant(), a.instant()
		if i%10 == 0 { // some ranges inside the dense hour, where a bucket's edges matter most
			from = a.midnight.Add(37*time.Hour + time.Duration(a.rng.Int64N(int64(time.Hour)))).Truncate(time.Millisecond)
			to = from.Add(time.Duration(a.rng.Int64N(int64(time.Hour)))).Truncate(time.Millisecond)
		}
		if to.Before(from) {
			from, to = to, from
		}
		got, err := s.Counts(t.Context(), a.sv.ID, []string{"nps", "stars"}, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(a.counts(from, to), got); diff != "" {
			t.Fatalf("Counts from %s to %s (-counted here +store):\n%s", from.Format(time.RFC3339Nano), to.Format(time.RFC3339Nano), diff)
		}
	}
}

// testPeriodCounts checks store.PeriodCounter, for a Store that has it: the counts of runs of
// consecutive periods, on bucket boundaries and between them, against counts made here, and
// bounds that go back in time refused.
func testPeriodCounts(t *testing.T, s store.Store) {
	pc := optional[store.PeriodCounter](t, s, "store.PeriodCounter")
	a := putAnyRange(t, s)
	for i := range 60 {
		bounds := make([]time.Time, 2+i%12)
		for j := range bounds {
			bounds[j] = a.instant()
		}
		if i%5 == 0 { // whole days, as a trend's buckets are
			for j := range bounds {
				bounds[j] = a.midnight.Add(time.Duration(j-1) * 24 * time.Hour)
			}
		}
		slices.SortFunc(bounds, time.Time.Compare)
		got, err := pc.PeriodCounts(t.Context(), a.sv.ID, []string{"nps", "stars", "nps"}, bounds)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(bounds)-1 {
			t.Fatalf("PeriodCounts of %d bounds returned %d periods, want %d", len(bounds), len(got), len(bounds)-1)
		}
		for j := range got {
			if diff := cmp.Diff(a.counts(bounds[j], bounds[j+1]), got[j]); diff != "" {
				t.Fatalf("PeriodCounts, period %d from %s to %s (-counted here +store):\n%s", j,
					bounds[j].Format(time.RFC3339Nano), bounds[j+1].Format(time.RFC3339Nano), diff)
			}
		}
	}
	for _, bounds := range [][]time.Time{nil, {t0}, {t0, t0.Add(-time.Millisecond)}} {
		if _, err := pc.PeriodCounts(t.Context(), a.sv.ID, []string{"nps"}, bounds); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("PeriodCounts with bounds %v: %v, want store.ErrInvalid", bounds, err)
		}
	}
}
