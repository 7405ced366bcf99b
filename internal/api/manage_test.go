package api_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// manage sends a management request with a team's secret key.
func (e *env) manage(method, path, body, sk string, headers ...string) *httptest.ResponseRecorder {
	e.t.Helper()
	h := map[string]string{"Authorization": "Bearer " + sk}
	for i := 0; i+1 < len(headers); i += 2 {
		h[headers[i]] = headers[i+1]
	}
	return e.do(req{method: method, path: path, body: body, headers: h})
}

const newSurveyBody = `{"title":"Onboarding","questions":[{"id":"q1","title":"How was it?","description":null,"position":0,"required":true,
	"properties":{"type":"rating","buttonLabel":"Next","shouldAutoProgress":false,"scale":5},
	"routingLogic":{"type":"always","target":{"type":"next"}}}],
	"confirmation":{"title":"Thanks","description":"","buttonText":"Close"},"isBackNavigationAllowed":false,"backButtonLabel":"Back"}`

func TestSurveyCreate(t *testing.T) {
	e := setup(t)
	rec := e.manage("POST", "/v1/protected/surveys", newSurveyBody, e.skA)
	wantStatus(t, rec, http.StatusCreated, "")
	var got map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	id, _ := got["id"].(string)
	if !store.ValidSurveyID(id) || got["status"] != "inactive" || got["title"] != "Onboarding" || got["webhookSecretSet"] != false {
		t.Errorf("created %v", got)
	}
	if loc := rec.Header().Get("Location"); loc != "/v1/protected/surveys/"+id {
		t.Errorf("Location = %q", loc)
	}
	tag := rec.Header().Get("ETag")
	again := e.protected("/v1/protected/surveys/" + id)
	if again.Code != 200 || again.Header().Get("ETag") != tag || again.Body.String() != rec.Body.String() {
		t.Errorf("GET after create: %d, ETag %q (create gave %q)\n%s", again.Code, again.Header().Get("ETag"), tag, again.Body)
	}
	// Inactive by default: not shown to the widget, which the team's own key is told.
	inactive := e.public("GET", "/v1/svc/"+id, "")
	wantStatus(t, inactive, http.StatusNotFound, "not_found")
	if !strings.Contains(inactive.Body.String(), `it is inactive; activate it with PATCH /v1/protected/surveys/`+id) {
		t.Errorf("the widget's 404 for an inactive survey of its own team: %s", inactive.Body)
	}
	// Another team sees nothing of it.
	wantStatus(t, e.manage("GET", "/v1/protected/surveys/"+id, "", e.skB), http.StatusNotFound, "not_found")

	// With an id, status and webhook; the id taken is 409, in any team.
	body := strings.Replace(newSurveyBody, `{"title"`, `{"id":"cmanaged0000000000000001","status":"active","webhookUrl":"https://hooks.example/svc","webhookSecret":"s3cret","title"`, 1)
	rec = e.manage("POST", "/v1/protected/surveys", body, e.skA)
	wantStatus(t, rec, http.StatusCreated, "")
	if !strings.Contains(rec.Body.String(), `"webhookUrl":"https://hooks.example/svc","webhookSecretSet":true`) || strings.Contains(rec.Body.String(), "s3cret") {
		t.Errorf("webhook settings: %s", rec.Body)
	}
	wantStatus(t, e.public("GET", "/v1/svc/cmanaged0000000000000001", ""), http.StatusOK, "")
	wantStatus(t, e.manage("POST", "/v1/protected/surveys", body, e.skA), http.StatusConflict, "conflict")
	wantStatus(t, e.manage("POST", "/v1/protected/surveys", body, e.skB), http.StatusConflict, "conflict")
}

