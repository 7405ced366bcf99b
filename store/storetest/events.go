package storetest

import (
	"fmt"
	"math/rand/v2"
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

// testCountsAnyRange puts responses dense in some hours and minutes and sparse in others,
// over three days, and checks the counts of many ranges, on bucket boundaries and between them,
// against counts made here from the responses put.
func testCountsAnyRange(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	rng := rand.New(rand.NewPCG(1, 2)) // fixed: a failure must repeat
	midnight := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	type rating struct {
		at               time.Time
		nps, stars       int
		hasNPS, hasStars bool
	}
	var ratings []rating
	for range 400 {
		var at time.Time
		switch rng.IntN(3) {
		case 0: // anywhere in three days
			at = midnight.Add(time.Duration(rng.Int64N(int64(72 * time.Hour))))
		case 1: // dense: in the hour from 13:00 on the second day
			at = midnight.Add(37*time.Hour + time.Duration(rng.Int64N(int64(time.Hour))))
		default: // dense: in the minute from 13:07 on the second day
			at = midnight.Add(37*time.Hour + 7*time.Minute + time.Duration(rng.Int64N(int64(time.Minute))))
		}
		at = at.Truncate(time.Millisecond)
		r := rating{at: at, nps: rng.IntN(11), stars: 1 + rng.IntN(5), hasNPS: rng.IntN(5) > 0, hasStars: rng.IntN(5) > 0}
		data := survey.Answers{}
		if r.hasNPS {
			data["nps"] = survey.Number(r.nps)
		}
		if r.hasStars {
			data["stars"] = survey.Number(r.stars)
		}
		put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "r", Data: data, At: at})
		ratings = append(ratings, r)
	}
	// Ranges: any two instants from a day before to a day after, each on a day, hour or
	// minute boundary or not.
	instant := func() time.Time {
		at := midnight.Add(-24*time.Hour + time.Duration(rng.Int64N(int64(5*24*time.Hour))))
		switch rng.IntN(4) {
		case 0:
			return at.Truncate(24 * time.Hour)
		case 1:
			return at.Truncate(time.Hour)
		case 2:
			return at.Truncate(time.Minute)
		}
		return at.Truncate(time.Millisecond)
	}
	for i := range 150 {
		from, to := instant(), instant()
		if i%10 == 0 { // some ranges inside the dense hour, where a bucket's edges matter most
			from = midnight.Add(37*time.Hour + time.Duration(rng.Int64N(int64(time.Hour)))).Truncate(time.Millisecond)
			to = from.Add(time.Duration(rng.Int64N(int64(time.Hour)))).Truncate(time.Millisecond)
		}
		if to.Before(from) {
			from, to = to, from
		}
		want := map[string]map[int]int64{"nps": {}, "stars": {}}
		for _, r := range ratings {
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
		got, err := s.Counts(ctx, sv.ID, []string{"nps", "stars"}, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Counts from %s to %s (-counted here +store):\n%s", from.Format(time.RFC3339Nano), to.Format(time.RFC3339Nano), diff)
		}
	}
}
