package api_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/store"
)

// getFrom GETs survey A's public view with key, from the client address remote.
func (e *env) getFrom(remote, key string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", "/v1/svc/"+e.survA.ID, nil)
	r.RemoteAddr = remote
	r.Header.Set("x-svc-pk", key)
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, r)
	return rec
}

func TestRateLimit(t *testing.T) {
	e := setup(t, func(o *api.Config) { o.RateLimit = &api.RateLimit{PerSecond: 1, Burst: 2} })
	get := func(remote, key string) *httptest.ResponseRecorder { return e.getFrom(remote, key) }
	wantStatus(t, get("10.0.0.1:1000", e.pkA), 200, "")
	wantStatus(t, get("10.0.0.1:1001", e.pkA), 200, "")
	rec := get("10.0.0.1:1002", e.pkA)
	wantStatus(t, rec, 429, "rate_limited")
	if rec.Header().Get("Retry-After") != "1" {
		t.Errorf("Retry-After = %q, want 1", rec.Header().Get("Retry-After"))
	}
	// Another client, or another key, has its own bucket.
	wantStatus(t, get("10.0.0.2:1000", e.pkA), 200, "")
	wantStatus(t, get("10.0.0.1:1000", e.pkB), 404, "not_found") // limited separately; B cannot see A's survey
	e.clock.Advance(time.Second)
	wantStatus(t, get("10.0.0.1:1003", e.pkA), 200, "")
	// Protected endpoints are not limited.
	for range 5 {
		wantStatus(t, e.protected("/v1/protected/surveys"), 200, "")
	}
}

// An invalid key costs the limiter no state, whatever it holds, and a flood of clients that
// fills the bucket table does not turn limiting off: a client is still limited after it.
func TestRateLimitMemoryBounded(t *testing.T) {
	e := setup(t, func(o *api.Config) { o.RateLimit = &api.RateLimit{PerSecond: 1, Burst: 2, MaxBuckets: 50} })
	h := e.raw
	get := func(remote, key string) *httptest.ResponseRecorder { return e.getFrom(remote, key) }
	long := strings.Repeat("x", 64<<10)
	for i := range 3000 {
		key := fmt.Sprintf("svc_pk_bogus%036d", i)
		if i%10 == 0 {
			key = long + strconv.Itoa(i) // the largest header a server lets through
		}
		wantStatus(t, get(fmt.Sprintf("10.1.%d.%d:1000", i/250, i%250), key), 401, "unauthorized")
	}
	if n := h.RateLimitBuckets(); n != 0 {
		t.Errorf("after 3,000 requests with invalid keys the limiter keeps %d buckets, want 0", n)
	}

	// Many clients with the valid (public) key: the table stays bounded...
	for i := range 500 {
		wantStatus(t, get(fmt.Sprintf("10.2.%d.%d:1000", i/250, i%250), e.pkA), 200, "")
	}
	if n := h.RateLimitBuckets(); n > 50 {
		t.Errorf("after 500 clients the limiter keeps %d buckets, want at most 50", n)
	}
	// ...and a client after the flood is still limited past its burst.
	wantStatus(t, get("10.3.0.1:1000", e.pkA), 200, "")
	wantStatus(t, get("10.3.0.1:1001", e.pkA), 200, "")
	wantStatus(t, get("10.3.0.1:1002", e.pkA), 429, "rate_limited")
	// The addresses of one IPv6 /64 are one client.
	wantStatus(t, get("[2001:db8:1:2::1]:1000", e.pkA), 200, "")
	wantStatus(t, get("[2001:db8:1:2::2]:1000", e.pkA), 200, "")
	wantStatus(t, get("[2001:db8:1:2::3]:1000", e.pkA), 429, "rate_limited")
}