func TestSurveyCreateRefusesBadBodies(t *testing.T) {
	e := setup(t)
	for name, body := range map[string]string{
		"not an object":    `[1]`,
		"malformed":        `{"title":`,
		"unknown member":   strings.Replace(newSurveyBody, `"title"`, `"responses":[],"title"`, 1),
		"wrong case":       strings.Replace(newSurveyBody, `"title":"Onboarding"`, `"Title":"Onboarding"`, 1),
		"twice":            strings.Replace(newSurveyBody, `"title":"Onboarding"`, `"title":"A","title":"B"`, 1),
		"no title":         strings.Replace(newSurveyBody, `"title":"Onboarding",`, ``, 1),
		"bad scale":        strings.Replace(newSurveyBody, `"scale":5`, `"scale":50`, 1),
		"deleted":          strings.Replace(newSurveyBody, `{"title"`, `{"status":"deleted","title"`, 1),
		"unknown status":   strings.Replace(newSurveyBody, `{"title"`, `{"status":"paused","title"`, 1),
		"bad id":           strings.Replace(newSurveyBody, `{"title"`, `{"id":"Not A Cuid","title"`, 1),
		"ftp webhook":      strings.Replace(newSurveyBody, `{"title"`, `{"webhookUrl":"ftp://x.example/","title"`, 1),
		"data after":       newSurveyBody + `{}`,
		"jump backwards":   strings.Replace(newSurveyBody, `{"type":"next"}`, `{"type":"jump","target":0}`, 1),
		"questions object": strings.Replace(newSurveyBody, `"questions":[`, `"questions":{"x":[`, 1),
		"id twice":         strings.Replace(newSurveyBody, `"id":"q1"`, `"id":"q1","id":"q2"`, 1),
		"TYPE":             strings.Replace(newSurveyBody, `"type":"rating"`, `"TYPE":"rating"`, 1),
		"Scale twice":      strings.Replace(newSurveyBody, `"scale":5`, `"scale":5,"Scale":9`, 1),
		"routing case":     strings.Replace(newSurveyBody, `"target":{"type":"next"}`, `"Target":{"type":"next"}`, 1),
		"nested deep":      strings.Replace(newSurveyBody, `"backButtonLabel":"Back"`, `"backButtonLabel":`+strings.Repeat("[", 5000)+strings.Repeat("]", 5000), 1),
	} {
		rec := e.manage("POST", "/v1/protected/surveys", body, e.skA)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, rec.Code, rec.Body)
		}
	}
	wantStatus(t, e.manage("POST", "/v1/protected/surveys", newSurveyBody, e.pkA), http.StatusUnauthorized, "unauthorized")
	list := e.protected("/v1/protected/surveys")
	if n := strings.Count(list.Body.String(), `"id":`); n != 1 {
		t.Errorf("after refused creates the team has %d surveys, want its 1", n)
	}
}

// TestSurveyCreateMessages: a repeated or miscased member is refused with its path, as the PUT
// of a response refuses one, rather than stored with the last value winning.
func TestSurveyCreateMessages(t *testing.T) {
	e := setup(t)
	for body, want := range map[string]string{
		strings.Replace(newSurveyBody, `"id":"q1"`, `"id":"q1","id":"q2"`, 1):                              "questions[0].id: the member appears twice",
		strings.Replace(newSurveyBody, `"type":"rating"`, `"TYPE":"rating"`, 1):                            `questions[0].properties.TYPE: member names are case-sensitive: \"TYPE\" should be \"type\"`,
		strings.Replace(newSurveyBody, `"buttonText":"Close"`, `"buttonText":"Close","buttonText":"X"`, 1): "confirmation.buttonText: the member appears twice",
	} {
		rec := e.manage("POST", "/v1/protected/surveys", body, e.skA)
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("refused with %s, want it to say %s", rec.Body, want)
		}
	}
}

// TestSurveyLimits: a survey has at most survey.MaxQuestions questions and MaxOptions options
// to a question, and positions a browser holds exactly; one more is refused, saying so.
func TestSurveyLimits(t *testing.T) {
	e := setup(t)
	questions := func(n int) string {
		var qs []string
		for i := range n {
			qs = append(qs, fmt.Sprintf(`{"id":"q%d","title":"Q","properties":{"type":"statement"}}`, i))
		}
		return `{"title":"Long","questions":[` + strings.Join(qs, ",") + `]}`
	}
	options := func(n int) string {
		var os []string
		for i := range n {
			os = append(os, fmt.Sprintf(`{"value":"v%d"}`, i))
		}
		return `{"title":"Wide","questions":[{"id":"q","title":"Q","properties":{"type":"multi-select","options":[` + strings.Join(os, ",") + `]}}]}`
	}
	position := func(p string) string { return strings.Replace(newSurveyBody, `"position":0`, `"position":`+p, 1) }
	for _, c := range []struct{ body, refusal string }{
		{questions(survey.MaxQuestions), ""}, {questions(survey.MaxQuestions + 1), "at most 100 questions; this one has 101"},
		{options(survey.MaxOptions), ""}, {options(survey.MaxOptions + 1), "at most 100 options"},
		{position("9007199254740991"), ""}, {position("9007199254740992"), "position must be an integer from 0 to 9007199254740991"},
		{position("1e300"), "position"},
	} {
		rec := e.manage("POST", "/v1/protected/surveys", c.body, e.skA)
		if c.refusal == "" {
			wantStatus(t, rec, http.StatusCreated, "")
			continue
		}
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if !strings.Contains(rec.Body.String(), c.refusal) {
			t.Errorf("refused with %s, want it to say %q", rec.Body, c.refusal)
		}
	}
}

