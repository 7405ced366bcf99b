package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

func testSurveys(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	sv := newSurvey("a", t0)
	sv.WebhookURL, sv.WebhookSecret = "https://hooks.example.com/svc", "whsec"
	mustSurvey(t, s, sv)
	got, err := s.Survey(ctx, "a", sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sv, got); diff != "" {
		t.Errorf("Survey (-want +got):\n%s", diff)
	}
	_, err = s.Survey(ctx, "b", sv.ID)
	wantErr(t, "Survey of another team", err, store.ErrNotFound)
	wantErr(t, "CreateSurvey twice", s.CreateSurvey(ctx, sv), store.ErrConflict)
	wantErr(t, "CreateSurvey for unknown team", s.CreateSurvey(ctx, newSurvey("zz", t0)), store.ErrNotFound)

	bad := newSurvey("a", t0)
	bad.Questions[1].Properties = survey.RatingProperties{Scale: 11}
	wantErr(t, "CreateSurvey invalid", s.CreateSurvey(ctx, bad), store.ErrInvalid)
	bad = newSurvey("a", t0)
	bad.WebhookURL = "ftp://example.com"
	wantErr(t, "CreateSurvey with ftp webhook", s.CreateSurvey(ctx, bad), store.ErrInvalid)
	bad = newSurvey("a", t0)
	bad.ID = "Not-A-Cuid"
	wantErr(t, "CreateSurvey with bad id", s.CreateSurvey(ctx, bad), store.ErrInvalid)

	upd := sv
	upd.Title, upd.Status, upd.UpdatedAt = "Renamed", store.StatusInactive, t0.Add(time.Hour)
	upd.CreatedAt = t0.Add(-time.Hour) // must be ignored
	if err := s.UpdateSurvey(ctx, upd); err != nil {
		t.Fatal(err)
	}
	got, err = s.Survey(ctx, "a", sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	upd.CreatedAt = sv.CreatedAt
	if diff := cmp.Diff(upd, got); diff != "" {
		t.Errorf("Survey after update (-want +got):\n%s", diff)
	}
	upd.TeamID = "b"
	wantErr(t, "UpdateSurvey by another team", s.UpdateSurvey(ctx, upd), store.ErrNotFound)

	for _, status := range []store.Status{store.StatusDeleted, store.StatusActive, store.StatusInactive} {
		if err := store.SetSurveyStatus(ctx, s, "a", sv.ID, status, t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Survey(ctx, "a", sv.ID); err != nil || got.Status != status || got.Title != "Renamed" {
			t.Errorf("after SetSurveyStatus(%s): %+v, %v", status, got.Status, err)
		}
	}
	wantErr(t, "SetSurveyStatus unknown status", store.SetSurveyStatus(ctx, s, "a", sv.ID, "archived", t0), store.ErrInvalid)
	wantErr(t, "SetSurveyStatus by another team", store.SetSurveyStatus(ctx, s, "b", sv.ID, store.StatusDeleted, t0), store.ErrNotFound)
}

func testSurveyList(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	mustTeam(t, s, "b")
	var want []string
	for i := range 7 {
		// Two surveys share each creation time, so the id breaks ties.
		sv := newSurvey("a", t0.Add(time.Duration(i/2)*time.Second))
		if i == 3 {
			sv.Status = store.StatusDeleted
		} else if i == 4 {
			sv.Status = store.StatusInactive
		}
		mustSurvey(t, s, sv)
		if sv.Status != store.StatusDeleted {
			want = append(want, sv.ID)
		}
	}
	mustSurvey(t, s, newSurvey("b", t0))
	// Newest first: by time descending, then id descending.
	var got []string
	var cursor *store.Cursor
	for pages := 0; ; pages++ {
		page, next, err := s.Surveys(ctx, "a", cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			t.Fatal("Surveys returned an empty page")
		}
		for _, sv := range page {
			got = append(got, sv.ID)
		}
		if next == nil {
			break
		}
		cursor = next
	}
	sorted := sortNewestFirst(t, s, "a", want)
	if diff := cmp.Diff(sorted, got); diff != "" {
		t.Errorf("Surveys pages (-want +got):\n%s", diff)
	}
}

// sortNewestFirst orders survey ids by (CreatedAt, ID) descending.
func sortNewestFirst(t *testing.T, s store.Store, team string, idsIn []string) []string {
	t.Helper()
	type row struct {
		at time.Time
		id string
	}
	var rows []row
	for _, id := range idsIn {
		sv, err := s.Survey(t.Context(), team, id)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row{sv.CreatedAt, id})
	}
	for i := range rows {
		for j := i + 1; j < len(rows); j++ {
			a, b := rows[i], rows[j]
			if b.at.After(a.at) || b.at.Equal(a.at) && b.id > a.id {
				rows[i], rows[j] = b, a
			}
		}
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.id
	}
	return out
}
