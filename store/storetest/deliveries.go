package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

func hookedSurvey(t *testing.T, s store.Store, team string) store.Survey {
	t.Helper()
	sv := newSurvey(team, t0)
	sv.WebhookURL = "https://hooks.example.com/in"
	return mustSurvey(t, s, sv)
}

func deliveriesOf(t *testing.T, s store.Store, surveyID string) []store.Delivery {
	t.Helper()
	var all []store.Delivery
	var cursor *store.Cursor
	for {
		page, next, err := s.Deliveries(t.Context(), surveyID, cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, page...)
		if next == nil {
			return all
		}
		cursor = next
	}
}

func testOutbox(t *testing.T, s store.Store) {
	mustTeam(t, s, "a")
	hooked := hookedSurvey(t, s, "a")
	plain := mustSurvey(t, s, newSurvey("a", t0))
	id := ids.New()
	w := store.ResponseWrite{SurveyID: hooked.ID, ID: id, Respondent: "ann", Data: survey.Answers{}, At: t0}
	put(t, s, w)
	w.At = t0.Add(time.Minute)
	put(t, s, w) // an update schedules nothing
	put(t, s, store.ResponseWrite{SurveyID: hooked.ID, ID: ids.New(), Respondent: "imp", Data: survey.Answers{}, At: t0, Imported: true})
	put(t, s, store.ResponseWrite{SurveyID: plain.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{}, At: t0})

	got := deliveriesOf(t, s, hooked.ID)
	if len(got) != 1 {
		t.Fatalf("deliveries = %+v, want exactly one for the one created, non-imported response", got)
	}
	d := got[0]
	if d.ResponseID != id || d.State != store.DeliveryPending || d.TeamID != "a" || d.Attempts != 0 || !d.NextAttemptAt.Equal(t0) || !d.CreatedAt.Equal(t0) {
		t.Errorf("delivery = %+v", d)
	}
	if n := len(deliveriesOf(t, s, plain.ID)); n != 0 {
		t.Errorf("a survey without a webhook URL has %d deliveries", n)
	}
}

func testOutboxConcurrentCreate(t *testing.T, s store.Store) {
	mustTeam(t, s, "a")
	sv := hookedSurvey(t, s, "a")
	id := ids.New()
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := s.PutResponse(context.Background(), store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: "ann", Data: survey.Answers{}, At: t0})
			if err != nil {
				t.Errorf("PutResponse: %v", err)
			}
		}()
	}
	wg.Wait()
	if n := len(deliveriesOf(t, s, sv.ID)); n != 1 {
		t.Errorf("100 concurrent PUTs of one new id scheduled %d deliveries, want 1", n)
	}
}