// TestSurveyCreateDefaults: a first survey written by hand needs only its questions' ids,
// titles and types: positions follow the list, routing goes on to the next question, an
// open-ended answer may hold survey.DefaultOpenEndedMax characters, and the confirmation and
// buttons have words of their own.
func TestSurveyCreateDefaults(t *testing.T) {
	e := setup(t)
	rec := e.manage("POST", "/v1/protected/surveys", `{"title":"First","status":"active","questions":[
		{"id":"useful","title":"Was this page useful?","properties":{"type":"single-select","options":[{"value":"Yes"},{"value":"No"}]}},
		{"id":"why","title":"Why?","properties":{"type":"open-ended"}},
		{"id":"score","title":"Score","required":true,"properties":{"type":"rating","scale":5}}]}`, e.skA)
	wantStatus(t, rec, http.StatusCreated, "")
	got := asAny(t, rec.Body.Bytes()).(map[string]any)
	want := asAny(t, []byte(`[
		{"id":"useful","title":"Was this page useful?","description":null,"position":0,"required":false,
		 "properties":{"type":"single-select","shouldAutoProgress":false,"options":[{"value":"Yes"},{"value":"No"}],"buttonLabel":"Next","editable":null},
		 "routingLogic":{"type":"always","target":{"type":"next"}}},
		{"id":"why","title":"Why?","description":null,"position":1,"required":false,
		 "properties":{"type":"open-ended","buttonLabel":"Next","max":2000},"routingLogic":{"type":"always","target":{"type":"next"}}},
		{"id":"score","title":"Score","description":null,"position":2,"required":true,
		 "properties":{"type":"rating","buttonLabel":"Next","shouldAutoProgress":false,"scale":5},"routingLogic":{"type":"always","target":{"type":"next"}}}]`))
	if diff := cmp.Diff(want, got["questions"]); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(asAny(t, []byte(`{"title":"Thank you!","description":"Your answers help us improve.","buttonText":"Close"}`)), got["confirmation"]); diff != "" {
		t.Errorf("confirmation (-want +got):\n%s", diff)
	}
	// What is given stays as given, and the defaults do not make a wrong survey right.
	rec = e.manage("POST", "/v1/protected/surveys", `{"title":"Clash","questions":[
		{"id":"a","title":"A","properties":{"type":"open-ended","max":10}},{"id":"b","title":"B","position":0,"properties":{"type":"open-ended"}}]}`, e.skA)
	wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
	if !strings.Contains(rec.Body.String(), "position 0 is used twice") {
		t.Errorf("two questions at position 0: %s", rec.Body)
	}
}

func TestSurveyPatch(t *testing.T) {
	e := setup(t)
	path := "/v1/protected/surveys/" + e.survA.ID
	tag := e.protected(path).Header().Get("ETag")
	e.clock.Advance(time.Minute)
	rec := e.manage("PATCH", path, `{"title":"New title","description":null,"webhookUrl":"https://hooks.example/a","status":"inactive"}`, e.skA, "If-Match", tag)
	wantStatus(t, rec, http.StatusOK, "")
	got := asAny(t, rec.Body.Bytes()).(map[string]any)
	if got["title"] != "New title" || got["description"] != nil || got["webhookUrl"] != "https://hooks.example/a" || got["status"] != "inactive" ||
		got["updatedAt"] != "2026-11-21T10:05:05.123Z" || got["createdAt"] != "2026-11-21T10:04:05.123Z" || len(got["questions"].([]any)) != 7 {
		t.Errorf("patched: %v", got)
	}
	newTag := rec.Header().Get("ETag")
	if newTag == tag || newTag == "" {
		t.Errorf("ETag %q after a change (was %q)", newTag, tag)
	}
	// The old tag no longer matches: 412, nothing changed.
	wantStatus(t, e.manage("PATCH", path, `{"title":"Lost update"}`, e.skA, "If-Match", tag), http.StatusPreconditionFailed, "precondition_failed")
	wantStatus(t, e.manage("DELETE", path, "", e.skA, "If-Match", tag), http.StatusPreconditionFailed, "precondition_failed")
	wantStatus(t, e.manage("PATCH", path, `{"title":"Weak"}`, e.skA, "If-Match", "W/"+newTag), http.StatusPreconditionFailed, "precondition_failed")
	// questions replaced whole; webhookUrl null removes it; * matches any.
	q := `[{"id":"only","title":"Only one","description":null,"position":0,"required":false,"properties":{"type":"open-ended","buttonLabel":"Send","max":100},"routingLogic":{"type":"always","target":{"type":"end"}}}]`
	rec = e.manage("PATCH", path, `{"questions":`+q+`,"webhookUrl":null,"status":"active"}`, e.skA, "If-Match", "*")
	wantStatus(t, rec, http.StatusOK, "")
	got = asAny(t, rec.Body.Bytes()).(map[string]any)
	if qs := got["questions"].([]any); len(qs) != 1 || got["webhookUrl"] != nil || got["title"] != "New title" {
		t.Errorf("patched: %v", got)
	}
	// The widget sees the change at once.
	pub := e.public("GET", "/v1/svc/"+e.survA.ID, "")
	if !strings.Contains(pub.Body.String(), `"title":"Only one"`) {
		t.Errorf("public view after PATCH: %s", pub.Body)
	}
	for name, body := range map[string]string{
		"id changes":       `{"id":"cother0000000000000000001"}`,
		"secret":           `{"webhookSecret":"x"}`,
		"status removed":   `{"status":null}`,
		"status deleted":   `{"status":"deleted"}`,
		"title removed":    `{"title":null}`,
		"invalid question": `{"questions":[{"id":"x"}]}`,
		"unknown member":   `{"colour":"red"}`,
	} {
		if rec := e.manage("PATCH", path, body, e.skA); rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, rec.Code, rec.Body)
		}
	}
	// Another team's key cannot see it, change it or learn whether it exists.
	wantStatus(t, e.manage("PATCH", path, `{"title":"Mine"}`, e.skB), http.StatusNotFound, "not_found")
	if got := asAny(t, e.protected(path).Body.Bytes()).(map[string]any); got["title"] != "New title" {
		t.Errorf("title after refused patches = %v", got["title"])
	}
}

