package storetest

import (
	"errors"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// testLinks: a survey is found by its id alone, whatever its team; a team has no link secret
// until it makes one; a rotation keeps the secret it replaces until the time given, and only
// that one.
func testLinks(t *testing.T, s store.Store) {
	ln := optional[store.Linker](t, s, "store.Linker")
	ctx := t.Context()
	mustTeam(t, s, "team_a")
	mustTeam(t, s, "team_b")
	sv := mustSurvey(t, s, newSurvey("team_b", t0))
	got, err := ln.LinkSurvey(ctx, sv.ID)
	if err != nil || got.TeamID != "team_b" || got.Title != sv.Title {
		t.Fatalf("LinkSurvey = %s of %q, %v; want the survey of team_b", got.ID, got.TeamID, err)
	}
	if _, err := ln.LinkSurvey(ctx, ids.New()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LinkSurvey of an unknown id: %v, want ErrNotFound", err)
	}

	if l, err := ln.LinkSecrets(ctx, "team_a"); err != nil || l != (store.LinkSecrets{}) {
		t.Errorf("LinkSecrets before any = %+v, %v; want none", l, err)
	}
	first, err := ln.RotateLinkSecret(ctx, "team_a", "one", t0.Add(time.Hour))
	if err != nil || first.Secret != "one" || first.Previous != "" {
		t.Fatalf("first RotateLinkSecret = %+v, %v", first, err)
	}
	until := t0.Add(24 * time.Hour)
	second, err := ln.RotateLinkSecret(ctx, "team_a", "two", until)
	want := store.LinkSecrets{Secret: "two", Previous: "one", PreviousExpiresAt: until}
	if err != nil || !second.PreviousExpiresAt.Equal(until) || second.Secret != "two" || second.Previous != "one" {
		t.Fatalf("second RotateLinkSecret = %+v, %v; want %+v", second, err, want)
	}
	read, err := ln.LinkSecrets(ctx, "team_a")
	if err != nil || read.Secret != "two" || read.Previous != "one" || !read.PreviousExpiresAt.Equal(until) {
		t.Errorf("LinkSecrets = %+v, %v; want %+v", read, err, want)
	}
	if diff := gocmp.Diff([]string{"two", "one"}, read.Valid(until.Add(-time.Millisecond))); diff != "" {
		t.Errorf("Valid before the previous one expires:\n%s", diff)
	}
	if diff := gocmp.Diff([]string{"two"}, read.Valid(until)); diff != "" {
		t.Errorf("Valid once the previous one expired:\n%s", diff)
	}
	third, err := ln.RotateLinkSecret(ctx, "team_a", "three", until)
	if err != nil || third.Previous != "two" {
		t.Errorf("third RotateLinkSecret = %+v, %v: only the secret it replaces stays", third, err)
	}
	if l, _ := ln.LinkSecrets(ctx, "team_b"); l.Secret != "" {
		t.Errorf("team_b's secrets = %+v: another team's rotation changed them", l)
	}
	if _, err := ln.RotateLinkSecret(ctx, "nobody", "x", until); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RotateLinkSecret of an unknown team: %v, want ErrNotFound", err)
	}
}

// testResponseLanguage: a response keeps the language each write gives, in what PutResponse
// returns, in Response and in lists.
func testResponseLanguage(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "team_a")
	sv := mustSurvey(t, s, newSurvey("team_a", t0))
	w := store.ResponseWrite{SurveyID: sv.ID, ID: "r-lang-1", Respondent: "ann", Data: survey.Answers{"nps": survey.Number(9)},
		Metadata: map[string]string{}, Language: "de-AT", At: t0}
	if r, _ := put(t, s, w); r.Language != "de-AT" {
		t.Errorf("created response's language %q", r.Language)
	}
	put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: "r-lang-2", Respondent: "bob", Data: survey.Answers{}, Metadata: map[string]string{}, At: t0.Add(time.Second)})
	page, _, err := s.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 10})
	if err != nil || len(page) != 2 || page[0].Language != "" || page[1].Language != "de-AT" {
		t.Fatalf("listed languages: %+v, %v", page, err)
	}
	w.Language, w.At = "fr", t0.Add(2*time.Second)
	if r, created := put(t, s, w); created || r.Language != "fr" {
		t.Errorf("updated response's language %q (created %v), want fr", r.Language, created)
	}
	if r, err := s.Response(ctx, sv.ID, "r-lang-1"); err != nil || r.Language != "fr" {
		t.Errorf("Response's language %q, %v; want fr", r.Language, err)
	}
}
