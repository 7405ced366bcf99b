package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

func TestSurveyGet(t *testing.T) {
	e := setup(t)
	path := "/v1/svc/" + e.survA.ID
	rec := e.public("GET", path, "")
	wantStatus(t, rec, http.StatusOK, "")
	if diff := cmp.Diff(asAny(t, survey.SampleJSON()), asAny(t, rec.Body.Bytes())); diff != "" {
		t.Errorf("public survey (-want +got):\n%s", diff)
	}
	for _, hidden := range []string{"webhook", "status", "team", `"id":"` + e.survA.ID} {
		if strings.Contains(rec.Body.String(), hidden) {
			t.Errorf("public survey shows %q", hidden)
		}
	}
	etag := rec.Header().Get("ETag")
	if etag == "" || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("headers = %v, want an ETag and CORS", rec.Header())
	}

	rec = e.do(req{method: "GET", path: path, headers: map[string]string{"x-svc-pk": e.pkA, "If-None-Match": etag}})
	wantStatus(t, rec, http.StatusNotModified, "")
	if rec.Body.Len() != 0 || rec.Header().Get("ETag") != etag {
		t.Errorf("304 reply: body %q, ETag %q", rec.Body, rec.Header().Get("ETag"))
	}
	rec = e.do(req{method: "GET", path: path, headers: map[string]string{"x-svc-pk": e.pkA, "If-None-Match": `"other", W/` + etag}})
	wantStatus(t, rec, http.StatusNotModified, "")

	// A change gives a new tag, and the old one no longer matches.
	upd := e.survA
	upd.Title, upd.UpdatedAt = "New title", t0.Add(time.Minute)
	if err := e.store.UpdateSurvey(t.Context(), upd); err != nil {
		t.Fatal(err)
	}
	rec = e.do(req{method: "GET", path: path, headers: map[string]string{"x-svc-pk": e.pkA, "If-None-Match": etag}})
	wantStatus(t, rec, http.StatusOK, "")
	if rec.Header().Get("ETag") == etag || !strings.Contains(rec.Body.String(), "New title") {
		t.Errorf("after an update: ETag %q (old %q), body %s", rec.Header().Get("ETag"), etag, rec.Body)
	}
}

func TestSurveyGetErrors(t *testing.T) {
	e := setup(t)
	inactive := e.newSurvey("a", store.StatusInactive, t0)
	deleted := e.newSurvey("a", store.StatusDeleted, t0)
	tests := []struct {
		name    string
		path    string
		key     string
		status  int
		code    string
		message string
	}{
		{"missing key", "/v1/svc/" + e.survA.ID, "", 401, "unauthorized", "x-svc-pk"},
		{"unknown key", "/v1/svc/" + e.survA.ID, store.NewKeyPlaintext(store.Publishable), 401, "unauthorized", "unknown or revoked"},
		{"secret key as publishable", "/v1/svc/" + e.survA.ID, e.skA, 401, "unauthorized", "secret key"},
		{"another team's survey", "/v1/svc/" + e.survB.ID, e.pkA, 404, "not_found", "survey not found"},
		{"inactive survey", "/v1/svc/" + inactive.ID, e.pkA, 404, "not_found", "survey not found"},
		{"deleted survey", "/v1/svc/" + deleted.ID, e.pkA, 404, "not_found", "survey not found"},
		{"unknown survey", "/v1/svc/" + e.ids.New(), e.pkA, 404, "not_found", "survey not found"},
		{"id not a cuid2", "/v1/svc/Not_A_Cuid", e.pkA, 400, "invalid_request", "cuid2"},
		{"id with encoded slash", "/v1/svc/abc%2Fdef", e.pkA, 400, "invalid_request", "cuid2"},
		{"id too long", "/v1/svc/" + strings.Repeat("a", 33), e.pkA, 400, "invalid_request", "cuid2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := e.do(req{method: "GET", path: tt.path, headers: map[string]string{"x-svc-pk": tt.key}})
			wantStatus(t, rec, tt.status, tt.code)
			msg := errorMessage(t, rec)
			if !strings.Contains(msg, tt.message) {
				t.Errorf("message %q does not mention %q", msg, tt.message)
			}
			if strings.HasPrefix(msg, store.ErrInvalid.Error()+":") {
				t.Errorf("message %q starts with the store's sentinel", msg)
			}
		})
	}
}

