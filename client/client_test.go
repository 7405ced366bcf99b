package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/internal/testclock"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// fault makes the next n requests matching method fail with status before they reach svc.
type fault struct {
	mu     sync.Mutex
	method string
	n      int
	status int
}

// env is the real handler over SQLite behind an httptest server, mounted under /feedback,
// with a request counter and fault injection in front of it.
type env struct {
	t        *testing.T
	store    *sqlite.Store
	srv      *httptest.Server
	base     string
	requests atomic.Int64
	fault    fault
	pk, sk   string
	survey   store.Survey
	ids      *cuid2.Generator
}

func setup(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, ids: cuid2.NewGenerator()}
	// A clock that moves a millisecond each time it is read, so responses written one after
	// the other never share a creation time, however fast the machine: lists and exports order
	// ties by id, and a test that writes two responses expects them in the order written.
	clock := testclock.New(time.Now().UTC().Truncate(time.Millisecond))
	tick := func() time.Time { clock.Advance(time.Millisecond); return clock.Now() }
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	e.store = st
	h, err := svc.NewHandler(st, &svc.Options{Logger: slog.New(slog.DiscardHandler), Now: tick, Webhooks: svc.WebhookOptions{Disabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/feedback/", http.StripPrefix("/feedback", h))
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.requests.Add(1)
		e.fault.mu.Lock()
		if e.fault.n > 0 && r.Method == e.fault.method {
			e.fault.n--
			status := e.fault.status
			e.fault.mu.Unlock()
			if status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "0")
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":"injected","code":"injected"}`)
			return
		}
		e.fault.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		e.srv.Close()
		_ = h.Close(context.Background())
		_ = st.Close()
	})
	e.base = e.srv.URL + "/feedback"
	ctx := t.Context()
	now := clock.Now()
	if err := st.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	e.pk, _, _ = store.CreateKey(ctx, st, "acme", store.Publishable, now)
	e.sk, _, _ = store.CreateKey(ctx, st, "acme", store.Secret, now)
	e.survey = store.Survey{ID: e.ids.New(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: now, UpdatedAt: now}
	if err := st.CreateSurvey(ctx, e.survey); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *env) inject(method string, n, status int) {
	e.fault.mu.Lock()
	defer e.fault.mu.Unlock()
	e.fault.method, e.fault.n, e.fault.status = method, n, status
}

var fastRetries = client.WithRetryPolicy(3, time.Millisecond, 10*time.Millisecond)

func (e *env) clients() (*client.Client, *client.PublicClient) {
	e.t.Helper()
	c, err := client.New(e.base, e.sk, fastRetries)
	if err != nil {
		e.t.Fatal(err)
	}
	pc, err := client.NewPublic(e.base, e.pk, fastRetries)
	if err != nil {
		e.t.Fatal(err)
	}
	return c, pc
}