func testDeliveryLifecycle(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := hookedSurvey(t, s, "a")
	other := hookedSurvey(t, s, "a")
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{}, At: t0})
	lease := time.Minute

	if got, err := s.ClaimDeliveries(ctx, t0.Add(-time.Second), lease, 10); err != nil || len(got) != 0 {
		t.Fatalf("claim before due: %+v, %v", got, err)
	}
	claimed, err := s.ClaimDeliveries(ctx, t0, lease, 10)
	if err != nil || len(claimed) != 1 || claimed[0].State != store.DeliveryDelivering || claimed[0].TeamID != "a" {
		t.Fatalf("claim: %+v, %v", claimed, err)
	}
	d := claimed[0]
	if got, _ := s.ClaimDeliveries(ctx, t0.Add(30*time.Second), lease, 10); len(got) != 0 {
		t.Errorf("a leased delivery was claimed again: %+v", got)
	}
	_, err = s.Redeliver(ctx, sv.ID, d.ID, t0)
	wantErr(t, "Redeliver while delivering", err, store.ErrConflict)
	// A sender that stopped without finishing: the lease expires and another claims it.
	again, err := s.ClaimDeliveries(ctx, t0.Add(lease), lease, 10)
	if err != nil || len(again) != 1 || again[0].ID != d.ID {
		t.Fatalf("claim after the lease expired: %+v, %v", again, err)
	}

	fail := store.DeliveryResult{ID: d.ID, State: store.DeliveryFailed, Attempts: 4, LastStatus: 503, LastError: "503 Service Unavailable", At: t0.Add(2 * time.Minute)}
	if err := s.FinishDelivery(ctx, fail); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "FinishDelivery twice", s.FinishDelivery(ctx, fail), store.ErrNotFound)
	got := deliveriesOf(t, s, sv.ID)[0]
	if got.State != store.DeliveryFailed || got.Attempts != 4 || got.RoundAttempts != 4 || got.LastStatus != 503 || got.LastError != fail.LastError || got.DeliveredAt != nil {
		t.Errorf("after failure: %+v", got)
	}
	if c, _ := s.ClaimDeliveries(ctx, t0.Add(time.Hour), lease, 10); len(c) != 0 {
		t.Errorf("a failed delivery was claimed: %+v", c)
	}

	_, err = s.Redeliver(ctx, other.ID, d.ID, t0)
	wantErr(t, "Redeliver through another survey", err, store.ErrNotFound)
	_, err = s.Redeliver(ctx, sv.ID, "dlv_nope", t0)
	wantErr(t, "Redeliver unknown", err, store.ErrNotFound)
	re, err := s.Redeliver(ctx, sv.ID, d.ID, t0.Add(3*time.Minute))
	if err != nil || re.State != store.DeliveryPending || re.Attempts != 4 || re.RoundAttempts != 0 {
		t.Fatalf("Redeliver: %+v, %v; want pending with its 4 attempts kept and a new round", re, err)
	}
	claimed, err = s.ClaimDeliveries(ctx, t0.Add(3*time.Minute), lease, 10)
	if err != nil || len(claimed) != 1 {
		t.Fatalf("claim after redeliver: %+v, %v", claimed, err)
	}
	ok := store.DeliveryResult{ID: d.ID, State: store.DeliverySucceeded, Attempts: 1, LastStatus: 200, At: t0.Add(4 * time.Minute)}
	if err := s.FinishDelivery(ctx, ok); err != nil {
		t.Fatal(err)
	}
	got = deliveriesOf(t, s, sv.ID)[0]
	if got.State != store.DeliverySucceeded || got.Attempts != 5 || got.RoundAttempts != 1 || got.LastStatus != 200 || got.LastError != "" || got.DeliveredAt == nil || !got.DeliveredAt.Equal(ok.At) {
		t.Errorf("after success: %+v", got)
	}

	// Handing a delivery back (a stopping sender) makes it pending at the given time.
	put(t, s, store.ResponseWrite{SurveyID: other.ID, ID: ids.New(), Respondent: "bob", Data: survey.Answers{}, At: t0})
	c, err := s.ClaimDeliveries(ctx, t0.Add(time.Hour), lease, 10)
	if err != nil || len(c) != 1 {
		t.Fatalf("claim: %+v %v", c, err)
	}
	back := store.DeliveryResult{ID: c[0].ID, State: store.DeliveryPending, At: t0.Add(time.Hour), NextAttemptAt: t0.Add(time.Hour)}
	if err := s.FinishDelivery(ctx, back); err != nil {
		t.Fatal(err)
	}
	if c, _ := s.ClaimDeliveries(ctx, t0.Add(time.Hour), lease, 10); len(c) != 1 {
		t.Errorf("a handed-back delivery was not claimable: %+v", c)
	}
}