func TestRevokedKeyFailsAtOnce(t *testing.T) {
	e := setup(t)
	wantStatus(t, e.public("GET", "/v1/svc/"+e.survA.ID, ""), 200, "")
	if err := e.store.RevokeKey(t.Context(), "a", e.keyAID, t0); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, e.public("GET", "/v1/svc/"+e.survA.ID, ""), 401, "unauthorized")
}

func TestHistoryAndEvents(t *testing.T) {
	e := setup(t)
	base := "/v1/svc/" + e.survA.ID + "/respondent/ann%40example.com"
	rec := e.public("GET", base, "")
	wantStatus(t, rec, 200, "")
	if got := rec.Body.String(); got != `{"lastRespondedAt":null,"lastViewedAt":null,"lastDismissedAt":null}`+"\n" {
		t.Errorf("history of an unknown respondent = %s", got)
	}

	rec = e.public("POST", base+"/event", `{"type":"view"}`)
	wantStatus(t, rec, 200, "")
	if got := rec.Body.String(); got != `{"type":"view","recordedAt":"2026-11-21T10:04:05.123Z"}`+"\n" {
		t.Errorf("event reply = %s", got)
	}
	e.clock.Advance(time.Minute)
	wantStatus(t, e.public("POST", base+"/event", `{"type":"dismiss"}`), 200, "")
	e.clock.Advance(time.Minute)
	wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), `{"respondent":"ann@example.com","data":{},"metadata":{}}`), 200, "")

	rec = e.public("GET", base, "")
	want := `{"lastRespondedAt":"2026-11-21T10:06:05.123Z","lastViewedAt":"2026-11-21T10:04:05.123Z","lastDismissedAt":"2026-11-21T10:05:05.123Z"}` + "\n"
	if got := rec.Body.String(); got != want {
		t.Errorf("history = %s, want %s", got, want)
	}
	st, err := e.store.Stats(t.Context(), e.survA.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st != (store.Stats{TotalViews: 1, UniqueViewers: 1, TotalDismissals: 1, UniqueDismissers: 1, TotalResponses: 1, UniqueResponders: 1}) {
		t.Errorf("stats after the requests = %+v", st)
	}
}

func TestEventErrors(t *testing.T) {
	e := setup(t, func(o *api.Config) { o.MaxEventBody = 100 })
	path := "/v1/svc/" + e.survA.ID + "/respondent/ann/event"
	tests := []struct {
		name        string
		body        string
		contentType string
		status      int
		code        string
	}{
		{"unknown type", `{"type":"click"}`, "", 400, "invalid_request"},
		{"missing type", `{}`, "", 400, "invalid_request"},
		{"type of wrong JSON type", `{"type":1}`, "", 400, "invalid_request"},
		{"malformed JSON", `{"type":`, "", 400, "invalid_request"},
		{"not an object", `["view"]`, "", 400, "invalid_request"},
		{"trailing data", `{"type":"view"} {}`, "", 400, "invalid_request"},
		{"empty body", ``, "", 400, "invalid_request"},
		{"invalid UTF-8", "{\"type\":\"vi\xffew\"}", "", 400, "invalid_request"},
		{"form content type", `{"type":"view"}`, "application/x-www-form-urlencoded", 415, "unsupported_media_type"},
		{"too large", `{"type":"view","pad":"` + strings.Repeat("x", 200) + `"}`, "", 413, "payload_too_large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{"x-svc-pk": e.pkA}
			if tt.contentType != "" {
				h["Content-Type"] = tt.contentType
			}
			rec := e.do(req{method: "POST", path: path, body: tt.body, headers: h})
			wantStatus(t, rec, tt.status, tt.code)
		})
	}
	st, err := e.store.Stats(t.Context(), e.survA.ID)
	if err != nil || st.TotalViews != 0 {
		t.Errorf("failed event requests recorded something: %+v, %v", st, err)
	}
	wantStatus(t, e.public("POST", "/v1/svc/"+e.survA.ID+"/respondent/"+strings.Repeat("x", 257)+"/event", `{"type":"view"}`), 400, "invalid_request")
}

type putReply struct {
	ID        string `json:"id"`
	CreatedAt string `json:"createdAt"`
}

