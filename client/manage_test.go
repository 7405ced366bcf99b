package client_test

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

func ptr[T any](v T) *T { return &v }

// TestManageSurveys creates, activates, changes with If-Match, rotates and deletes a survey
// through the client, against the real handler mounted under a prefix.
func TestManageSurveys(t *testing.T) {
	e := setup(t)
	c, pc := e.clients()
	ctx := t.Context()
	def := survey.Sample()
	created, err := c.CreateSurvey(ctx, &client.SurveyInput{Definition: def, WebhookURL: "https://hooks.example/svc"})
	if err != nil {
		t.Fatal(err)
	}
	if created.Status != "inactive" || created.ETag == "" || created.WebhookURL == nil || *created.WebhookURL != "https://hooks.example/svc" || created.WebhookSecretSet {
		t.Fatalf("created %+v", created)
	}
	if _, err := c.CreateSurvey(ctx, &client.SurveyInput{ID: created.ID, Definition: def}); !client.IsConflict(err) {
		t.Errorf("creating a taken id: %v, want a conflict", err)
	}
	if _, err := c.CreateSurvey(ctx, &client.SurveyInput{Definition: survey.Definition{}}); !client.IsInvalid(err) {
		t.Errorf("creating an empty survey: %v, want invalid", err)
	}
	if _, err := pc.GetSurvey(ctx, created.ID); !client.IsNotFound(err) {
		t.Errorf("an inactive survey reaches the widget: %v", err)
	}

	active, err := c.UpdateSurvey(ctx, created.ID, client.SurveyPatch{Status: ptr("active"), Title: ptr("Renamed"), RemoveWebhook: true},
		&client.UpdateOptions{IfMatch: created.ETag})
	if err != nil {
		t.Fatal(err)
	}
	if active.Status != "active" || active.Title != "Renamed" || active.WebhookURL != nil || active.ETag == created.ETag {
		t.Errorf("updated %+v", active)
	}
	if _, err := c.UpdateSurvey(ctx, created.ID, client.SurveyPatch{Title: ptr("Stale")}, &client.UpdateOptions{IfMatch: created.ETag}); !client.IsPreconditionFailed(err) {
		t.Errorf("a change based on a stale ETag: %v, want precondition failed", err)
	}
	if pub, err := pc.GetSurvey(ctx, created.ID); err != nil || pub.Title != "Renamed" {
		t.Errorf("the widget's view: %+v, %v", pub, err)
	}
	got, err := c.GetSurvey(ctx, created.ID)
	if err != nil || got.ETag != active.ETag {
		t.Errorf("GetSurvey: ETag %q, want %q (%v)", got.ETag, active.ETag, err)
	}

	secret, err := c.RotateWebhookSecret(ctx, created.ID)
	if err != nil || !strings.HasPrefix(secret, "whsec_") {
		t.Errorf("RotateWebhookSecret = %q, %v", secret, err)
	}
	if err := c.DeleteSurvey(ctx, created.ID, &client.UpdateOptions{IfMatch: active.ETag}); !client.IsPreconditionFailed(err) {
		t.Errorf("deleting with the ETag before the rotation: %v, want precondition failed", err)
	}
	if err := c.DeleteSurvey(ctx, created.ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetSurvey(ctx, created.ID); !client.IsNotFound(err) {
		t.Errorf("GetSurvey after delete: %v", err)
	}
}

func TestGetAndExportResponses(t *testing.T) {
	e := setup(t)
	c, pc := e.clients()
	ctx := t.Context()
	ids := []string{client.NewResponseID(), client.NewResponseID()}
	for i, id := range ids {
		in := &client.ResponseInput{Respondent: "ann", Data: survey.Answers{"nps": survey.Number(7 + i), "comments": survey.Text("-1 is my score")},
			Metadata: map[string]string{"page": "/p"}, Telemetry: ptr("t")}
		if _, err := pc.PutResponse(ctx, e.survey.ID, id, in); err != nil {
			t.Fatal(err)
		}
	}
	r, err := c.GetResponse(ctx, e.survey.ID, ids[1])
	if err != nil || r.ID != ids[1] || r.Telemetry == nil || *r.Telemetry != "t" || r.Data["nps"] != survey.Number(8) {
		t.Fatalf("GetResponse = %+v, %v", r, err)
	}
	if _, err := c.GetResponse(ctx, e.survey.ID, client.NewResponseID()); !client.IsNotFound(err) {
		t.Errorf("an unknown response: %v", err)
	}
	body, err := c.ExportResponses(ctx, e.survey.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(body).ReadAll()
	body.Close()
	if err != nil || len(rows) != 3 || rows[0][0] != "id" || rows[1][0] != ids[0] || rows[2][0] != ids[1] || rows[1][9] != "'-1 is my score" {
		t.Errorf("CSV export: %q, %v", rows, err)
	}
	body, err = c.ExportResponses(ctx, e.survey.ID, &client.ExportOptions{Format: client.ExportNDJSON, Respondent: "nobody"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(body)
	body.Close()
	if len(b) != 0 {
		t.Errorf("an NDJSON export of nothing: %q", b)
	}
	if _, err := c.ExportResponses(ctx, e.survey.ID, &client.ExportOptions{Format: "xlsx"}); !client.IsInvalid(err) {
		t.Errorf("an unknown format: %v", err)
	}
}

func TestDeleteAndErase(t *testing.T) {
	e := setup(t)
	c, pc := e.clients()
	ctx := t.Context()
	ids := []string{client.NewResponseID(), client.NewResponseID(), client.NewResponseID()}
	for i, who := range []string{"ann", "bob/with slash", "bob/with slash"} {
		if _, err := pc.PutResponse(ctx, e.survey.ID, ids[i], &client.ResponseInput{Respondent: who, Data: survey.Answers{"nps": survey.Number(5)}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pc.RecordEvent(ctx, e.survey.ID, "bob/with slash", client.EventView); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteResponse(ctx, e.survey.ID, ids[0]); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteResponse(ctx, e.survey.ID, ids[0]); !client.IsNotFound(err) {
		t.Errorf("deleting again: %v", err)
	}
	got, err := c.EraseRespondent(ctx, "bob/with slash")
	if err != nil || got != (client.Erased{Responses: 2, Events: 1}) {
		t.Errorf("EraseRespondent = %+v, %v", got, err)
	}
	st, err := c.GetStats(ctx, e.survey.ID, nil)
	if err != nil || st.TotalResponses != 0 || st.TotalViews != 0 || st.UniqueResponders != 0 {
		t.Errorf("stats after deleting everything: %+v, %v", st, err)
	}
}

func TestGetSummary(t *testing.T) {
	e := setup(t)
	c, pc := e.clients()
	ctx := t.Context()
	for i, nps := range []float64{10, 9, 2} {
		in := &client.ResponseInput{Respondent: fmt.Sprint("r", i), Data: survey.Answers{"nps": survey.Number(nps)}, Finished: i == 0}
		if _, err := pc.PutResponse(ctx, e.survey.ID, client.NewResponseID(), in); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pc.RecordEvent(ctx, e.survey.ID, "r0", client.EventView); err != nil {
		t.Fatal(err)
	}
	s, err := c.GetSummary(ctx, e.survey.ID, &client.RangeOptions{TimeRange: client.Last7Days})
	if err != nil {
		t.Fatal(err)
	}
	q := s.Current.Questions[0]
	if s.TimeRange != "last-7-days" || s.Previous == nil || s.Current.Funnel != (client.Funnel{Views: 1, Started: 3, Finished: 1}) ||
		q.QuestionID != "nps" || q.Answered != 3 || q.NPS == nil || *q.NPS != 33.3 || q.Counts[10] != 1 {
		t.Errorf("summary: %+v; nps question %+v", s, q)
	}
	st, err := c.GetStats(ctx, e.survey.ID, &client.RangeOptions{TimeRange: client.Last30Days})
	if err != nil || st.TotalResponses != 3 || st.UniqueResponders != 3 || st.TotalViews != 1 || st.FinishedResponses != 1 {
		t.Errorf("GetStatsIn = %+v, %v", st, err)
	}
	if _, err := c.GetSummary(ctx, e.survey.ID, &client.RangeOptions{TimeRange: "soon"}); !client.IsInvalid(err) {
		t.Errorf("a bad time range: %v", err)
	}
	tr, err := c.Trends(ctx, e.survey.ID, &client.TrendOptions{TimeRange: client.Last7Days, Interval: client.IntervalDay, QuestionIDs: []string{"nps"}})
	if err != nil {
		t.Fatal(err)
	}
	// Summed, since the clock may have passed midnight between the writes and the read.
	var sum client.TrendBucket
	for _, b := range tr.Buckets {
		sum.Responses, sum.Finished, sum.Views = sum.Responses+b.Responses, sum.Finished+b.Finished, sum.Views+b.Views
		if b.Responses == 3 && (len(b.Questions) != 1 || b.Questions[0].Answered != 3 || b.Questions[0].NPS == nil || *b.Questions[0].NPS != 33.3) {
			t.Errorf("the day of the responses: %+v", b)
		}
	}
	if tr.Interval != "day" || len(tr.Buckets) < 7 || len(tr.Buckets) > 8 || sum.Responses != 3 || sum.Finished != 1 || sum.Views != 1 {
		t.Errorf("trend of the last 7 days: %+v", tr)
	}
	// One filter on every read: the promoters' responses (scores of 9 and 10).
	promoters := &client.Filter{Min: map[string]float64{"nps": 9}}
	page, err := c.ListResponses(ctx, e.survey.ID, &client.ResponseListOptions{Filter: promoters})
	if err != nil || len(page.Data) != 2 {
		t.Errorf("promoters' responses: %+v, %v", page, err)
	}
	fs, err := c.GetSummary(ctx, e.survey.ID, &client.RangeOptions{Filter: promoters})
	if err != nil || fs.Current.Funnel.Started != 2 || fs.Current.Questions[0].Answered != 2 || *fs.Current.Questions[0].NPS != 100 {
		t.Errorf("promoters' summary: %+v, %v", fs, err)
	}
	yes := true
	fst, err := c.GetStats(ctx, e.survey.ID, &client.RangeOptions{Filter: &client.Filter{Finished: &yes}})
	if err != nil || fst.TotalResponses != 1 || fst.FinishedResponses != 1 {
		t.Errorf("finished responses' stats: %+v, %v", fst, err)
	}
	ftr, err := c.Trends(ctx, e.survey.ID, &client.TrendOptions{Filter: &client.Filter{Answers: map[string][]string{"nps": {"2"}}}})
	if err != nil {
		t.Fatal(err)
	}
	var twos int64
	for _, b := range ftr.Buckets {
		twos += b.Responses
	}
	if twos != 1 {
		t.Errorf("trend of the score 2: %d responses in %+v", twos, ftr)
	}
	body, err := c.ExportResponses(ctx, e.survey.ID, &client.ExportOptions{Filter: promoters, Titles: true})
	if err != nil {
		t.Fatal(err)
	}
	csvText, _ := io.ReadAll(body)
	body.Close()
	// The CSV for people starts with a UTF-8 byte order mark, for spreadsheets on Windows.
	if lines := strings.Split(strings.TrimSpace(string(csvText)), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "\uFEFFResponse,Respondent,") {
		t.Errorf("promoters' CSV for people:\n%s", csvText)
	}
	if _, err := c.ListResponses(ctx, e.survey.ID, &client.ResponseListOptions{Filter: &client.Filter{Answers: map[string][]string{"nope": {"1"}}}}); !client.IsInvalid(err) {
		t.Errorf("a filter of no question: %v", err)
	}
	if _, err := c.Trends(ctx, e.survey.ID, &client.TrendOptions{Interval: "hour"}); !client.IsInvalid(err) {
		t.Errorf("a bad interval: %v", err)
	}
}

// TestNoRedirectOfAChange: a proxy in front of svc that cleans paths answers an erasure with a
// 307 to another endpoint; the client never repeats a change there with its key, while a GET
// still follows a redirect. A respondent id that is a dot segment reaches no other endpoint.
func TestNoRedirectOfAChange(t *testing.T) {
	e := setup(t)
	var hits []string
	mux := http.NewServeMux() // cleans paths with a redirect, as many fronts do
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		hits = append(hits, r.Method+" "+r.URL.EscapedPath())
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/v1/protected/surveys", http.StatusTemporaryRedirect)
		case "/v1/protected/surveys":
			if r.Method == http.MethodGet {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"data":[],"nextCursor":null,"limit":50,"links":{"self":"/v1/protected/surveys","next":null}}`)
				return
			}
			t.Errorf("%s reached %s", r.Method, r.URL.Path)
			w.WriteHeader(http.StatusNoContent)
		default:
			http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
		}
	})
	front := httptest.NewServer(mux)
	defer front.Close()
	c, err := client.New(front.URL, e.sk)
	if err != nil {
		t.Fatal(err)
	}
	var redirected *client.Error
	if _, err := c.EraseRespondent(t.Context(), "ann"); !errors.As(err, &redirected) || redirected.StatusCode != http.StatusTemporaryRedirect {
		t.Errorf("an erasure redirected: %v, want the 307 as an error", err)
	}
	if len(hits) != 1 {
		t.Errorf("requests made: %q, want the erasure alone", hits)
	}
	if _, err := c.ListSurveys(t.Context(), nil); err != nil {
		t.Errorf("a GET that is redirected: %v", err)
	}

	// Against svc itself: ".." is sent escaped, as one segment, and erases nothing else.
	c, _ = e.clients()
	if _, err := c.EraseRespondent(t.Context(), ".."); !client.IsNotFound(err) && !client.IsInvalid(err) {
		t.Errorf(`EraseRespondent("..") = %v, want a 404 or 400`, err)
	}
	if _, err := c.GetSurvey(t.Context(), e.survey.ID); err != nil {
		t.Errorf("the survey after erasing \"..\": %v", err)
	}
}

// TestErrorsIs: an *Error matches the sentinel of its status with errors.Is, through any
// wrapping; the Is functions say the same.
func TestErrorsIs(t *testing.T) {
	e := setup(t)
	c, pc := e.clients()
	ctx := t.Context()
	_, err := c.GetSurvey(ctx, client.NewResponseID())
	wrapped := fmt.Errorf("loading the survey: %w", err)
	if !errors.Is(wrapped, client.ErrNotFound) || errors.Is(wrapped, client.ErrInvalid) || !client.IsNotFound(wrapped) {
		t.Errorf("an unknown survey: %v", err)
	}
	_, err = c.GetSummary(ctx, e.survey.ID, &client.RangeOptions{TimeRange: "soon"})
	if !errors.Is(err, client.ErrInvalid) || errors.Is(err, client.ErrNotFound) {
		t.Errorf("a bad range: %v", err)
	}
	bad, _ := client.New(e.base, store.NewKeyPlaintext(store.Secret))
	if _, err := bad.GetStats(ctx, e.survey.ID, nil); !errors.Is(err, client.ErrUnauthorized) {
		t.Errorf("an unknown key: %v", err)
	}
	if _, err := pc.PutResponse(ctx, e.survey.ID, client.NewResponseID(), &client.ResponseInput{Respondent: "ann", Data: survey.Answers{"nps": survey.Number(99)}}); !errors.Is(err, client.ErrInvalid) {
		t.Errorf("an answer out of range: %v", err)
	}
}

// A survey's display rules go through the client both ways, and a patch replaces or removes
// them.
func TestSurveyDisplayRulesThroughClient(t *testing.T) {
	e := setup(t)
	c, _ := e.clients()
	ctx := t.Context()
	def := survey.Sample()
	def.Display = &survey.Display{URLs: []survey.URLRule{{Match: survey.MatchPrefix, Value: "/billing"}},
		Attributes: []survey.AttributeRule{{Key: "plan", Operator: survey.OpIn, Value: []any{"pro", "team"}}},
		Percentage: ptr(50.0), Recontact: survey.RecontactOnce}
	created, err := c.CreateSurvey(ctx, &client.SurveyInput{Definition: def})
	if err != nil {
		t.Fatal(err)
	}
	if d := created.Display; d == nil || len(d.URLs) != 1 || d.URLs[0].Value != "/billing" || d.Recontact != "once" ||
		fmt.Sprint(d.Attributes[0].Value) != "[pro team]" || d.Percentage == nil || *d.Percentage != 50 {
		t.Fatalf("created with display %+v", created.Display)
	}
	changed, err := c.UpdateSurvey(ctx, created.ID, client.SurveyPatch{Display: &survey.Display{Events: []string{"upgraded"}}}, nil)
	if err != nil || changed.Display == nil || len(changed.Display.URLs) != 0 || fmt.Sprint(changed.Display.Events) != "[upgraded]" {
		t.Fatalf("patched display: %+v, %v", changed.Display, err)
	}
	removed, err := c.UpdateSurvey(ctx, created.ID, client.SurveyPatch{RemoveDisplay: true}, nil)
	if err != nil || removed.Display != nil {
		t.Errorf("removed display: %+v, %v", removed.Display, err)
	}
}

// Targeting through the client: settings with their ETag, stored attributes, prompts, and the
// public client's NextSurvey picking a prompted survey with its reason when there is none.
func TestTargetingThroughClient(t *testing.T) {
	e := setup(t)
	c, pc := e.clients()
	ctx := t.Context()
	def := survey.Sample()
	def.Display = &survey.Display{URLs: []survey.URLRule{{Match: survey.MatchPrefix, Value: "/billing"}}}
	created, err := c.CreateSurvey(ctx, &client.SurveyInput{Status: "active", Definition: def})
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.GetSettings(ctx)
	if err != nil || st.CooldownDays != 0 || st.ETag == "" {
		t.Fatalf("settings: %+v, %v", st, err)
	}
	if _, err := c.UpdateSettings(ctx, 3, &client.UpdateOptions{IfMatch: st.ETag}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateSettings(ctx, 4, &client.UpdateOptions{IfMatch: st.ETag}); !client.IsPreconditionFailed(err) {
		t.Errorf("a change from a stale ETag: %v", err)
	}
	if err := c.SetAttributes(ctx, "ann", map[string]any{"plan": "pro"}); err != nil {
		t.Fatal(err)
	}
	d, err := pc.NextSurvey(ctx, client.Ask{Respondent: "ann", URL: "/home"})
	if err != nil || d.Survey != nil || d.Reason == nil || *d.Reason != "url" {
		t.Fatalf("off the page: %+v, %v", d, err)
	}
	p, err := c.CreatePrompt(ctx, created.ID, "ann", nil)
	if err != nil || p.Respondent != "ann" || p.SurveyID != created.ID {
		t.Fatalf("prompt: %+v, %v", p, err)
	}
	d, err = pc.NextSurvey(ctx, client.Ask{Respondent: "ann", URL: "/home"})
	if err != nil || d.Survey == nil || d.Survey.ID != created.ID || d.Survey.Title != def.Title || d.Reason != nil {
		t.Fatalf("prompted, off the page: %+v, %v", d, err)
	}
	if list, err := c.ListPrompts(ctx, created.ID); err != nil || len(list) != 1 || list[0].ID != p.ID {
		t.Errorf("prompts: %+v, %v", list, err)
	}
	if err := c.DeletePrompt(ctx, created.ID, p.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.DeletePrompt(ctx, created.ID, p.ID); !client.IsNotFound(err) {
		t.Errorf("deleting a prompt twice: %v", err)
	}
}
