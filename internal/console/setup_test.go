package console_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/internal/testclock"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// t0 is the tests' clock origin.
var t0 = time.Date(2026, 11, 21, 10, 4, 5, 123_000_000, time.UTC)

// env is two teams ("a" and "b"), each with the sample survey, over a fresh SQLite file, and
// a clock the tests move.
type env struct {
	t            testing.TB
	store        *sqlite.Store
	clock        *testclock.Clock
	ids          *cuid2.Generator
	survA, survB store.Survey
}

func setup(t testing.TB) *env {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{t: t, store: st, clock: testclock.New(t0), ids: cuid2.NewGenerator()}
	for _, team := range []string{"a", "b"} {
		if err := st.CreateTeam(t.Context(), store.Team{ID: team, Name: "Team " + team, CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		sv := store.Survey{ID: e.ids.New(), TeamID: team, Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: t0, UpdatedAt: t0}
		if err := st.CreateSurvey(t.Context(), sv); err != nil {
			t.Fatal(err)
		}
		if team == "a" {
			e.survA = sv
		} else {
			e.survB = sv
		}
	}
	return e
}

// putResponse writes a response with the answers of data (JSON), checked against the survey as
// the API checks them, at the clock's time.
func (e *env) putResponse(surveyID, id, respondent, data string) {
	e.t.Helper()
	var a survey.Answers
	if err := json.Unmarshal([]byte(data), &a); err != nil {
		e.t.Fatal(err)
	}
	sv, err := e.store.Survey(e.t.Context(), "a", surveyID)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := sv.Definition.ValidateAnswers(a); err != nil {
		e.t.Fatal(err)
	}
	if _, _, err := e.store.PutResponse(e.t.Context(), store.ResponseWrite{SurveyID: surveyID, ID: id, Respondent: respondent, Data: a,
		Metadata: map[string]string{"k": "v"}, At: e.clock.Now()}); err != nil {
		e.t.Fatal(err)
	}
}

// view records a view of the survey.
func (e *env) view(surveyID, respondent string) {
	e.t.Helper()
	if err := e.store.RecordEvent(e.t.Context(), store.Event{SurveyID: surveyID, Respondent: respondent, Type: store.EventView, At: e.clock.Now()}); err != nil {
		e.t.Fatal(err)
	}
}

// send serves one request to h as a browser on the console's host sends it: a form, when
// given, as the body of a POST, and headers such as Sec-Fetch-Site.
func send(h http.Handler, method, path string, form url.Values, headers map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
	r.Host = "localhost:8080"
	if method == "POST" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}