func TestResponsePutCreateThenUpdate(t *testing.T) {
	e := setup(t)
	id := e.ids.New()
	path := "/v1/svc/" + e.survA.ID + "/response/" + id
	rec := e.public("PUT", path, `{"respondent":"ann","data":{"nps":9,"favourite":"Alerts"},"metadata":{"plan":"pro"},"telemetry":"t1"}`)
	wantStatus(t, rec, 200, "")
	if got := decode[putReply](t, rec); got != (putReply{id, "2026-11-21T10:04:05.123Z"}) {
		t.Errorf("create reply = %+v", got)
	}
	e.clock.Advance(time.Hour)
	rec = e.public("PUT", path, `{"respondent":"ann","data":{"nps":3,"missing":["Docs"]},"metadata":{"plan":"free"}}`)
	wantStatus(t, rec, 200, "")
	if got := decode[putReply](t, rec); got != (putReply{id, "2026-11-21T10:04:05.123Z"}) {
		t.Errorf("update reply = %+v, want the original createdAt", got)
	}
	page, _, err := e.store.Responses(t.Context(), store.ResponseQuery{SurveyID: e.survA.ID, Limit: 10})
	if err != nil || len(page) != 1 {
		t.Fatalf("stored responses: %d, %v", len(page), err)
	}
	r := page[0]
	if string(r.Data) != `{"missing":["Docs"],"nps":3}` || string(r.Metadata) != `{"plan":"free"}` || r.Telemetry != nil {
		t.Errorf("stored after update: data %s metadata %s telemetry %v; want the second body's values", r.Data, r.Metadata, r.Telemetry)
	}
	if !r.UpdatedAt.Equal(t0.Add(time.Hour)) || !r.CreatedAt.Equal(t0) {
		t.Errorf("times after update: created %v updated %v", r.CreatedAt, r.UpdatedAt)
	}

	rec = e.public("PUT", path, `{"respondent":"bob","data":{},"metadata":{}}`)
	wantStatus(t, rec, 409, "conflict")

	// UUIDs are case-insensitive: a UUID in any case names one response, stored and given
	// back in lower case, counted once, and still refused to another respondent.
	const lower = "123e4567-e89b-12d3-a456-426614174000"
	for _, uuid := range []string{"123E4567-E89B-12D3-A456-426614174000", "123E4567-e89b-12d3-a456-426614174000", lower} {
		rec = e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+uuid, `{"respondent":"ann","data":{},"metadata":{}}`)
		wantStatus(t, rec, 200, "")
		if got := decode[putReply](t, rec); got.ID != lower {
			t.Errorf("reply id %q for %q, want %q", got.ID, uuid, lower)
		}
	}
	wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+strings.ToUpper(lower), `{"respondent":"bob","data":{},"metadata":{}}`), 409, "conflict")
	if page, _, err := e.store.Responses(t.Context(), store.ResponseQuery{SurveyID: e.survA.ID, Limit: 10}); err != nil || len(page) != 2 {
		t.Errorf("stored responses after three cases of one UUID: %d, %v; want 2", len(page), err)
	}
	if st, err := e.store.Stats(t.Context(), e.survA.ID); err != nil || st.TotalResponses != 2 {
		t.Errorf("stats after three cases of one UUID: %+v, %v; want 2 responses", st, err)
	}
	// The same id in team B's survey is team B's business: A's key cannot reach it.
	wantStatus(t, e.public("PUT", "/v1/svc/"+e.survB.ID+"/response/"+id, `{"respondent":"ann","data":{},"metadata":{}}`), 404, "not_found")
}

