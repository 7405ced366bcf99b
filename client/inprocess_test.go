package client_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// inProcess is an app that embeds svc and reaches it with the client in its own process: no
// port, no network.
func inProcess(t *testing.T, opts *svc.Options) (*client.Client, *client.PublicClient, http.Handler) {
	t.Helper()
	ctx := t.Context()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	keys, err := svc.Bootstrap(ctx, st, "myapp", "My App")
	if err != nil {
		t.Fatal(err)
	}
	if opts == nil {
		opts = &svc.Options{}
	}
	opts.Logger, opts.Webhooks.Disabled = slog.New(slog.DiscardHandler), true
	h, err := svc.NewHandler(st, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(ctx) })
	mux := http.NewServeMux()
	mux.Handle("/feedback/", http.StripPrefix("/feedback", h))
	c, err := client.New("http://myapp/feedback", keys.Secret, client.WithHandler(mux))
	if err != nil {
		t.Fatal(err)
	}
	pc, err := client.NewPublic("http://myapp/feedback", keys.Publishable, client.WithHandler(mux))
	if err != nil {
		t.Fatal(err)
	}
	return c, pc, mux
}

// TestCreateSurveyFromGoWithDefaults: a survey created from Go names only what its writer
// cares about; what it leaves at Go's zero values gets the server's defaults, as the same
// survey written as JSON would.
func TestCreateSurveyFromGoWithDefaults(t *testing.T) {
	c, _, _ := inProcess(t, nil)
	created, err := c.CreateSurvey(t.Context(), &client.SurveyInput{Status: "active", Definition: survey.Definition{
		Title: "Checkout",
		Questions: []survey.Question{
			{ID: "ease", Title: "How easy was it?", Required: true, Properties: survey.RatingProperties{Scale: 5}},
			{ID: "channel", Title: "How did you find us?", Properties: survey.SingleSelectProperties{Options: []survey.Option{{Value: "Search"}, {Value: "A friend"}}}},
			{ID: "why", Title: "Anything else?", Properties: survey.OpenEndedProperties{}},
		},
	}})
	if err != nil {
		t.Fatalf("CreateSurvey with only what matters: %v", err)
	}
	for i, q := range created.Questions {
		if q.Position != i || q.RoutingLogic.Type != survey.RoutingAlways || q.RoutingLogic.Target.Type != survey.TargetNext {
			t.Errorf("question %s: position %d, routing %+v", q.ID, q.Position, q.RoutingLogic)
		}
	}
	if p := created.Questions[0].Properties.(survey.RatingProperties); p.ButtonLabel != survey.DefaultButtonLabel || p.Scale != 5 || !created.Questions[0].Required {
		t.Errorf("the rating: %+v", p)
	}
	if p := created.Questions[2].Properties.(survey.OpenEndedProperties); p.Max != survey.DefaultOpenEndedMax {
		t.Errorf("the open question's max: %d", p.Max)
	}
	if created.Confirmation != survey.DefaultConfirmation || created.BackButtonLabel != survey.DefaultBackButtonLabel {
		t.Errorf("confirmation %+v, back %q", created.Confirmation, created.BackButtonLabel)
	}
	// Positions the writer gave are kept; a question's own routing too.
	jump := survey.Routing{Type: survey.RoutingAlways, Target: survey.Target{Type: survey.TargetJump, Position: 20}}
	placed, err := c.CreateSurvey(t.Context(), &client.SurveyInput{Definition: survey.Definition{Title: "Placed", Questions: []survey.Question{
		{ID: "a", Title: "A", Position: 10, RoutingLogic: jump, Properties: survey.OpenEndedProperties{Max: 50}},
		{ID: "b", Title: "B", Position: 15, Properties: survey.OpenEndedProperties{}},
		{ID: "c", Title: "C", Position: 20, Properties: survey.StatementProperties{ButtonLabel: "Done"}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if q := placed.Questions; q[0].Position != 10 || q[2].Position != 20 || q[0].RoutingLogic.Target != jump.Target || q[0].Properties.(survey.OpenEndedProperties).Max != 50 {
		t.Errorf("what was set was not kept: %+v", q)
	}
	// A patch of questions leaves out the same.
	patched, err := c.UpdateSurvey(t.Context(), placed.ID, client.SurveyPatch{Questions: []survey.Question{
		{ID: "only", Title: "Only", Properties: survey.RatingProperties{Scale: 3}}}}, nil)
	if err != nil || len(patched.Questions) != 1 || patched.Questions[0].RoutingLogic.Type != survey.RoutingAlways {
		t.Errorf("UpdateSurvey with questions from Go: %+v, %v", patched, err)
	}
}

// TestWithHandlerInProcess: the client reaches a handler in its own process: replies, errors,
// and an export streamed; the app reads its own results with no port.
func TestWithHandlerInProcess(t *testing.T) {
	c, pc, _ := inProcess(t, nil)
	ctx := t.Context()
	sv, err := c.CreateSurvey(ctx, &client.SurveyInput{Status: "active", Definition: survey.Definition{
		Title: "One", Questions: []survey.Question{{ID: "q", Title: "Q", Properties: survey.OpenEndedProperties{}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"first", "second"} {
		id := client.NewResponseID()
		if _, err := pc.PutResponse(ctx, sv.ID, id, &client.ResponseInput{Respondent: "r" + string(rune('a'+i)), Data: survey.Answers{"q": survey.Text(text)}}); err != nil {
			t.Fatal(err)
		}
	}
	page, err := c.ListResponses(ctx, sv.ID, nil)
	if err != nil || len(page.Data) != 2 {
		t.Fatalf("ListResponses in process: %+v, %v", page, err)
	}
	r, err := c.ExportResponses(ctx, sv.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	r.Close()
	if err != nil || !strings.Contains(string(b), "first") || !strings.Contains(string(b), "second") {
		t.Errorf("the export in process: %v\n%s", err, b)
	}
	if _, err := c.GetSurvey(ctx, "cnosuchsurvey00000000001"); !client.IsNotFound(err) {
		t.Errorf("a missing survey in process: %v, want not found", err)
	}
	if _, err := client.New("http://x", "svc_sk_x", client.WithHandler(nil)); err == nil {
		t.Error("WithHandler(nil): no error")
	}
}

// appTeam is the context key under which the app's own code names the team it acts for.
type appTeam struct{}

// TestAuthorizedClient: an app's own login in front of the protected API. A client with no key
// of svc's is let in by the handler's Authorize, from a header (the app's session, as over a
// network) or, in process, from the call's context; without either it gets the 401 that
// Authorize's refusal or a missing key gives.
func TestAuthorizedClient(t *testing.T) {
	authorize := func(r *http.Request) (string, error) {
		if team, ok := r.Context().Value(appTeam{}).(string); ok {
			return team, nil // the app's own code, in its own process
		}
		switch r.Header.Get("X-App-Session") {
		case "":
			return "", nil // leave it to a key
		case "admin-of-myapp":
			return "myapp", nil
		}
		return "", errors.New("sign in to the app again")
	}
	keyed, _, h := inProcess(t, &svc.Options{Authorize: authorize})
	ctx := t.Context()
	if _, err := keyed.CreateSurvey(ctx, &client.SurveyInput{Definition: survey.Definition{Title: "Mine",
		Questions: []survey.Question{{ID: "q", Title: "Q", Properties: survey.OpenEndedProperties{}}}}}); err != nil {
		t.Fatalf("with the secret key: %v", err)
	}
	bySession, err := client.NewAuthorized("http://myapp/feedback", client.WithHandler(h), client.WithHeader("X-App-Session", "admin-of-myapp"))
	if err != nil {
		t.Fatal(err)
	}
	if page, err := bySession.ListSurveys(ctx, nil); err != nil || len(page.Data) != 1 || page.Data[0].Title != "Mine" {
		t.Errorf("by the app's session: %+v, %v", page, err)
	}
	bare, err := client.NewAuthorized("http://myapp/feedback", client.WithHandler(h))
	if err != nil {
		t.Fatal(err)
	}
	if page, err := bare.ListSurveys(context.WithValue(ctx, appTeam{}, "myapp"), nil); err != nil || len(page.Data) != 1 {
		t.Errorf("by the app's context, in process: %+v, %v", page, err)
	}
	if _, err := bare.ListSurveys(ctx, nil); !client.IsUnauthorized(err) {
		t.Errorf("with neither: %v, want unauthorized", err)
	}
	stale, _ := client.NewAuthorized("http://myapp/feedback", client.WithHandler(h), client.WithHeader("X-App-Session", "expired"))
	if _, err := stale.ListSurveys(ctx, nil); !client.IsUnauthorized(err) || !strings.Contains(err.Error(), "sign in to the app again") {
		t.Errorf("a session Authorize refuses: %v", err)
	}
	if _, err := client.NewAuthorized("http://x", client.WithHeader("Bad Name", "v")); err == nil {
		t.Error("a header name with a space: no error")
	}
}

// TestWithHandlerSurvivesAPanic: a handler that panics fails the call with an error, as a
// server's dropped connection would, and the client goes on.
func TestWithHandlerSurvivesAPanic(t *testing.T) {
	boom := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic("boom") })
	c, err := client.New("http://x", "svc_sk_x", client.WithHandler(boom), client.WithRetryPolicy(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetSurvey(t.Context(), "cnosuchsurvey00000000001"); err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("a panicking handler: %v", err)
	}
}
