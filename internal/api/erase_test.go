package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestResponseDelete(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, "rdelete000000000000000001", "ann", `{"nps":9}`)
	e.putResponse(e.survA.ID, "rdelete000000000000000002", "ann", `{"nps":3}`)
	e.putResponseB("rdelete000000000000000001", "ann", `{"nps":9}`)
	path := "/v1/protected/surveys/" + e.survA.ID + "/responses/rdelete000000000000000001"
	wantStatus(t, e.manage("DELETE", path, "", e.skB), http.StatusNotFound, "not_found")
	rec := e.manage("DELETE", path, "", e.skA)
	if rec.Code != http.StatusNoContent {
		t.Fatalf("DELETE = %d %s", rec.Code, rec.Body)
	}
	wantStatus(t, e.protected(path), http.StatusNotFound, "not_found")
	wantStatus(t, e.manage("DELETE", path, "", e.skA), http.StatusNotFound, "not_found")
	wantStatus(t, e.manage("DELETE", "/v1/protected/surveys/"+e.survA.ID+"/responses/bad%20id", "", e.skA), http.StatusBadRequest, "invalid_request")
	list := e.protected("/v1/protected/surveys/" + e.survA.ID + "/responses").Body.String()
	if strings.Contains(list, "rdelete000000000000000001") || !strings.Contains(list, "rdelete000000000000000002") {
		t.Errorf("list after delete: %s", list)
	}
	stats := e.protected("/v1/protected/surveys/" + e.survA.ID + "/stats").Body.String()
	if !strings.Contains(stats, `"totalResponses":1,`) || !strings.Contains(stats, `"uniqueResponders":1`) {
		t.Errorf("stats after delete: %s", stats)
	}
	e.clock.Advance(time.Minute) // all-time ends now, exclusive
	scores := e.protected("/v1/protected/surveys/" + e.survA.ID + "/score-distributions?questionIds=nps").Body.String()
	if !strings.Contains(scores, `"3":1`) || strings.Contains(scores, `"9":1`) {
		t.Errorf("scores after delete: %s", scores)
	}
	// The same id in team B's survey is untouched.
	wantStatus(t, e.manage("GET", "/v1/protected/surveys/"+e.survB.ID+"/responses/rdelete000000000000000001", "", e.skB), http.StatusOK, "")
}

func TestRespondentErase(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, e.ids.New(), "bob@example.com", `{"nps":9}`)
	e.putResponse(e.survA.ID, e.ids.New(), "bob@example.com", `{"nps":2}`)
	e.putResponse(e.survA.ID, e.ids.New(), "ann", `{"nps":5}`)
	e.putResponseB(e.ids.New(), "bob@example.com", `{"nps":9}`)
	for _, typ := range []string{"view", "dismiss", "view"} {
		wantStatus(t, e.public("POST", "/v1/svc/"+e.survA.ID+"/respondent/bob@example.com/event", `{"type":"`+typ+`"}`), 200, "")
	}
	rec := e.manage("DELETE", "/v1/protected/respondents/bob@example.com", "", e.skA)
	wantStatus(t, rec, 200, "")
	if got := strings.TrimSpace(rec.Body.String()); got != `{"data":{"responses":2,"events":3}}` {
		t.Errorf("erase = %s", got)
	}
	rec = e.manage("DELETE", "/v1/protected/respondents/bob@example.com", "", e.skA)
	if got := strings.TrimSpace(rec.Body.String()); got != `{"data":{"responses":0,"events":0}}` {
		t.Errorf("erase again = %s", got)
	}
	stats := e.protected("/v1/protected/surveys/" + e.survA.ID + "/stats").Body.String()
	for _, want := range []string{`"totalViews":0`, `"uniqueViewers":0`, `"totalDismissals":0`, `"totalResponses":1`, `"uniqueResponders":1`} {
		if !strings.Contains(stats, want) {
			t.Errorf("stats after erasure lack %s: %s", want, stats)
		}
	}
	hist := e.public("GET", "/v1/svc/"+e.survA.ID+"/respondent/bob@example.com", "").Body.String()
	if strings.TrimSpace(hist) != `{"lastRespondedAt":null,"lastViewedAt":null,"lastDismissedAt":null}` {
		t.Errorf("history after erasure: %s", hist)
	}
	// Team B's survey keeps bob: erasure is scoped to the key's team.
	list := e.manage("GET", "/v1/protected/surveys/"+e.survB.ID+"/responses?respondent=bob@example.com", "", e.skB).Body.String()
	if !strings.Contains(list, "bob@example.com") {
		t.Errorf("team B lost bob: %s", list)
	}
	wantStatus(t, e.manage("DELETE", "/v1/protected/respondents/"+strings.Repeat("x", 300), "", e.skA), http.StatusBadRequest, "invalid_request")
}

// putResponseB saves a response to team B's survey with team B's publishable key.
func (e *env) putResponseB(id, respondent, data string) {
	e.t.Helper()
	rec := e.do(req{method: "PUT", path: "/v1/svc/" + e.survB.ID + "/response/" + id,
		body: `{"respondent":"` + respondent + `","data":` + data + `,"metadata":{}}`, headers: map[string]string{"x-svc-pk": e.pkB}})
	wantStatus(e.t, rec, 200, "")
}
