package svc_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The console's Share page gives a survey's links where the handler is served: Options.BaseURL,
// given through ConsoleOptions.
func TestConsoleShareUsesBaseURL(t *testing.T) {
	st := openStore(t)
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	if err := st.CreateTeam(t.Context(), store.Team{ID: "acme", Name: "Acme", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: now, UpdatedAt: now}
	if err := st.CreateSurvey(t.Context(), sv); err != nil {
		t.Fatal(err)
	}
	c, err := svc.NewConsole(st, "acme", &svc.ConsoleOptions{Options: svc.Options{BaseURL: "https://app.example.com/feedback/"}})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	c.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/surveys/"+sv.ID+"/share", nil))
	if page := rec.Body.String(); rec.Code != 200 || !strings.Contains(page, `value="https://app.example.com/feedback/s/`+sv.ID+`"`) {
		t.Errorf("the Share page: %d\n%s", rec.Code, page)
	}
}
