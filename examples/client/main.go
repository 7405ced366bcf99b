// Command client calls the protected API from a backend: it lists the team's surveys, walks
// every response of one survey with the iterator, prints its stats and last-30-days score
// distribution, exports its responses as CSV, and creates a new survey and activates it (so each
// run adds one survey). It reads the variables the example server prints on first start:
//
//	export SVC_URL=... SVC_SK=... SVC_SURVEY=...
//	go run ./examples/client
package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/survey"
)

func main() {
	base, key, surveyID := os.Getenv("SVC_URL"), os.Getenv("SVC_SK"), os.Getenv("SVC_SURVEY")
	if base == "" || key == "" || surveyID == "" {
		fmt.Fprintln(os.Stderr, "client: set SVC_URL, SVC_SK and SVC_SURVEY (the example server prints them on first start)")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, base, key, surveyID); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer, base, key, surveyID string) error {
	c, err := client.New(base, key, client.WithUserAgent("svc-example-client/1"))
	if err != nil {
		return err
	}

	fmt.Fprintln(out, "surveys:")
	for s, err := range c.Surveys(ctx, nil) {
		if err != nil {
			return describe(err)
		}
		fmt.Fprintf(out, "  %s  %-8s  %s\n", s.ID, s.Status, s.Title)
	}

	fmt.Fprintf(out, "responses to %s:\n", surveyID)
	n := 0
	for r, err := range c.Responses(ctx, surveyID, &client.ResponseListOptions{ListOptions: client.ListOptions{Limit: 100}}) {
		if err != nil {
			return describe(err)
		}
		n++
		fmt.Fprintf(out, "  %s  %s  %s", r.CreatedAt.Format(time.RFC3339), r.ID, r.Respondent)
		if nps, ok := r.Data["nps"].(survey.Number); ok {
			fmt.Fprintf(out, "  nps=%v", float64(nps))
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "  (%d responses)\n", n)

	st, err := c.GetStats(ctx, surveyID, nil)
	if err != nil {
		return describe(err)
	}
	fmt.Fprintf(out, "stats: %d views by %d people, %d dismissals, %d responses from %d people\n",
		st.TotalViews, st.UniqueViewers, st.TotalDismissals, st.TotalResponses, st.UniqueResponders)

	sd, err := c.GetScoreDistributions(ctx, surveyID, &client.ScoreOptions{TimeRange: client.Last30Days})
	if err != nil {
		return describe(err)
	}
	for _, q := range sd.Current.Questions {
		avg := "n/a"
		if q.Average != nil {
			avg = fmt.Sprintf("%.2f", *q.Average)
		}
		fmt.Fprintf(out, "score %s (last 30 days): %d answers, average %s, counts %v\n", q.QuestionID, q.Total, avg, q.Counts)
	}
	if err := export(ctx, out, c, surveyID); err != nil {
		return describe(err)
	}
	return createAndActivate(ctx, out, c)
}

// export streams the survey's responses as CSV, oldest first, and prints its header and size.
func export(ctx context.Context, out io.Writer, c *client.Client, surveyID string) error {
	body, err := c.ExportResponses(ctx, surveyID, &client.ExportOptions{Format: client.ExportCSV})
	if err != nil {
		return err
	}
	defer body.Close()
	rows := csv.NewReader(body)
	header, err := rows.Read()
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	n := 0
	for ; ; n++ {
		if _, err := rows.Read(); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	fmt.Fprintf(out, "export: %d rows of %s\n", n, strings.Join(header, ","))
	return nil
}

// createAndActivate creates a one-question survey, inactive as every new survey is, then
// activates it with If-Match, so that a change made meanwhile by someone else is not overwritten.
func createAndActivate(ctx context.Context, out io.Writer, c *client.Client) error {
	def := survey.Definition{
		Title: "Quick poll",
		Questions: []survey.Question{{ID: "useful", Title: "Was this page useful?", Required: true,
			Properties:   survey.SingleSelectProperties{ButtonLabel: "Send", Options: []survey.Option{{Value: "Yes"}, {Value: "No"}}},
			RoutingLogic: survey.Routing{Type: survey.RoutingAlways, Target: survey.Target{Type: survey.TargetNext}}}},
		Confirmation:    survey.Confirmation{Title: "Thanks!", ButtonText: "Close"},
		BackButtonLabel: "Back",
	}
	created, err := c.CreateSurvey(ctx, &client.SurveyInput{Definition: def})
	if err != nil {
		return err
	}
	active := "active"
	sv, err := c.UpdateSurvey(ctx, created.ID, client.SurveyPatch{Status: &active}, &client.UpdateOptions{IfMatch: created.ETag})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "created survey %s (%s), now %s\n", sv.ID, sv.Title, sv.Status)
	return nil
}

// describe turns API errors into advice.
func describe(err error) error {
	var apiErr *client.Error
	switch {
	case client.IsUnauthorized(err):
		return fmt.Errorf("the secret key was refused (is SVC_SK right, and not revoked?): %w", err)
	case client.IsNotFound(err):
		return fmt.Errorf("no such survey for this key's team (check SVC_SURVEY): %w", err)
	case client.IsRateLimited(err) && errors.As(err, &apiErr):
		return fmt.Errorf("rate limited; retry in %v: %w", apiErr.RetryAfter, err)
	}
	return err
}