// TestPutWrongTypes sends every field of the PUT body with every wrong JSON type: always a
// 400 JSON error, and nothing stored.
func TestPutWrongTypes(t *testing.T) {
	e := setup(t)
	fields := map[string]string{"respondent": `"ann"`, "data": `{}`, "metadata": `{}`, "telemetry": `"t"`}
	wrong := map[string][]string{
		"respondent": {`1`, `true`, `[]`, `{}`, `null`},
		"data":       {`1`, `"x"`, `true`, `[]`, `null`, `{"nps":{"deep":[1]}}`, `{"nps":[1]}`, `{"nps":true}`},
		"metadata":   {`1`, `"x"`, `true`, `[]`, `{"a":1}`, `{"a":{"b":"c"}}`, `{"a":null}`},
		"telemetry":  {`1`, `true`, `[]`, `{}`},
	}
	for field, values := range wrong {
		for _, v := range values {
			var parts []string
			for f, good := range fields {
				if f == field {
					good = v
				}
				parts = append(parts, `"`+f+`":`+good)
			}
			body := "{" + strings.Join(parts, ",") + "}"
			rec := e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), body)
			if rec.Code != 400 {
				t.Errorf("%s = %s: status %d, want 400 (%s)", field, v, rec.Code, rec.Body)
				continue
			}
			wantStatus(t, rec, 400, "invalid_request")
		}
	}
	for _, body := range []string{
		strings.Repeat("[", 100000) + strings.Repeat("]", 100000),
		`{"respondent":"ann","data":` + strings.Repeat(`{"a":`, 20000) + `1` + strings.Repeat(`}`, 20000) + `,"metadata":{}}`,
		`{"respondent":"ann","data":{"nps":1` + strings.Repeat("0", 400) + `},"metadata":{}}`,
		`{"respondent":"ann","data":{"missing":[` + strings.Repeat(`"Speed",`, 50000) + `"Docs"]},"metadata":{}}`,
		"\xef\xbb\xbf{}", `"just a string"`, `null`, `{"respondent":"ann","respondent":"bob","data":{},"metadata":{}} trailing`,
	} {
		rec := e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), body)
		wantStatus(t, rec, 400, "invalid_request")
	}
	st, err := e.store.Stats(t.Context(), e.survA.ID)
	if err != nil || st.TotalResponses != 0 {
		t.Errorf("hostile PUTs stored responses: %+v, %v", st, err)
	}
}

// countingReader fails the test if anything reads it.
type countingReader struct{ n int }

func (c *countingReader) Read(p []byte) (int, error) {
	c.n += len(p)
	return 0, io.ErrUnexpectedEOF
}

func TestOversizeBodyRefusedUnread(t *testing.T) {
	e := setup(t)
	body := &countingReader{}
	r := httptest.NewRequest("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), body)
	r.ContentLength = api.DefaultMaxResponseBody + 1
	r.Header.Set("x-svc-pk", e.pkA)
	r.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, r)
	wantStatus(t, rec, 413, "payload_too_large")
	if body.n != 0 {
		t.Errorf("the handler read %d bytes of an oversize body", body.n)
	}
}

