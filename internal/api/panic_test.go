package api_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/store"
)

// panickingStore is a Store whose Stats panics, standing in for a bug.
type panickingStore struct{ store.Store }

func (panickingStore) Stats(context.Context, string) (store.Stats, error) { panic("bug in Stats") }

func TestPanicBecomesJSON500(t *testing.T) {
	e := setup(t)
	var logs bytes.Buffer
	e.h = api.New(panickingStore{e.store}, api.Config{Now: e.clock.Now, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/stats")
	wantStatus(t, rec, 500, "internal")
	if strings.Contains(rec.Body.String(), "bug in Stats") {
		t.Errorf("the 500 shows internal detail: %s", rec.Body)
	}
	if !strings.Contains(logs.String(), "bug in Stats") {
		t.Errorf("the panic was not logged: %s", logs.String())
	}
	// The handler keeps serving.
	wantStatus(t, e.protected("/v1/protected/surveys"), 200, "")
}

// lockedStore is a Store whose writes find the database locked by another process.
type lockedStore struct{ store.Store }

func (lockedStore) PutResponse(context.Context, store.ResponseWrite) (store.Response, bool, error) {
	return store.Response{}, false, fmt.Errorf("put response: %w", store.ErrUnavailable)
}

// A store that cannot take a write now is a 503 with Retry-After, not a 500: the widget retries.
func TestUnavailableStoreIs503(t *testing.T) {
	e := setup(t)
	e.h = api.New(lockedStore{e.store}, api.Config{Now: e.clock.Now, Logger: slog.New(slog.DiscardHandler)})
	rec := e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), `{"respondent":"ann","data":{},"metadata":{}}`)
	wantStatus(t, rec, 503, "unavailable")
	if rec.Header().Get("Retry-After") == "" {
		t.Errorf("503 without Retry-After: %v", rec.Header())
	}
}

// The access log has one line per request with its method, route pattern, status, duration and
// size, and never a key, a respondent, a query string or a body.
func TestAccessLog(t *testing.T) {
	e := setup(t)
	var logs bytes.Buffer
	e.h = api.New(e.store, api.Config{Now: e.clock.Now, Logger: slog.New(slog.DiscardHandler),
		AccessLog: slog.New(slog.NewTextHandler(&logs, nil))})
	wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(),
		`{"respondent":"ann@secret.example","data":{"comments":"private words"},"metadata":{}}`), 200, "")
	wantStatus(t, e.protected("/v1/protected/surveys/"+e.survA.ID+"/responses?respondent=ann@secret.example"), 200, "")
	wantStatus(t, e.do(req{method: "GET", path: "/nope"}), 404, "not_found")
	got := logs.String()
	for _, want := range []string{
		`method=PUT route="PUT /v1/svc/{surveyId}/response/{responseId}" status=200`,
		`method=GET route="GET /v1/protected/surveys/{surveyId}/responses" status=200`,
		`method=GET route="(no route)" status=404`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("access log lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "msg=request"); n != 3 {
		t.Errorf("%d access log lines for 3 requests:\n%s", n, got)
	}
	for _, secret := range []string{"ann@secret", "private words", e.pkA, e.skA, e.survA.ID, "respondent="} {
		if strings.Contains(got, secret) {
			t.Errorf("access log holds %q:\n%s", secret, got)
		}
	}
	if !strings.Contains(got, "duration=") || !strings.Contains(got, "bytes=") {
		t.Errorf("access log lacks duration or bytes:\n%s", got)
	}
}
