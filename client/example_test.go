package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// exampleServer runs svc over a temporary SQLite file with one team, keys and the demo survey,
// and three responses.
func exampleServer() (baseURL, secretKey, publishableKey, surveyID string, stop func()) {
	dir, err := os.MkdirTemp("", "svc-example")
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "svc.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	_ = st.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme", CreatedAt: now})
	pk, _, _ := store.CreateKey(ctx, st, "acme", store.Publishable, now)
	sk, _, _ := store.CreateKey(ctx, st, "acme", store.Secret, now)
	sv := store.Survey{ID: "cexamplesurvey0001", TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: now, UpdatedAt: now}
	_ = st.CreateSurvey(ctx, sv)
	for i, who := range []string{"ann", "bob", "cat"} {
		_, _, _ = st.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprintf("resp%d", i), Respondent: who,
			Data: survey.Answers{"nps": survey.Number(8 + i)}, At: now.Add(time.Duration(i) * time.Minute)})
	}
	h, err := svc.NewHandler(st, &svc.Options{Logger: slog.New(slog.DiscardHandler), Webhooks: svc.WebhookOptions{Disabled: true}})
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(h)
	return srv.URL, sk, pk, sv.ID, func() {
		srv.Close()
		_ = h.Close(ctx)
		_ = st.Close()
		_ = os.RemoveAll(dir)
	}
}

// Create a client for the protected API from your backend.
func ExampleNew() {
	baseURL, secretKey, _, _, stop := exampleServer()
	defer stop()

	c, err := client.New(baseURL, secretKey,
		client.WithUserAgent("my-backend/1.0"),
		client.WithRetryPolicy(3, 500*time.Millisecond, 10*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	page, err := c.ListSurveys(context.Background(), &client.ListOptions{Limit: 10})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range page.Data {
		fmt.Println(s.ID, s.Status, s.Title)
	}
	// Output:
	// cexamplesurvey0001 active How are we doing?
}

// Walk every response of a survey; pages are fetched as the loop needs them.
func ExampleClient_Responses() {
	baseURL, secretKey, _, surveyID, stop := exampleServer()
	defer stop()
	c, err := client.New(baseURL, secretKey)
	if err != nil {
		log.Fatal(err)
	}

	for r, err := range c.Responses(context.Background(), surveyID, &client.ResponseListOptions{ListOptions: client.ListOptions{Limit: 2}}) {
		if err != nil {
			log.Fatal(err)
		}
		if nps, ok := r.Data["nps"].(survey.Number); ok {
			fmt.Printf("%s scored %v\n", r.Respondent, float64(nps))
		}
	}
	// Output:
	// cat scored 10
	// bob scored 9
	// ann scored 8
}

// Handle API errors with errors.As or the Is* helpers.
func ExampleError() {
	baseURL, secretKey, _, _, stop := exampleServer()
	defer stop()
	c, err := client.New(baseURL, secretKey)
	if err != nil {
		log.Fatal(err)
	}

	_, err = c.GetSurvey(context.Background(), "cnosuchsurvey")
	switch {
	case client.IsNotFound(err):
		fmt.Println("no such survey")
	case client.IsRateLimited(err):
		fmt.Println("slow down")
	case err != nil:
		log.Fatal(err)
	}

	_, err = c.ListSurveys(context.Background(), &client.ListOptions{Limit: 500})
	var apiErr *client.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code)
	}
	// Output:
	// no such survey
	// 400 invalid_request
}

// Create a survey (inactive, as every new survey), then activate it with If-Match, so that a
// change someone made in between is not overwritten.
func ExampleClient_CreateSurvey() {
	baseURL, secretKey, _, _, stop := exampleServer()
	defer stop()
	c, err := client.New(baseURL, secretKey)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	def := survey.Sample()
	def.Title = "Onboarding feedback"
	created, err := c.CreateSurvey(ctx, &client.SurveyInput{ID: "conboarding0001", Definition: def, WebhookWaitSeconds: 600})
	if err != nil {
		log.Fatal(err)
	}
	active := "active"
	sv, err := c.UpdateSurvey(ctx, created.ID, client.SurveyPatch{Status: &active}, &client.UpdateOptions{IfMatch: created.ETag})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sv.ID, sv.Title, created.Status, "->", sv.Status, sv.WebhookWaitSeconds)
	// Output: conboarding0001 Onboarding feedback inactive -> active 600
}

// Export every response as CSV, oldest first: the reply streams, so copying it to a file takes
// no more memory for a million responses than for three.
func ExampleClient_ExportResponses() {
	baseURL, secretKey, _, surveyID, stop := exampleServer()
	defer stop()
	c, err := client.New(baseURL, secretKey)
	if err != nil {
		log.Fatal(err)
	}
	body, err := c.ExportResponses(context.Background(), surveyID, &client.ExportOptions{Format: client.ExportCSV})
	if err != nil {
		log.Fatal(err)
	}
	defer body.Close()
	if _, err := io.Copy(os.Stdout, body); err != nil {
		log.Fatal(err)
	}
	// Output:
	// id,respondent,createdAt,updatedAt,finished,nps,stars,favourite,missing,comments,thanks,bug,metadata
	// resp0,ann,2026-11-21T10:00:00.000Z,2026-11-21T10:00:00.000Z,false,8,,,,,,,{}
	// resp1,bob,2026-11-21T10:01:00.000Z,2026-11-21T10:01:00.000Z,false,9,,,,,,,{}
	// resp2,cat,2026-11-21T10:02:00.000Z,2026-11-21T10:02:00.000Z,false,10,,,,,,,{}
}

// Erase a person who asked to be forgotten, from every survey of the team.
func ExampleClient_EraseRespondent() {
	baseURL, secretKey, _, _, stop := exampleServer()
	defer stop()
	c, err := client.New(baseURL, secretKey)
	if err != nil {
		log.Fatal(err)
	}
	erased, err := c.EraseRespondent(context.Background(), "bob")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("erased %d responses and %d events\n", erased.Responses, erased.Events)
	// Output: erased 1 responses and 0 events
}

// SignLink makes a person's link to a survey's link page, for an e-mail, with a one-click score
// appended. The signature is the one docs/languages-and-links.md makes with openssl.
func ExampleSignLink() {
	expires := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	link := client.SignLink("svc_ls_example-secret", "https://app.example.com/feedback", "clinksurvey0000000000001", "ann@example.com", expires)
	fmt.Println(link + "&a.nps=9")
	// Output: https://app.example.com/feedback/s/clinksurvey0000000000001?exp=1796115600&r=ann%40example.com&sig=b5729fc365734deb1ef1df2dbac5ec42601b72756a1c11d13765a4b843cb0652&a.nps=9
}