func TestResponsePutErrors(t *testing.T) {
	e := setup(t, func(o *api.Config) { o.MaxResponseBody = 4096 })
	good := func(data string) string { return `{"respondent":"ann","data":` + data + `,"metadata":{}}` }
	manyKeys := map[string]string{}
	for i := range 51 {
		manyKeys[strings.Repeat("k", i+1)] = "v"
	}
	many, _ := json.Marshal(manyKeys)
	tests := []struct {
		name    string
		id      string
		body    string
		status  int
		message string
	}{
		{"bad response id", "not-a-cuid!", good(`{}`), 400, "responseId"},
		{"missing respondent", "", `{"data":{},"metadata":{}}`, 400, "respondent is required"},
		{"empty respondent", "", `{"respondent":"","data":{},"metadata":{}}`, 400, "respondent must be"},
		{"long respondent", "", `{"respondent":"` + strings.Repeat("r", 257) + `","data":{},"metadata":{}}`, 400, "respondent must be"},
		{"missing data", "", `{"respondent":"ann","metadata":{}}`, 400, "data is required"},
		{"null data", "", `{"respondent":"ann","data":null,"metadata":{}}`, 400, "data"},
		{"missing metadata", "", `{"respondent":"ann","data":{}}`, 400, "metadata is required"},
		{"metadata not strings", "", `{"respondent":"ann","data":{},"metadata":{"a":1}}`, 400, "metadata"},
		{"too many metadata keys", "", `{"respondent":"ann","data":{},"metadata":` + string(many) + `}`, 400, "at most 50 keys"},
		{"respondent wrong type", "", `{"respondent":7,"data":{},"metadata":{}}`, 400, `"respondent" must be a string`},
		{"unknown question", "", good(`{"nope":"x"}`), 400, `no question "nope"`},
		{"rating out of range", "", good(`{"stars":6}`), 400, "integer from 1 to 5"},
		{"answer to statement", "", good(`{"thanks":"ok"}`), 400, "takes no answer"},
		{"null answer", "", good(`{"nps":null}`), 400, "answer"},
		{"huge number", "", good(`{"nps":1e999}`), 400, "number out of range: 1e999"},
		{"deep nesting", "", good(strings.Repeat(`{"a":`, 5) + "1" + strings.Repeat("}", 5)), 400, ""},
		{"trailing data", "", good(`{}`) + "x", 400, "after its JSON value"},
		{"too large", "", good(`{"comments":"` + strings.Repeat("x", 5000) + `"}`), 413, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := tt.id
			if id == "" {
				id = e.ids.New()
			}
			rec := e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+id, tt.body)
			code := map[int]string{400: "invalid_request", 413: "payload_too_large"}[tt.status]
			wantStatus(t, rec, tt.status, code)
			msg := errorMessage(t, rec)
			if !strings.Contains(msg, tt.message) {
				t.Errorf("message %q does not mention %q", msg, tt.message)
			}
			if strings.HasPrefix(msg, store.ErrInvalid.Error()+":") {
				t.Errorf("message %q starts with the store's sentinel", msg)
			}
		})
	}
	st, err := e.store.Stats(t.Context(), e.survA.ID)
	if err != nil || st.TotalResponses != 0 {
		t.Errorf("rejected PUTs stored responses: %+v, %v", st, err)
	}
}

func TestTelemetryLimit(t *testing.T) {
	e := setup(t)
	body := `{"respondent":"ann","data":{},"metadata":{},"telemetry":"` + strings.Repeat("t", store.MaxTelemetryBytes+1) + `"}`
	rec := e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), body)
	wantStatus(t, rec, 400, "invalid_request")
}

func TestResponsePutEveryQuestionType(t *testing.T) {
	e := setup(t)
	body := `{"respondent":"ann","metadata":{},"data":{
		"nps":0,"stars":5,"favourite":"Something I typed","missing":["Speed","Docs"],"comments":"Great",
		"bug":{"title":"Crash","metadata":"{\"ua\":\"x\"}","screenshotDataUrl":"data:image/png;base64,iVBORw0KGgo=","recordingEventsJson":"[]"}}}`
	rec := e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), body)
	wantStatus(t, rec, 200, "")
	page, _, err := e.store.Responses(t.Context(), store.ResponseQuery{SurveyID: e.survA.ID, Limit: 1})
	if err != nil || len(page) != 1 {
		t.Fatal(page, err)
	}
	got, err := page[0].Answers()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got["bug"].(survey.BugReportAnswer); !ok || len(got) != 6 {
		t.Errorf("stored answers = %#v", got)
	}
}

