package main

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

func TestClientExamplePrintsRealData(t *testing.T) {
	ctx := t.Context()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now().UTC().Add(-time.Minute) // before anything the example makes, whatever the clock's resolution
	_ = st.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme", CreatedAt: now})
	pk, _, _ := store.CreateKey(ctx, st, "acme", store.Publishable, now)
	sk, _, _ := store.CreateKey(ctx, st, "acme", store.Secret, now)
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: now, UpdatedAt: now}
	if err := st.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	h, err := svc.NewHandler(st, &svc.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	srv := httptest.NewServer(h)
	defer srv.Close()

	pc, _ := client.NewPublic(srv.URL, pk)
	for i, score := range []float64{10, 6, 8} {
		if _, err := pc.PutResponse(ctx, sv.ID, client.NewResponseID(), &client.ResponseInput{Respondent: []string{"ann", "bob", "ann"}[i],
			Data: survey.Answers{"nps": survey.Number(score)}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pc.RecordEvent(ctx, sv.ID, "cat", client.EventView); err != nil {
		t.Fatal(err)
	}

	var out strings.Builder
	if err := run(ctx, &out, srv.URL, sk, sv.ID); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		sv.ID + "  active    How are we doing?",
		"nps=10", "nps=6", "nps=8", "(3 responses)",
		"stats: 1 views by 1 people, 0 dismissals, 3 responses from 2 people",
		"score nps (last 30 days): 3 answers, average 8.00",
		"score stars (last 30 days): 0 answers, average n/a",
		"export: 3 rows of id,respondent,createdAt,updatedAt,finished,nps,stars,favourite,missing,comments,thanks,bug,metadata",
		"(Quick poll), now active",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}

	// The survey it made is the team's, active, with its one question.
	page, _, err := st.Surveys(ctx, "acme", nil, 10)
	if err != nil || len(page) != 2 || page[0].Title != "Quick poll" || page[0].Status != store.StatusActive || len(page[0].Questions) != 1 {
		t.Errorf("surveys after the example: %+v, %v", page, err)
	}

	err = run(ctx, &out, srv.URL, sk, store.NewSurveyID())
	if err == nil || !strings.Contains(err.Error(), "no such survey") {
		t.Errorf("unknown survey: %v", err)
	}
	err = run(ctx, &out, srv.URL, store.NewKeyPlaintext(store.Secret), sv.ID)
	if err == nil || !strings.Contains(err.Error(), "secret key was refused") {
		t.Errorf("bad key: %v", err)
	}
}