func TestSurveyDelete(t *testing.T) {
	e := setup(t)
	path := "/v1/protected/surveys/" + e.survA.ID
	wantStatus(t, e.manage("DELETE", path, "", e.skB), http.StatusNotFound, "not_found")
	tag := e.protected(path).Header().Get("ETag")
	rec := e.manage("DELETE", path, "", e.skA, "If-Match", tag)
	if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Fatalf("DELETE = %d %s", rec.Code, rec.Body)
	}
	wantStatus(t, e.protected(path), http.StatusNotFound, "not_found")
	wantStatus(t, e.public("GET", "/v1/svc/"+e.survA.ID, ""), http.StatusNotFound, "not_found")
	wantStatus(t, e.manage("DELETE", path, "", e.skA), http.StatusNotFound, "not_found")
	if strings.Contains(e.protected("/v1/protected/surveys").Body.String(), e.survA.ID) {
		t.Error("a deleted survey is listed")
	}
	sv, err := e.store.Survey(t.Context(), "a", e.survA.ID)
	if err != nil || sv.Status != store.StatusDeleted {
		t.Errorf("stored: %v %v, want a soft delete", sv.Status, err)
	}
}

func TestWebhookSecretRotation(t *testing.T) {
	e := setup(t)
	path := "/v1/protected/surveys/" + e.survA.ID
	var secrets []string
	for range 2 {
		rec := e.manage("POST", path+"/webhook-secret", "", e.skA)
		wantStatus(t, rec, http.StatusOK, "")
		var got struct {
			Data struct {
				Secret string `json:"secret"`
			} `json:"data"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(got.Data.Secret, "whsec_"))
		if !strings.HasPrefix(got.Data.Secret, "whsec_") || err != nil || len(raw) != 32 {
			t.Fatalf("secret %q: %v", got.Data.Secret, err)
		}
		if rec.Header().Get("Cache-Control") != "no-store" {
			t.Error("the secret's reply may be cached")
		}
		secrets = append(secrets, got.Data.Secret)
	}
	sv, err := e.store.Survey(t.Context(), "a", e.survA.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sv.WebhookSecret != secrets[1] || sv.PreviousWebhookSecret != secrets[0] || !sv.PreviousSecretExpiresAt.Equal(t0.Add(24*time.Hour)) {
		t.Errorf("stored secret %q, previous %q until %v", sv.WebhookSecret, sv.PreviousWebhookSecret, sv.PreviousSecretExpiresAt)
	}
	view := e.protected(path).Body.String()
	if !strings.Contains(view, `"webhookSecretSet":true`) || strings.Contains(view, secrets[1]) {
		t.Errorf("view after rotation: %s", view)
	}
	wantStatus(t, e.manage("POST", path+"/webhook-secret", "", e.skB), http.StatusNotFound, "not_found")
}