func TestCORS(t *testing.T) {
	e := setup(t)
	rec := e.do(req{method: "OPTIONS", path: "/v1/svc/" + e.survA.ID + "/response/x", headers: map[string]string{
		"Origin": "https://app.example.com", "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "x-svc-pk, content-type"}})
	if rec.Code != http.StatusNoContent {
		t.Fatalf("preflight status = %d, want 204", rec.Code)
	}
	hd := rec.Header()
	if hd.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(hd.Get("Access-Control-Allow-Headers"), "x-svc-pk") ||
		!strings.Contains(hd.Get("Access-Control-Allow-Headers"), "content-type") || !strings.Contains(hd.Get("Access-Control-Allow-Methods"), "PUT") {
		t.Errorf("preflight headers = %v", hd)
	}
	rec = e.protected("/v1/protected/surveys")
	if rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("protected endpoint sent CORS headers: %v", rec.Header())
	}

	r := setup(t, func(o *api.Config) { o.AllowedOrigins = map[string]bool{"https://good.example": true} })
	for origin, want := range map[string]string{"https://good.example": "https://good.example", "https://evil.example": ""} {
		rec := r.do(req{method: "GET", path: "/v1/svc/" + r.survA.ID, headers: map[string]string{"x-svc-pk": r.pkA, "Origin": origin}})
		if got := rec.Header().Get("Access-Control-Allow-Origin"); got != want {
			t.Errorf("origin %s: Allow-Origin %q, want %q", origin, got, want)
		}
		if !strings.Contains(strings.Join(rec.Header().Values("Vary"), ","), "Origin") {
			t.Errorf("origin %s: no Vary: Origin", origin)
		}
	}
}

func TestUnknownRoutesAndMethods(t *testing.T) {
	e := setup(t)
	rec := e.do(req{method: "GET", path: "/nope"})
	wantStatus(t, rec, 404, "not_found")
	rec = e.do(req{method: "GET", path: "/v1/svc/" + e.survA.ID + "/extra/segments"})
	wantStatus(t, rec, 404, "not_found")
	rec = e.do(req{method: "DELETE", path: "/v1/svc/" + e.survA.ID})
	wantStatus(t, rec, 405, "method_not_allowed")
	if allow := rec.Header().Get("Allow"); !strings.Contains(allow, "GET") {
		t.Errorf("405 Allow = %q, want GET listed", allow)
	}
	rec = e.do(req{method: "PUT", path: "/v1/protected/surveys"})
	wantStatus(t, rec, 405, "method_not_allowed")
	for _, unclean := range []string{"/v1/svc/" + e.survA.ID + "/response/.", "//v1/svc/" + e.survA.ID, "/v1/svc/x/../" + e.survA.ID} {
		rec = e.public("GET", unclean, "")
		wantStatus(t, rec, 404, "not_found")
		if rec.Header().Get("Location") != "" {
			t.Errorf("%s: redirects to %s", unclean, rec.Header().Get("Location"))
		}
	}
}

func TestMountedUnderPrefix(t *testing.T) {
	e := setup(t)
	mux := http.NewServeMux()
	mux.Handle("/feedback/", http.StripPrefix("/feedback", e.h))
	e.h = mux
	wantStatus(t, e.public("GET", "/feedback/v1/svc/"+e.survA.ID, ""), 200, "")
	rec := e.protected("/feedback/v1/protected/surveys?limit=1")
	wantStatus(t, rec, 200, "")
	page := decode[struct {
		Links struct{ Self string } `json:"links"`
	}](t, rec)
	if page.Links.Self != "/feedback/v1/protected/surveys?limit=1" {
		t.Errorf("links.self under a prefix = %q", page.Links.Self)
	}
	wantStatus(t, e.do(req{method: "GET", path: "/feedback/v1/nothing"}), 404, "not_found")
}

// The probes need no key: /healthz while the process runs, /readyz while the store answers.
func TestHealthAndReadiness(t *testing.T) {
	e := setup(t)
	for path, want := range map[string]string{"/healthz": `{"status":"ok"}`, "/readyz": `{"status":"ready"}`} {
		rec := e.do(req{method: "GET", path: path})
		wantStatus(t, rec, 200, "")
		if got := strings.TrimSpace(rec.Body.String()); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
	if err := e.store.Close(); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, e.do(req{method: "GET", path: "/healthz"}), 200, "")
	rec := e.do(req{method: "GET", path: "/readyz"})
	wantStatus(t, rec, 503, "unavailable")
	if rec.Header().Get("Retry-After") == "" {
		t.Errorf("503 without Retry-After")
	}
}