// testRedeliverAfterExpiredLease: a delivery whose sender stopped mid-attempt (its lease ran
// out) may be sent again by hand, since nothing sends it; while the lease runs, it may not.
func testRedeliverAfterExpiredLease(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := hookedSurvey(t, s, "a")
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{}, At: t0})
	claimed, err := s.ClaimDeliveries(ctx, t0, 30*time.Second, 10)
	if err != nil || len(claimed) != 1 {
		t.Fatalf("claim: %+v, %v", claimed, err)
	}
	_, err = s.Redeliver(ctx, sv.ID, claimed[0].ID, t0.Add(29*time.Second))
	wantErr(t, "Redeliver within the lease", err, store.ErrConflict)
	re, err := s.Redeliver(ctx, sv.ID, claimed[0].ID, t0.Add(31*time.Second))
	if err != nil || re.State != store.DeliveryPending {
		t.Fatalf("Redeliver after the lease ran out: %+v, %v; want pending", re, err)
	}
	if c, err := s.ClaimDeliveries(ctx, t0.Add(31*time.Second), 30*time.Second, 10); err != nil || len(c) != 1 {
		t.Errorf("claim after the redelivery: %+v, %v", c, err)
	}
}

// testWebhookWait holds deliveries as the survey's webhookWaitSeconds says: until the response
// is finished, or quiet for the wait, whichever comes first; attempted deliveries stay as they
// are, and a survey without a wait sends at once.
func testWebhookWait(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := newSurvey("a", t0)
	sv.WebhookURL, sv.WebhookWaitSeconds = "https://hooks.example.com/in", 60
	sv = mustSurvey(t, s, sv)
	if got, err := s.Survey(ctx, "a", sv.ID); err != nil || got.WebhookWaitSeconds != 60 {
		t.Fatalf("stored wait = %d, %v", got.WebhookWaitSeconds, err)
	}
	sec := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }
	due := func(at time.Time) []string {
		t.Helper()
		var ids []string
		for _, d := range deliveriesOf(t, s, sv.ID) {
			if d.State == store.DeliveryPending && !d.NextAttemptAt.After(at) {
				ids = append(ids, d.ResponseID)
			}
		}
		return ids
	}
	quiet, busy, done := ids.New(), ids.New(), ids.New()
	for _, id := range []string{quiet, busy, done} {
		put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: "ann", Data: survey.Answers{}, At: sec(0)})
	}
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: busy, Respondent: "ann", Data: survey.Answers{}, At: sec(30)})
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: done, Respondent: "ann", Data: survey.Answers{}, At: sec(40), Finished: true})
	for _, c := range []struct {
		at   int
		want []string
	}{
		{39, nil},
		{40, []string{done}},              // finished: due at once
		{59, []string{done}},              // quiet is due 60 s after its only write
		{60, []string{quiet, done}},       //
		{89, []string{quiet, done}},       // busy was written again at 30 s
		{90, []string{quiet, busy, done}}, //
	} {
		got := due(sec(c.at))
		if diff := cmp.Diff(c.want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b }), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("due at %d s (-want +got):\n%s", c.at, diff)
		}
	}
	// Claimed (an attempt started), a delivery is not moved by later writes.
	claimed, err := s.ClaimDeliveries(ctx, sec(60), time.Minute, 10)
	if err != nil || len(claimed) != 2 {
		t.Fatalf("claimed %d at 60 s, %v; want quiet and done", len(claimed), err)
	}
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: quiet, Respondent: "ann", Data: survey.Answers{}, At: sec(61)})
	for _, d := range deliveriesOf(t, s, sv.ID) {
		if d.ResponseID == quiet && d.State != store.DeliveryDelivering {
			t.Errorf("a write moved a delivery being sent: %+v", d)
		}
	}
	// A survey without a wait sends at once, finished or not.
	plain := hookedSurvey(t, s, "a")
	put(t, s, store.ResponseWrite{SurveyID: plain.ID, ID: ids.New(), Respondent: "ann", Data: survey.Answers{}, At: sec(0)})
	if ds := deliveriesOf(t, s, plain.ID); len(ds) != 1 || !ds[0].NextAttemptAt.Equal(sec(0)) {
		t.Errorf("delivery without a wait: %+v", ds)
	}
	// The wait is bounded.
	bad := newSurvey("a", t0)
	bad.WebhookWaitSeconds = store.MaxWebhookWaitSeconds + 1
	wantErr(t, "a wait over a day", s.CreateSurvey(ctx, bad), store.ErrInvalid)
}
