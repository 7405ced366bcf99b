package metrics_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/metrics"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// The metrics count requests by route pattern and status, with latencies; webhook attempts by
// outcome and number; the store's commits; the outbox's backlog; and the store's pool and
// writer queue, in the Prometheus text format, from a registry of their own.
func TestMetrics(t *testing.T) {
	m := metrics.New()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), &sqlite.Options{OnCommit: m.ObserveCommit, ReadConns: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer rv.Close()
	ctx := t.Context()
	if err := st.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		t.Fatal(err)
	}
	pk, _, err := store.CreateKey(ctx, st, "acme", store.Publishable, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(), WebhookURL: rv.URL}
	if err := st.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	done := make(chan store.DeliveryResult, 1)
	h, err := svc.NewHandler(st, &svc.Options{Logger: slog.New(slog.DiscardHandler), Observer: m,
		Webhooks: svc.WebhookOptions{AllowPrivate: true, PollInterval: 10 * time.Millisecond, Observe: func(r store.DeliveryResult) { done <- r }}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	do := func(method, path, body string) int {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("x-svc-pk", pk)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec.Code
	}
	do("GET", "/v1/svc/"+sv.ID, "")
	do("GET", "/v1/svc/"+sv.ID, "")
	do("PUT", "/v1/svc/"+sv.ID+"/response/"+store.NewSurveyID(), `{"respondent":"ann","data":{},"metadata":{}}`)
	do("GET", "/nowhere", "")
	if res := <-done; res.State != store.DeliverySucceeded {
		t.Fatalf("delivery: %+v", res)
	}

	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	got := string(body)
	for _, want := range []string{
		`svc_http_requests_total{code="200",route="GET /v1/svc/{surveyId}"} 2`,
		`svc_http_requests_total{code="200",route="PUT /v1/svc/{surveyId}/response/{responseId}"} 1`,
		`svc_http_requests_total{code="404",route="(no route)"} 1`,
		`svc_http_request_duration_seconds_count{route="GET /v1/svc/{surveyId}"} 2`,
		`svc_webhook_attempts_total{attempt="1",outcome="succeeded"} 1`,
		`svc_webhook_outbox_backlog 0`,
		`svc_store_commit_writes_count`,
		`svc_store_commit_duration_seconds_bucket`,
		`svc_store_connections_max 3`,
		`svc_store_connections{state="in_use"} `, // 0, or 1 while the sender claims its next deliveries
		`svc_store_connection_waits_total 0`,
		`svc_store_queued_writes `, // 0, or 1 while the sender claims its next deliveries
		`go_goroutines`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	// The sender may hold one connection as it claims its next deliveries; never more.
	if !regexp.MustCompile(`svc_store_connections\{state="in_use"\} [01]\n`).MatchString(got) {
		t.Errorf("connections in use: want 0, or 1 while the sender claims")
	}
	if t.Failed() {
		t.Logf("metrics:\n%s", got)
	}
}
