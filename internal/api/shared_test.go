package api_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/store"
)

// TestRequestsLeaveSharedSurveyUnchanged serves every route that reads a survey and checks
// that the survey the store shares with the handler (see store.SharedSurveyReader) is as it
// was: a change made in place would reach every later request, and other handlers sharing
// the store.
func TestRequestsLeaveSharedSurveyUnchanged(t *testing.T) {
	e := setup(t)
	var _ store.SharedSurveyReader = e.store // the fast path this test is about
	snapshot := func() string {
		t.Helper()
		sv, err := e.store.SharedSurvey(t.Context(), e.survA.TeamID, e.survA.ID)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.MarshalIndent(sv, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	before := snapshot()
	base := "/v1/svc/" + e.survA.ID
	rid := e.ids.New()
	body := `{"respondent":"ann","data":{"nps":9,"stars":4,"favourite":"Alerts","missing":["Speed","Docs"],` +
		`"comments":"fine"},"metadata":{"page":"/"}}`
	for _, rec := range []struct {
		name string
		code int
		got  int
	}{
		{"GET survey", 200, e.public("GET", base, "").Code},
		{"PUT response", 200, e.public("PUT", base+"/response/"+rid, body).Code},
		{"PUT response again", 200, e.public("PUT", base+"/response/"+rid, body).Code},
		{"PUT invalid answers", 400, e.public("PUT", base+"/response/"+e.ids.New(), `{"respondent":"ann","data":{"nps":99},"metadata":{}}`).Code},
		{"POST event", 200, e.public("POST", base+"/respondent/ann/event", `{"type":"view"}`).Code},
		{"GET history", 200, e.public("GET", base+"/respondent/ann", "").Code},
		{"GET protected survey", 200, e.protected("/v1/protected/surveys/" + e.survA.ID).Code},
		{"GET responses", 200, e.protected("/v1/protected/surveys/" + e.survA.ID + "/responses").Code},
		{"GET stats", 200, e.protected("/v1/protected/surveys/" + e.survA.ID + "/stats").Code},
		{"GET score distributions", 200, e.protected("/v1/protected/surveys/" + e.survA.ID + "/score-distributions").Code},
		{"GET deliveries", 200, e.protected("/v1/protected/surveys/" + e.survA.ID + "/webhook-deliveries").Code},
	} {
		if rec.got != rec.code {
			t.Errorf("%s: status %d, want %d", rec.name, rec.got, rec.code)
		}
	}
	if diff := cmp.Diff(before, snapshot()); diff != "" {
		t.Errorf("the shared survey changed (-before +after):\n%s", diff)
	}
}