func TestHostileQueriesAndPaths(t *testing.T) {
	e := setup(t)
	huge := strings.Repeat("x", 100_000)
	for _, path := range []string{
		"/v1/protected/surveys?cursor=" + huge,
		"/v1/protected/surveys?limit=" + huge,
		"/v1/protected/surveys/" + e.survA.ID + "/responses?respondent=" + huge,
		"/v1/protected/surveys/" + e.survA.ID + "/responses?after=" + huge,
		"/v1/protected/surveys/" + e.survA.ID + "/score-distributions?timeRange=" + huge,
		"/v1/protected/surveys/" + e.survA.ID + "/score-distributions?questionIds=" + huge,
		"/v1/protected/surveys/" + e.survA.ID + "/score-distributions?timeRange=q1-2026&timeRange=q2-2026",
		// Every single-valued parameter, on every endpoint: given twice, refused, never the
		// first or the last taken.
		"/v1/protected/surveys/" + e.survA.ID + "/stats?timeRange=all-time&timeRange=last-7-days",
		"/v1/protected/surveys/" + e.survA.ID + "/stats?timeRange=last-7-days&timeRange=all-time",
		"/v1/protected/surveys/" + e.survA.ID + "/summary?timeRange=all-time&timeRange=last-7-days",
		"/v1/protected/surveys/" + e.survA.ID + "/responses?respondent=a&respondent=b",
		"/v1/protected/surveys/" + e.survA.ID + "/responses?after=2026-01-01T00:00:00Z&after=2026-02-01T00:00:00Z",
		"/v1/protected/surveys/" + e.survA.ID + "/responses/export?format=csv&format=ndjson",
		"/v1/protected/surveys?limit=1&limit=2",
		"/v1/protected/surveys/" + huge,
		"/v1/protected/surveys/%00",
		"/v1/protected/surveys/abc%2Fdef/responses",
		"/v1/protected/surveys/" + e.survA.ID + "/webhook-deliveries?limit=0",
		// A query that does not decode is refused rather than read without its broken pairs,
		// which would serve the first page for a broken cursor.
		"/v1/protected/surveys?cursor=%zz",
		"/v1/protected/surveys?limit=1;cursor=x",
		"/v1/protected/surveys/" + e.survA.ID + "/responses?limit=10&cursor=%",
		"/v1/protected/surveys/" + e.survA.ID + "/score-distributions?timeRange=%e2%8",
		"/v1/protected/surveys/" + e.survA.ID + "/webhook-deliveries?cursor=%g0",
	} {
		rec := e.protected(path)
		wantStatus(t, rec, 400, "invalid_request")
	}
	// A respondent that is a dot segment could never be read or erased by path: refused.
	for _, who := range []string{".", ".."} {
		wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), `{"respondent":"`+who+`","data":{},"metadata":{}}`), 400, "invalid_request")
	}
	for _, path := range []string{
		"/v1/svc/%ff%fe", "/v1/svc/" + e.survA.ID + "/respondent/%ff/event", "/v1/svc/" + e.survA.ID + "/response/%2e%2e",
	} {
		rec := e.public("GET", path, "")
		if rec.Code == 500 || rec.Code == 200 {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
}

// TestNULRefused sends U+0000 wherever a string reaches the store as text: a 400, on every
// backend (PostgreSQL's text cannot hold it; SQLite's could, and refuses it too, so that a
// respondent id valid on one backend is valid on the other).
func TestNULRefused(t *testing.T) {
	e := setup(t)
	survey := "/v1/svc/" + e.survA.ID
	for _, c := range []struct{ method, path, body string }{
		{"PUT", survey + "/response/" + e.ids.New(), `{"respondent":"a\u0000b","data":{},"metadata":{}}`},
		{"PUT", survey + "/response/" + e.ids.New(), `{"respondent":"ann","data":{},"metadata":{},"telemetry":"x\u0000"}`},
		{"POST", survey + "/respondent/a%00b/event", `{"type":"view"}`},
		{"GET", survey + "/respondent/a%00b", ""},
	} {
		rec := e.public(c.method, c.path, c.body)
		if rec.Code != 400 {
			t.Errorf("%s %s %s: %d %s, want 400", c.method, c.path, c.body, rec.Code, rec.Body)
		}
	}
	for _, c := range []struct{ method, path string }{
		{"GET", "/v1/protected/surveys/" + e.survA.ID + "/responses?respondent=a%00b"},
		{"GET", "/v1/protected/surveys/" + e.survA.ID + "/responses/export?respondent=a%00b"},
		{"DELETE", "/v1/protected/respondents/a%00b"},
	} {
		rec := e.manage(c.method, c.path, "", e.skA)
		if rec.Code != 400 {
			t.Errorf("%s %s: %d %s, want 400", c.method, c.path, rec.Code, rec.Body)
		}
	}
	// Elsewhere a U+0000 is refused or names nothing: never a server error.
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/v1/protected/surveys/" + e.survA.ID + "/score-distributions?questionIds=a%00b", ""},
		{"GET", "/v1/protected/surveys/" + e.survA.ID + "/webhook-deliveries/a%00b/redeliver", ""},
		{"POST", "/v1/protected/surveys/" + e.survA.ID + "/webhook-deliveries/a%00b/redeliver", ""},
		{"GET", "/v1/protected/surveys/" + e.survA.ID + "/responses/a%00b", ""},
		{"DELETE", "/v1/protected/surveys/a%00b", ""},
		{"POST", "/v1/protected/surveys", strings.Replace(newSurveyBody, `"title":"Onboarding"`, `"id":"a\u0000b","title":"On\u0000boarding"`, 1)},
		{"POST", "/v1/protected/surveys", strings.Replace(newSurveyBody, `"title":"Onboarding"`, `"title":"On\u0000boarding","webhookUrl":"https://example.com/\u0000"`, 1)},
		{"PATCH", "/v1/protected/surveys/" + e.survA.ID, `{"title":"x\u0000","description":"\u0000"}`},
	} {
		if rec := e.manage(c.method, c.path, c.body, e.skA, "Content-Type", "application/json"); rec.Code >= 500 {
			t.Errorf("%s %s %s: %d %s", c.method, c.path, c.body, rec.Code, rec.Body)
		}
	}
	// Answers and metadata are stored as JSON, where U+0000 is escaped: they keep it.
	id := e.ids.New()
	rec := e.public("PUT", survey+"/response/"+id, `{"respondent":"ann","data":{"comments":"a\u0000b"},"metadata":{"k":"v\u0000"}}`)
	if rec.Code != 200 {
		t.Fatalf("answers holding U+0000: %d %s, want 200", rec.Code, rec.Body)
	}
	r, err := e.store.Response(t.Context(), e.survA.ID, id)
	if err != nil || !strings.Contains(string(r.Data), `a\u0000b`) {
		t.Errorf("stored answers %s, %v: the U+0000 is lost", r.Data, err)
	}
}

