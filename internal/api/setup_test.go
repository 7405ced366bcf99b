package api_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/internal/testclock"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

var t0 = time.Date(2026, 11, 21, 10, 4, 5, 123_000_000, time.UTC)

// env is a handler over a fresh store with two teams, A and B, each with keys and an active
// demo survey. The store is SQLite, or PostgreSQL when SVC_HANDLER_BACKEND=postgres (scripts/test
// runs this package's tests both ways).
type env struct {
	t      testing.TB
	store  testStore
	h      http.Handler
	clock  *testclock.Clock
	ids    *cuid2.Generator
	pkA    string
	skA    string
	pkB    string
	skB    string
	survA  store.Survey
	survB  store.Survey
	keyAID string
	// raw is the handler setup made; h is what requests go to, raw or a test's wrapping of it.
	raw *api.Handler
}

// testStore is what the tests need of a store: the Store, and the shared read the handler's fast
// path uses, which both backends have.
type testStore interface {
	store.Store
	store.SharedSurveyReader
}

// backendEnv chooses the backend of setup's stores.
const backendEnv = "SVC_HANDLER_BACKEND"

func setup(t testing.TB, opts ...func(*api.Config)) *env {
	t.Helper()
	if os.Getenv(backendEnv) == "postgres" {
		st, err := postgres.Open(t.Context(), pgtest.URL(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		return setupWith(t, st, slog.New(slog.DiscardHandler), opts...)
	}
	return setupAt(t, filepath.Join(t.TempDir(), "svc.db"), slog.New(slog.DiscardHandler), opts...)
}

// setupAt is setup over an SQLite file at path, for the tests of what happens to that file.
func setupAt(t testing.TB, path string, log *slog.Logger, opts ...func(*api.Config)) *env {
	t.Helper()
	st, err := sqlite.Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return setupWith(t, st, log, opts...)
}

func setupWith(t testing.TB, st testStore, log *slog.Logger, opts ...func(*api.Config)) *env {
	t.Helper()
	t.Cleanup(func() { st.Close() })
	e := &env{t: t, store: st, clock: testclock.New(t0), ids: cuid2.NewGenerator()}
	o := api.Config{Now: e.clock.Now, Logger: log}
	for _, f := range opts {
		f(&o)
	}
	e.raw = api.New(st, o)
	e.h = e.raw
	ctx := t.Context()
	for _, team := range []string{"a", "b"} {
		if err := st.CreateTeam(ctx, store.Team{ID: team, Name: "Team " + strings.ToUpper(team), CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		pk, pkKey, err := store.CreateKey(ctx, st, team, store.Publishable, t0)
		if err != nil {
			t.Fatal(err)
		}
		sk, _, err := store.CreateKey(ctx, st, team, store.Secret, t0)
		if err != nil {
			t.Fatal(err)
		}
		sv := e.newSurvey(team, store.StatusActive, t0)
		if team == "a" {
			e.pkA, e.skA, e.survA, e.keyAID = pk, sk, sv, pkKey.ID
		} else {
			e.pkB, e.skB, e.survB = pk, sk, sv
		}
	}
	return e
}

func (e *env) newSurvey(team string, status store.Status, at time.Time) store.Survey {
	e.t.Helper()
	sv := store.Survey{ID: e.ids.New(), TeamID: team, Status: status, Definition: survey.Sample(), CreatedAt: at, UpdatedAt: at}
	if err := e.store.CreateSurvey(e.t.Context(), sv); err != nil {
		e.t.Fatal(err)
	}
	return sv
}

// req is one request to the handler.
type req struct {
	method  string
	path    string
	body    string
	headers map[string]string
}

func (e *env) do(r req) *httptest.ResponseRecorder {
	e.t.Helper()
	rec, hr := e.exchange(r)
	checkAgainstDocument(e.t, hr, []byte(r.body), rec)
	return rec
}

// serve runs one request; unlike do it never touches e.t, so fuzz targets can call it.
func (e *env) serve(r req) *httptest.ResponseRecorder {
	rec, _ := e.exchange(r)
	return rec
}

// exchange runs one request and returns its reply and the request sent.
func (e *env) exchange(r req) (*httptest.ResponseRecorder, *http.Request) {
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	hr := httptest.NewRequest(r.method, r.path, body)
	if r.body != "" {
		hr.Header.Set("Content-Type", "application/json")
	}
	for k, v := range r.headers {
		if v == "" {
			hr.Header.Del(k)
		} else {
			hr.Header.Set(k, v)
		}
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, hr)
	return rec, hr
}

// public sends a request with team A's publishable key.
func (e *env) public(method, path, body string) *httptest.ResponseRecorder {
	e.t.Helper()
	return e.do(req{method: method, path: path, body: body, headers: map[string]string{"x-svc-pk": e.pkA}})
}

// protected sends a GET with team A's secret key.
func (e *env) protected(path string) *httptest.ResponseRecorder {
	e.t.Helper()
	return e.do(req{method: "GET", path: path, headers: map[string]string{"Authorization": "Bearer " + e.skA}})
}

// wantStatus checks a reply's status and, for errors, that its body is the JSON error shape
// with the given code.
func wantStatus(t testing.TB, rec *httptest.ResponseRecorder, status int, code string) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status = %d, want %d; body: %s", rec.Code, status, rec.Body)
	}
	if status < 400 {
		return
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("error Content-Type = %q, want application/json", ct)
	}
	var body struct {
		Error *string `json:"error"`
		Code  *string `json:"code"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Error == nil || *body.Error == "" || body.Code == nil {
		t.Fatalf("error body %q is not {error, code}", rec.Body)
	}
	if *body.Code != code {
		t.Errorf("error code = %q, want %q (message %q)", *body.Code, code, *body.Error)
	}
}

func errorMessage(t testing.TB, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var body struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	return body.Error
}

func decode[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %s: %v", rec.Body, err)
	}
	return v
}

func asAny(t testing.TB, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}