func TestPublicClient(t *testing.T) {
	e := setup(t)
	_, pc := e.clients()
	ctx := t.Context()
	def, err := pc.GetSurvey(ctx, e.survey.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(e.survey.Definition, *def); diff != "" {
		t.Errorf("GetSurvey (-want +got):\n%s", diff)
	}
	h, err := pc.GetHistory(ctx, e.survey.ID, "ann/with slash")
	if err != nil || *h != (client.History{}) {
		t.Fatalf("GetHistory of a new respondent = %+v, %v", h, err)
	}
	rec, err := pc.RecordEvent(ctx, e.survey.ID, "ann/with slash", client.EventView)
	if err != nil || rec.Type != client.EventView || rec.RecordedAt.IsZero() {
		t.Fatalf("RecordEvent = %+v, %v", rec, err)
	}
	id := client.NewResponseID()
	in := &client.ResponseInput{Respondent: "ann/with slash", Data: survey.Answers{"nps": survey.Number(10), "missing": survey.Choices{"Docs"}},
		Metadata: map[string]string{"page": "/"}}
	put, err := pc.PutResponse(ctx, e.survey.ID, id, in)
	if err != nil || put.ID != id {
		t.Fatalf("PutResponse = %+v, %v", put, err)
	}
	again, err := pc.PutResponse(ctx, e.survey.ID, id, in)
	if err != nil || !again.CreatedAt.Equal(put.CreatedAt) {
		t.Errorf("second PutResponse = %+v, %v; want the same createdAt", again, err)
	}
	h, err = pc.GetHistory(ctx, e.survey.ID, "ann/with slash")
	if err != nil || h.LastViewedAt == nil || !h.LastViewedAt.Equal(rec.RecordedAt) || h.LastRespondedAt == nil {
		t.Errorf("GetHistory = %+v, %v", h, err)
	}
	stored, err := e.store.Response(ctx, e.survey.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	answers, _ := stored.Answers()
	if diff := cmp.Diff(in.Data, answers); diff != "" {
		t.Errorf("stored answers (-want +got):\n%s", diff)
	}
}

func TestProtectedClient(t *testing.T) {
	e := setup(t)
	c, pc := e.clients()
	ctx := t.Context()
	var want []client.Response
	for i := range 7 {
		id := client.NewResponseID()
		data := survey.Answers{"stars": survey.Number(i%5 + 1), "comments": survey.Text(fmt.Sprint("note ", i))}
		r, err := pc.PutResponse(ctx, e.survey.ID, id, &client.ResponseInput{Respondent: fmt.Sprint("r", i%2), Data: data, Metadata: map[string]string{"i": fmt.Sprint(i)}})
		if err != nil {
			t.Fatal(err)
		}
		want = append([]client.Response{{ID: id, Respondent: fmt.Sprint("r", i%2), Data: data,
			ClientMetadata: map[string]string{"i": fmt.Sprint(i)}, CreatedAt: r.CreatedAt, UpdatedAt: r.CreatedAt}}, want...)
		time.Sleep(2 * time.Millisecond) // distinct creation times, so the order is known
	}

	// Page by page, and through the iterator.
	p, err := c.ListResponses(ctx, e.survey.ID, &client.ResponseListOptions{ListOptions: client.ListOptions{Limit: 3}})
	if err != nil || len(p.Data) != 3 || p.NextCursor == "" || p.Limit != 3 || p.Links.Next == nil {
		t.Fatalf("first page = %+v, %v", p, err)
	}
	var got []client.Response
	before := e.requests.Load()
	for r, err := range c.Responses(ctx, e.survey.ID, &client.ResponseListOptions{ListOptions: client.ListOptions{Limit: 3}}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Responses (-want +got):\n%s", diff)
	}
	if n := e.requests.Load() - before; n != 3 {
		t.Errorf("walking 7 responses 3 at a time took %d requests, want 3", n)
	}
	// One iterator ranged again starts from the first page with the caller's options, and
	// ranging it from several goroutines at once gives each the whole list.
	opts := &client.ResponseListOptions{ListOptions: client.ListOptions{Limit: 3}}
	seq := c.Responses(ctx, e.survey.ID, opts)
	opts.Limit, opts.Respondent = 1, "nobody" // a change after the call must not reach the iterator
	collect := func() ([]client.Response, error) {
		var rs []client.Response
		for r, err := range seq {
			if err != nil {
				return nil, err
			}
			rs = append(rs, r)
		}
		return rs, nil
	}
	var wg sync.WaitGroup
	ranges := make([][]client.Response, 4)
	errs := make([]error, len(ranges))
	for i := range ranges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ranges[i], errs[i] = collect()
		}()
	}
	wg.Wait()
	again, err := collect()
	ranges = append(ranges, again)
	errs = append(errs, err)
	for i := range ranges {
		if errs[i] != nil {
			t.Fatalf("range %d: %v", i, errs[i])
		}
		if diff := cmp.Diff(want, ranges[i]); diff != "" {
			t.Errorf("range %d of one iterator (-want +got):\n%s", i, diff)
		}
	}

	// Stopping early fetches no further page.
	before = e.requests.Load()
	count := 0
	for _, err := range c.Responses(ctx, e.survey.ID, &client.ResponseListOptions{ListOptions: client.ListOptions{Limit: 3}}) {
		if err != nil {
			t.Fatal(err)
		}
		count++
		if count == 2 {
			break
		}
	}
	if n := e.requests.Load() - before; n != 1 {
		t.Errorf("breaking after 2 items made %d requests, want 1", n)
	}
	// Filters.
	var r1 []string
	for r, err := range c.Responses(ctx, e.survey.ID, &client.ResponseListOptions{Respondent: "r1", After: want[5].CreatedAt, Before: want[1].CreatedAt}) {
		if err != nil {
			t.Fatal(err)
		}
		r1 = append(r1, r.ID)
	}
	if diff := cmp.Diff([]string{want[1].ID, want[3].ID, want[5].ID}, r1); diff != "" {
		t.Errorf("filtered responses (-want +got):\n%s", diff)
	}

	surveys, err := c.ListSurveys(ctx, nil)
	if err != nil || len(surveys.Data) != 1 || surveys.Data[0].ID != e.survey.ID || surveys.NextCursor != "" {
		t.Fatalf("ListSurveys = %+v, %v", surveys, err)
	}
	n := 0
	for s, err := range c.Surveys(ctx, nil) {
		if err != nil || s.Title != "How are we doing?" {
			t.Fatalf("Surveys item %+v, %v", s, err)
		}
		n++
	}
	if n != 1 {
		t.Errorf("Surveys yielded %d", n)
	}
	full, err := c.GetSurvey(ctx, e.survey.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(e.survey.Definition, full.Definition); diff != "" || full.Status != "active" || !full.CreatedAt.Equal(e.survey.CreatedAt) {
		t.Errorf("GetSurvey: status %s created %v; definition (-want +got):\n%s", full.Status, full.CreatedAt, diff)
	}

	st, err := c.GetStats(ctx, e.survey.ID, nil)
	if err != nil || *st != (client.Stats{TotalResponses: 7, UniqueResponders: 2}) {
		t.Errorf("GetStats = %+v, %v", st, err)
	}
	sd, err := c.GetScoreDistributions(ctx, e.survey.ID, &client.ScoreOptions{QuestionIDs: []string{"stars"}, TimeRange: client.Last7Days})
	if err != nil {
		t.Fatal(err)
	}
	q := sd.Current.Questions[0]
	if sd.TimeRange != "last-7-days" || sd.Previous == nil || q.QuestionID != "stars" || q.Total != 7 ||
		!cmp.Equal(q.Counts, map[int]int64{1: 2, 2: 2, 3: 1, 4: 1, 5: 1}) || q.Average == nil || *q.Average != 18.0/7 {
		t.Errorf("GetScoreDistributions = %+v", sd)
	}
	for _, tr := range []client.TimeRange{client.Quarter(1, 2026), client.CustomRange(time.Now().AddDate(0, 0, -1), time.Now()), client.AllTime, client.Last30Days} {
		if _, err := c.GetScoreDistributions(ctx, e.survey.ID, &client.ScoreOptions{TimeRange: tr}); err != nil {
			t.Errorf("time range %s: %v", tr, err)
		}
	}
}

func TestDeliveriesThroughClient(t *testing.T) {
	e := setup(t)
	c, pc := e.clients()
	ctx := t.Context()
	sv := e.survey
	sv.WebhookURL, sv.UpdatedAt = "https://hooks.example.com/in", time.Now()
	if err := e.store.UpdateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	id := client.NewResponseID()
	if _, err := pc.PutResponse(ctx, sv.ID, id, &client.ResponseInput{Respondent: "ann"}); err != nil {
		t.Fatal(err)
	}
	var ds []client.WebhookDelivery
	for d, err := range c.WebhookDeliveries(ctx, sv.ID, nil) {
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	if len(ds) != 1 || ds[0].ResponseID != id || ds[0].State != "pending" || ds[0].NextAttemptAt == nil {
		t.Fatalf("deliveries = %+v", ds)
	}
	d, err := c.Redeliver(ctx, sv.ID, ds[0].ID)
	if err != nil || d.ID != ds[0].ID || d.State != "pending" {
		t.Errorf("Redeliver = %+v, %v", d, err)
	}
	_, err = c.Redeliver(ctx, sv.ID, "dlv_unknown")
	if !client.IsNotFound(err) {
		t.Errorf("Redeliver unknown: %v", err)
	}
}

func TestTypedErrors(t *testing.T) {
	e := setup(t)
	c, pc := e.clients()
	ctx := t.Context()
	_, err := c.GetSurvey(ctx, e.ids.New())
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Code != "not_found" || apiErr.Message == "" || !client.IsNotFound(err) {
		t.Errorf("unknown survey: %#v", err)
	}
	bad, _ := client.New(e.base, "svc_sk_"+store.NewKeyPlaintext(store.Secret)[7:], fastRetries)
	if _, err := bad.ListSurveys(ctx, nil); !client.IsUnauthorized(err) {
		t.Errorf("unknown key: %v", err)
	}
	if _, err := c.ListSurveys(ctx, &client.ListOptions{Limit: 101}); !client.IsInvalid(err) {
		t.Errorf("limit 101: %v", err)
	}
	id := client.NewResponseID()
	if _, err := pc.PutResponse(ctx, e.survey.ID, id, &client.ResponseInput{Respondent: "ann"}); err != nil {
		t.Fatal(err)
	}
	if _, err := pc.PutResponse(ctx, e.survey.ID, id, &client.ResponseInput{Respondent: "bob"}); !client.IsConflict(err) {
		t.Errorf("foreign response id: %v", err)
	}
	if _, err := client.New(e.base, e.pk); err == nil {
		t.Error("New accepted a publishable key")
	}
	if _, err := client.NewPublic(e.base, e.sk); err == nil {
		t.Error("NewPublic accepted a secret key")
	}
	if _, err := client.New("ftp://x", e.sk); err == nil {
		t.Error("New accepted an ftp base URL")
	}
	// The mount prefix given apart from the base URL.
	withPath, err := client.New(e.srv.URL, e.sk, client.WithBasePath("/feedback/"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := withPath.GetSurvey(ctx, e.survey.ID); err != nil {
		t.Errorf("WithBasePath: %v", err)
	}
	if _, err := client.New(e.srv.URL, e.sk, client.WithBasePath("feedback")); err == nil {
		t.Error("WithBasePath accepted a relative path")
	}
}

func TestRetries(t *testing.T) {
	e := setup(t)
	c, pc := e.clients()
	ctx := t.Context()
	for _, status := range []int{503, 429, 500} {
		e.inject("GET", 2, status)
		before := e.requests.Load()
		if _, err := c.GetStats(ctx, e.survey.ID, nil); err != nil {
			t.Errorf("GET after two %d: %v", status, err)
		}
		if n := e.requests.Load() - before; n != 3 {
			t.Errorf("GET after two %d: %d requests, want 3", status, n)
		}
	}
	e.inject("PUT", 1, 503)
	before := e.requests.Load()
	if _, err := pc.PutResponse(ctx, e.survey.ID, client.NewResponseID(), &client.ResponseInput{Respondent: "ann"}); err != nil || e.requests.Load()-before != 2 {
		t.Errorf("PUT after a 503: %v, %d requests; want success after 2", err, e.requests.Load()-before)
	}
	e.inject("GET", 1, 400)
	before = e.requests.Load()
	if _, err := c.GetStats(ctx, e.survey.ID, nil); !client.IsInvalid(err) || e.requests.Load()-before != 1 {
		t.Errorf("GET with a 400: %v after %d requests; want the error after 1", err, e.requests.Load()-before)
	}
	e.inject("POST", 1, 503)
	before = e.requests.Load()
	_, err := pc.RecordEvent(ctx, e.survey.ID, "ann", client.EventView)
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || e.requests.Load()-before != 1 {
		t.Errorf("POST event with a 503: %v after %d requests; want the 503 after 1, no retry", err, e.requests.Load()-before)
	}
	e.inject("GET", 10, 503)
	if _, err := c.GetStats(ctx, e.survey.ID, nil); statusOf(err) != 503 {
		t.Errorf("GET that keeps failing: %v, want the final 503", err)
	}
	e.inject("GET", 1, 429)
	if _, err := c.GetStats(ctx, e.survey.ID, nil); err != nil {
		t.Errorf("after a 429 with Retry-After: %v", err)
	}
	// Without retries, a 429 reaches the caller with its Retry-After.
	noRetry, err := client.New(e.base, e.sk, client.WithRetryPolicy(0, 0, 0), client.WithHTTPClient(&http.Client{Timeout: 5 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	e.inject("GET", 1, 429)
	_, err = noRetry.GetStats(ctx, e.survey.ID, nil)
	if !client.IsRateLimited(err) || !errors.As(err, &apiErr) || apiErr.RetryAfter != 0 {
		t.Errorf("429 without retries: %v (RetryAfter %v), want IsRateLimited with the server's Retry-After of 0", err, apiErr.RetryAfter)
	}
	if _, err := client.New(e.base, e.sk, client.WithHTTPClient(nil)); err == nil {
		t.Error("WithHTTPClient(nil) was accepted")
	}

}

func statusOf(err error) int {
	var e *client.Error
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}

// A newer server may send a question type or an answer shape this client does not know: the
// client keeps them as JSON instead of failing the survey or the page.
func TestNewerServerShapes(t *testing.T) {
	const surveyJSON = `{"id":"csurvey00000000000000001","status":"active","title":"T","description":null,
	  "questions":[{"id":"q1","title":"Slide","description":null,"position":0,"required":false,
	    "properties":{"type":"slider","min":0,"max":100,"buttonLabel":"Next"},
	    "routingLogic":{"type":"always","target":{"type":"next"}}}],
	  "confirmation":{"title":"","description":"","buttonText":""},"isBackNavigationAllowed":false,
	  "backButtonLabel":"Back","createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`
	const pageJSON = `{"data":[{"id":"r1","respondent":"u","data":{"q1":{"value":42,"unit":"px"},"q2":"text"},
	  "clientMetadata":{},"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}],
	  "nextCursor":null,"limit":50,"links":{"self":"/x","next":null}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/responses") {
			io.WriteString(w, pageJSON)
			return
		}
		io.WriteString(w, surveyJSON)
	}))
	defer srv.Close()
	c, err := client.New(srv.URL, "svc_sk_"+strings.Repeat("a", 36))
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.GetSurvey(t.Context(), "csurvey00000000000000001")
	if err != nil {
		t.Fatalf("GetSurvey with a question of an unknown type: %v", err)
	}
	p, ok := s.Questions[0].Properties.(survey.UnknownProperties)
	if !ok || p.TypeName != "slider" || !strings.Contains(string(p.Raw), `"max":100`) {
		t.Errorf("question properties = %#v, want UnknownProperties keeping the JSON", s.Questions[0].Properties)
	}
	page, err := c.ListResponses(t.Context(), "csurvey00000000000000001", nil)
	if err != nil {
		t.Fatalf("ListResponses with an answer of an unknown shape: %v", err)
	}
	want := survey.Answers{"q1": survey.UnknownAnswer(`{"value":42,"unit":"px"}`), "q2": survey.Text("text")}
	if diff := cmp.Diff(want, page.Data[0].Data); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}
