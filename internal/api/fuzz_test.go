package api_test

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/delivery"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/webhookverify"
)

// fuzzReply checks a fuzzed request's reply: a status among ok, and a JSON error body for
// errors. Never a 500.
func fuzzReply(t *testing.T, e *env, r req, ok ...int) *httptest.ResponseRecorder {
	t.Helper()
	rec := e.serve(r)
	for _, c := range ok {
		if rec.Code == c {
			if c >= 400 {
				var body struct{ Error, Code string }
				if json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Error == "" || body.Code == "" {
					t.Fatalf("%s %s: error body %q is not a JSON error", r.method, r.path, rec.Body)
				}
			}
			return rec
		}
	}
	t.Fatalf("%s %s with %q: status %d (%s)", r.method, r.path, r.body, rec.Code, rec.Body)
	return nil
}

// FuzzResponsePut sends arbitrary PUT bodies and response ids.
func FuzzResponsePut(f *testing.F) {
	f.Add(`{"respondent":"ann","data":{"nps":9},"metadata":{}}`, "rid1")
	f.Add(`{"respondent":"ann","data":{"bug":{"title":"t","metadata":"m"}},"metadata":{"a":"b"},"telemetry":"x"}`, "123e4567-e89b-12d3-a456-426614174000")
	f.Add(`{"respondent":"ann","data":{"missing":["Speed","Speed"]},"metadata":{"a":null}}`, "r")
	e := setup(f)
	f.Fuzz(func(t *testing.T, body, id string) {
		r := req{method: "PUT", path: "/v1/svc/" + e.survA.ID + "/response/" + url.PathEscape(id), body: body,
			headers: map[string]string{"x-svc-pk": e.pkA}}
		e.clock.Advance(time.Millisecond) // a response created now is the only one of its millisecond
		put := fuzzReply(t, e, r, 200, 400, 404, 409, 413)
		if put.Code != 200 {
			return
		}
		var reply struct{ CreatedAt string }
		if err := json.Unmarshal(put.Body.Bytes(), &reply); err != nil {
			t.Fatal(err)
		}
		// What was accepted reads back: the list splices stored JSON into the page, so a
		// stored answer that is not JSON would break the whole page.
		var sent struct {
			Respondent string         `json:"respondent"`
			Data       map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(body), &sent); err != nil {
			t.Fatalf("accepted body does not decode: %v", err)
		}
		// Its respondent's responses created in the same millisecond: a page that holds it.
		q := url.Values{"limit": {"100"}, "respondent": {sent.Respondent}, "after": {reply.CreatedAt}, "before": {reply.CreatedAt}}
		rec := fuzzReply(t, e, req{method: "GET", path: "/v1/protected/surveys/" + e.survA.ID + "/responses?" + q.Encode(),
			headers: map[string]string{"Authorization": "Bearer " + e.skA}}, 200)
		var page listPage[responseJSON]
		if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil {
			t.Fatalf("list after PUT %q is not JSON: %v\n%s", body, err, rec.Body)
		}
		id = store.CanonicalResponseID(id) // a UUID is stored in lower case
		found := false
		for _, got := range page.Data {
			if got.ID == id {
				if len(got.Data) != len(sent.Data) {
					t.Fatalf("PUT %q: listed data %v", body, got.Data)
				}
				found = true
			}
		}
		if !found {
			t.Fatalf("PUT %s %q answered 200 but is not listed for its respondent", id, body)
		}
		// Its webhook payload, built from what was stored, parses back with every answer.
		stored, err := e.store.Response(t.Context(), e.survA.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		payload, err := delivery.Payload(e.survA, store.Team{ID: "acme", Name: "Acme"}, stored, time.Now())
		if err != nil {
			t.Fatalf("PUT %q: webhook payload: %v", body, err)
		}
		ev, err := webhookverify.ParseEvent(payload)
		if err != nil || len(ev.Data.Response.Data) != len(sent.Data) {
			t.Fatalf("PUT %q: webhook payload %s parses as %+v, %v", body, payload, ev, err)
		}
		for _, a := range ev.Data.Response.Data {
			var raw any
			if err := json.Unmarshal([]byte(a.Answer.Stringified), &raw); err != nil {
				t.Fatalf("PUT %q: stringified answer %q is not JSON: %v", body, a.Answer.Stringified, err)
			}
		}
	})
}

// FuzzCursor sends arbitrary cursors and limits to the response list.
func FuzzCursor(f *testing.F) {
	f.Add("eyJ0IjoxNzk1MjU1NDQ1MTIzLCJpIjoiYWJjIn0", "10")
	f.Add("", "0")
	f.Add("eyJ0IjotOTIyMzM3MjAzNjg1NDc3NTgwOCwiaSI6IngifQ", "100")
	e := setup(f)
	f.Fuzz(func(t *testing.T, cursor, limit string) {
		q := url.Values{"cursor": {cursor}, "limit": {limit}}
		fuzzReply(t, e, req{method: "GET", path: "/v1/protected/surveys/" + e.survA.ID + "/responses?" + q.Encode(),
			headers: map[string]string{"Authorization": "Bearer " + e.skA}}, 200, 400)
	})
}

// FuzzTimeRange sends arbitrary timeRange and questionIds values to the score distributions.
func FuzzTimeRange(f *testing.F) {
	for _, tr := range []string{"all-time", "last-7-days", "q4-2025", "custom_2026-01-01_2026-03-31", "custom_0000-01-01_9999-12-31", "q1-0000"} {
		f.Add(tr, "nps")
	}
	e := setup(f)
	f.Fuzz(func(t *testing.T, timeRange, questionIDs string) {
		q := url.Values{"timeRange": {timeRange}, "questionIds": {questionIDs}}
		rec := fuzzReply(t, e, req{method: "GET", path: "/v1/protected/surveys/" + e.survA.ID + "/score-distributions?" + q.Encode(),
			headers: map[string]string{"Authorization": "Bearer " + e.skA}}, 200, 400)
		if rec.Code != 200 {
			return
		}
		// The periods are date-times a client can parse, in order, the previous one just
		// before the current one.
		var d distribution
		if err := json.Unmarshal(rec.Body.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		times := []string{d.Data.Current.Start, d.Data.Current.End}
		if d.Data.Previous != nil {
			times = append([]string{d.Data.Previous.Start, d.Data.Previous.End}, times...)
		}
		var prev time.Time
		for i, s := range times {
			at, err := time.Parse(time.RFC3339, s)
			if err != nil || len(s) != len("2026-11-21T10:04:05.123Z") || (i > 0 && at.Before(prev)) {
				t.Fatalf("%s: period bound %q is not a date-time in order: %v (all: %v)", timeRange, s, err, times)
			}
			if i == 2 && times[1] != times[2] {
				t.Fatalf("%s: previous period ends at %s, current starts at %s", timeRange, times[1], times[2])
			}
			prev = at
		}
	})
}

// FuzzSurveyManage sends arbitrary bodies to create and patch surveys: a clear 4xx or success,
// never a 500; what a patch accepts reads back through the public view, so a stored survey is
// always one the widget can be served.
func FuzzSurveyManage(f *testing.F) {
	f.Add(newSurveyBody, `{"title":"T","webhookUrl":null}`)
	f.Add(`{"title":"x","questions":[],"confirmation":{"title":"","description":"","buttonText":""},"status":"active"}`, `{"questions":null}`)
	f.Add(`{}`, `{"status":"active","webhookWaitSeconds":86401}`)
	f.Add(`{"questions":[{"id":"a","position":0,"properties":{"type":"rating","scale":1e400}}]}`, `[]`)
	e := setup(f)
	f.Fuzz(func(t *testing.T, create, patch string) {
		auth := map[string]string{"Authorization": "Bearer " + e.skA}
		fuzzReply(t, e, req{method: "POST", path: "/v1/protected/surveys", body: create, headers: auth}, 201, 400, 409, 413)
		e.clock.Advance(time.Millisecond)
		rec := fuzzReply(t, e, req{method: "PATCH", path: "/v1/protected/surveys/" + e.survA.ID, body: patch, headers: auth}, 200, 400, 413)
		if rec.Code != 200 {
			return
		}
		var got struct{ Status string }
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		want := 200
		if got.Status != "active" {
			want = 404
		}
		fuzzReply(t, e, req{method: "GET", path: "/v1/svc/" + e.survA.ID, headers: map[string]string{"x-svc-pk": e.pkA}}, want)
	})
}