// TestTenantIsolation uses team A's keys on every endpoint against team B's survey: always
// 404, and the body never shows B's data.
func TestTenantIsolation(t *testing.T) {
	e := setup(t)
	id := e.ids.New()
	rec := e.do(req{method: "PUT", path: "/v1/svc/" + e.survB.ID + "/response/" + id, body: `{"respondent":"bob-secret","data":{},"metadata":{}}`,
		headers: map[string]string{"x-svc-pk": e.pkB}})
	wantStatus(t, rec, 200, "")
	b := e.survB.ID
	for _, r := range []req{
		{method: "GET", path: "/v1/svc/" + b},
		{method: "GET", path: "/v1/svc/" + b + "/respondent/bob-secret"},
		{method: "POST", path: "/v1/svc/" + b + "/respondent/bob-secret/event", body: `{"type":"view"}`},
		{method: "PUT", path: "/v1/svc/" + b + "/response/" + id, body: `{"respondent":"bob-secret","data":{},"metadata":{}}`},
	} {
		r.headers = map[string]string{"x-svc-pk": e.pkA}
		rec := e.do(r)
		wantStatus(t, rec, 404, "not_found")
		if strings.Contains(rec.Body.String(), "bob-secret") {
			t.Errorf("%s %s leaked data: %s", r.method, r.path, rec.Body)
		}
	}
	for _, r := range []req{
		{method: "GET", path: "/v1/protected/surveys/" + b},
		{method: "GET", path: "/v1/protected/surveys/" + b + "/responses"},
		{method: "GET", path: "/v1/protected/surveys/" + b + "/stats"},
		{method: "GET", path: "/v1/protected/surveys/" + b + "/score-distributions"},
		{method: "GET", path: "/v1/protected/surveys/" + b + "/webhook-deliveries"},
		{method: "POST", path: "/v1/protected/surveys/" + b + "/webhook-deliveries/dlv_x/redeliver"},
	} {
		r.headers = map[string]string{"Authorization": "Bearer " + e.skA}
		rec := e.do(r)
		wantStatus(t, rec, 404, "not_found")
	}
	rec = e.protected("/v1/protected/surveys")
	if strings.Contains(rec.Body.String(), b) {
		t.Errorf("team A's survey list shows team B's survey: %s", rec.Body)
	}
	// Keys of the wrong kind never open the other side.
	wantStatus(t, e.do(req{method: "GET", path: "/v1/protected/surveys", headers: map[string]string{"Authorization": "Bearer " + e.pkA}}), 401, "unauthorized")
	wantStatus(t, e.do(req{method: "GET", path: "/v1/svc/" + e.survA.ID, headers: map[string]string{"x-svc-pk": e.skA}}), 401, "unauthorized")
}

// TestKeysNeverStoredOrLoggedInPlaintext scans the database files and the logs of requests
// made with every key (good, wrong-kind and unknown) for the plaintext keys.
func TestKeysNeverStoredOrLoggedInPlaintext(t *testing.T) {
	var logs bytes.Buffer
	dir := t.TempDir()
	e := setupAt(t, filepath.Join(dir, "svc.db"), slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	unknown := store.NewKeyPlaintext(store.Secret)
	for _, key := range []string{e.pkA, e.skA, unknown} {
		e.do(req{method: "GET", path: "/v1/svc/" + e.survA.ID, headers: map[string]string{"x-svc-pk": key}})
		e.do(req{method: "GET", path: "/v1/protected/surveys", headers: map[string]string{"Authorization": "Bearer " + key}})
		e.do(req{method: "GET", path: "/v1/protected/surveys/" + e.ids.New() + "/stats", headers: map[string]string{"Authorization": "Bearer " + key}})
	}
	if err := e.store.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "svc.db*"))
	for _, key := range []string{e.pkA, e.skA, e.pkB, e.skB, unknown} {
		secretPart := key[len("svc_xk_"):]
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(b, []byte(secretPart)) {
				t.Errorf("%s holds a plaintext key", filepath.Base(f))
			}
		}
		if strings.Contains(logs.String(), secretPart) {
			t.Errorf("the logs hold a plaintext key")
		}
	}

}
