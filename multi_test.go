package svc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/survey"
)

// cluster is three instances of svc, each with a pool of its own, on one PostgreSQL schema, as
// three replicas of an app behind a load balancer.
type cluster struct {
	t         *testing.T
	instances []*svc.Handler
	stores    []*postgres.Store
	survey    store.Survey
	pk, sk    string
	outcomes  chan store.DeliveryResult
}

// clusterConfig sets up a cluster: before runs on the store before any instance sends
// anything, and options changes instance i's options.
type clusterConfig struct {
	before  func(st *postgres.Store, sv store.Survey)
	options func(i int, o *svc.Options)
}

// newCluster starts the three instances.
func newCluster(t *testing.T, webhookURL string, before ...func(st *postgres.Store, sv store.Survey)) *cluster {
	t.Helper()
	var cfg clusterConfig
	if len(before) > 0 {
		cfg.before = before[0]
	}
	return newClusterWith(t, webhookURL, cfg)
}

func newClusterWith(t *testing.T, webhookURL string, cfg clusterConfig) *cluster {
	t.Helper()
	url := pgtest.URL(t)
	ctx := context.Background()
	c := &cluster{t: t, outcomes: make(chan store.DeliveryResult, 1000)}
	var wg sync.WaitGroup
	stores := make([]*postgres.Store, 3)
	errs := make([]error, 3)
	for i := range stores {
		wg.Add(1)
		go func() { // started together: the migrations must take turns
			defer wg.Done()
			// LISTEN directly, as behind a pooler an instance must (without one, Direct is url).
			stores[i], errs[i] = postgres.Open(ctx, url, &postgres.Options{ListenURL: pgtest.Direct(t, url)})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
	}
	c.stores = stores
	st := stores[0]
	var err error
	if err := st.CreateTeam(ctx, store.Team{ID: "acme", Name: "Acme"}); err != nil {
		t.Fatal(err)
	}
	if c.pk, _, err = store.CreateKey(ctx, st, "acme", store.Publishable, time.Now()); err != nil {
		t.Fatal(err)
	}
	if c.sk, _, err = store.CreateKey(ctx, st, "acme", store.Secret, time.Now()); err != nil {
		t.Fatal(err)
	}
	c.survey = store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample(), WebhookURL: webhookURL}
	if err := st.CreateSurvey(ctx, c.survey); err != nil {
		t.Fatal(err)
	}
	if cfg.before != nil {
		cfg.before(st, c.survey)
	}
	for i, s := range stores {
		o := &svc.Options{Logger: slog.New(slog.DiscardHandler), Webhooks: svc.WebhookOptions{
			AllowPrivate: true, PollInterval: 20 * time.Millisecond, RetryWaitMin: 10 * time.Millisecond,
			Observe: func(r store.DeliveryResult) { c.outcomes <- r }}}
		if cfg.options != nil {
			cfg.options(i, o)
		}
		h, err := svc.NewHandler(s, o)
		if err != nil {
			t.Fatal(err)
		}
		c.instances = append(c.instances, h)
	}
	t.Cleanup(func() {
		for i, h := range c.instances {
			_ = h.Close(context.Background())
			_ = c.stores[i].Close()
		}
	})
	return c
}

// do sends a request to instance i.
func (c *cluster) do(i int, method, path, body string, secret bool) *httptest.ResponseRecorder {
	c.t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if secret {
		r.Header.Set("Authorization", "Bearer "+c.sk)
	} else {
		r.Header.Set("x-svc-pk", c.pk)
	}
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	c.instances[i%len(c.instances)].ServeHTTP(rec, r)
	return rec
}

// Every created response is delivered exactly once, with the PUTs spread over three instances
// and every instance sending; and a delivery left claimed by an instance that died is sent by
// another once its lease has run out.
func TestClusterDeliversEachResponseOnce(t *testing.T) {
	var mu sync.Mutex
	got := map[string]int{}
	rv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var e struct {
			Data struct{ Response struct{ ID string } }
		}
		_ = json.NewDecoder(r.Body).Decode(&e)
		mu.Lock()
		got[e.Data.Response.ID]++
		mu.Unlock()
	}))
	defer rv.Close()
	// An instance that claimed a delivery an hour ago and died: its lease ran out long since.
	c := newCluster(t, rv.URL, func(st *postgres.Store, sv store.Survey) {
		put := store.ResponseWrite{SurveyID: sv.ID, ID: "orphan0001", Respondent: "z", Data: survey.Answers{}, At: time.Now().Add(-time.Hour)}
		if _, _, err := st.PutResponse(context.Background(), put); err != nil {
			t.Fatal(err)
		}
		claimed, err := st.ClaimDeliveries(context.Background(), time.Now().Add(-59*time.Minute), time.Second, 10)
		if err != nil || len(claimed) != 1 {
			t.Fatalf("the dead instance's claim: %+v, %v", claimed, err)
		}
	})
	const n = 60
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := store.NewSurveyID()
			if rec := c.do(i, "PUT", "/v1/svc/"+c.survey.ID+"/response/"+id, `{"respondent":"r`+fmt.Sprint(i)+`","data":{},"metadata":{}}`, false); rec.Code != 200 {
				t.Errorf("PUT through instance %d: %d %s", i%3, rec.Code, rec.Body)
			}
		}()
	}
	wg.Wait()
	for range n + 1 {
		select {
		case res := <-c.outcomes:
			if res.State != store.DeliverySucceeded {
				t.Errorf("delivery %s: %+v", res.ID, res)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("not every delivery was sent within 30 s")
		}
	}
	time.Sleep(100 * time.Millisecond) // time for a second sending of anything, which must not come
	mu.Lock()
	defer mu.Unlock()
	if len(got) != n+1 {
		t.Errorf("the receiver got %d responses, want %d", len(got), n+1)
	}
	for id, k := range got {
		if k != 1 {
			t.Errorf("response %s was delivered %d times", id, k)
		}
	}
}

// Counters stay exact with views, dismissals and responses arriving through every instance at
// once, a respondent's repeats counted once among the uniques.
func TestClusterCountersExact(t *testing.T) {
	c := newCluster(t, "")
	var wg sync.WaitGroup
	for i := range 90 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			who := fmt.Sprint("u", i%10) // ten respondents, each nine times
			path := "/v1/svc/" + c.survey.ID + "/respondent/" + who
			c.do(i, "POST", path+"/event", `{"type":"view"}`, false)
			if i%3 == 0 {
				c.do(i+1, "POST", path+"/event", `{"type":"dismiss"}`, false)
			}
			c.do(i+2, "PUT", "/v1/svc/"+c.survey.ID+"/response/"+store.NewSurveyID(), `{"respondent":"`+who+`","data":{},"metadata":{}}`, false)
		}()
	}
	wg.Wait()
	st, err := c.stores[2].Stats(context.Background(), c.survey.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := store.Stats{TotalViews: 90, UniqueViewers: 10, TotalDismissals: 30, UniqueDismissers: 10, TotalResponses: 90, UniqueResponders: 10}
	if st != want {
		t.Errorf("stats = %+v, want %+v", st, want)
	}
}

// A client paging through responses, each page through another instance, sees every response
// once while new ones arrive; a revoked key fails at once on every instance.
func TestClusterPagingAndRevocation(t *testing.T) {
	c := newCluster(t, "")
	for i := range 25 {
		c.do(i, "PUT", "/v1/svc/"+c.survey.ID+"/response/"+store.NewSurveyID(), `{"respondent":"a","data":{},"metadata":{}}`, false)
		time.Sleep(2 * time.Millisecond) // distinct creation times, so the order is known
	}
	seen := map[string]bool{}
	path := "/v1/protected/surveys/" + c.survey.ID + "/responses?limit=4"
	for page := 0; ; page++ {
		rec := c.do(page, "GET", path, "", true)
		var p struct {
			Data       []struct{ ID string }
			NextCursor *string
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || rec.Code != 200 {
			t.Fatalf("page %d: %d %s", page, rec.Code, rec.Body)
		}
		for _, r := range p.Data {
			if seen[r.ID] {
				t.Fatalf("response %s listed twice", r.ID)
			}
			seen[r.ID] = true
		}
		// A new response arrives through another instance: newer, so on no later page.
		c.do(page+1, "PUT", "/v1/svc/"+c.survey.ID+"/response/"+store.NewSurveyID(), `{"respondent":"b","data":{},"metadata":{}}`, false)
		if p.NextCursor == nil {
			break
		}
		path = "/v1/protected/surveys/" + c.survey.ID + "/responses?limit=4&cursor=" + url.QueryEscape(*p.NextCursor)
	}
	if len(seen) != 25 {
		t.Errorf("paged through %d responses, want the 25 there when paging began", len(seen))
	}

	k, err := c.stores[0].LookupKey(context.Background(), c.pk)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.stores[0].RevokeKey(context.Background(), "acme", k.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	// Every instance refuses it within the second svc promises (docs/operating.md#limits): the
	// revoking one at once, the others when the NOTIFY of the change drops their cached key.
	deadline := time.Now().Add(time.Second)
	for i := range c.instances {
		for {
			rec := c.do(i, "GET", "/v1/svc/"+c.survey.ID, "", false)
			if rec.Code == 401 {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("instance %d still accepted the revoked key after a second: %d", i, rec.Code)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// A delivery scheduled through one instance wakes the sender of another at once, through
// LISTEN/NOTIFY: the only sending instance polls once an hour.
func TestClusterNotifiesOtherInstances(t *testing.T) {
	got := make(chan struct{}, 10)
	rv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got <- struct{}{} }))
	defer rv.Close()
	c := newClusterWith(t, rv.URL, clusterConfig{options: func(i int, o *svc.Options) {
		o.Webhooks.Disabled = i != 1
		o.Webhooks.PollInterval = time.Hour
	}})
	time.Sleep(200 * time.Millisecond) // the sender has made its first claim and listens
	if rec := c.do(0, "PUT", "/v1/svc/"+c.survey.ID+"/response/"+store.NewSurveyID(), `{"respondent":"a","data":{},"metadata":{}}`, false); rec.Code != 200 {
		t.Fatalf("PUT: %d", rec.Code)
	}
	select {
	case <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("instance 1 did not send what instance 0 scheduled; it polls once an hour")
	}
}

// A survey changed through one instance is served changed by every instance within the
// second svc promises (docs/operating.md#limits), though each had it cached (the NOTIFY of the
// change drops it at once; the cache's 500 ms life bounds it if a notification is lost).
func TestClusterSeesAChangedSurvey(t *testing.T) {
	c := newCluster(t, "")
	path := "/v1/svc/" + c.survey.ID
	for i := range c.instances {
		if rec := c.do(i, "GET", path, "", false); rec.Code != 200 || strings.Contains(rec.Body.String(), "Renamed survey") {
			t.Fatalf("instance %d before the change: %d %s", i, rec.Code, rec.Body)
		}
	}
	sv, err := c.stores[0].Survey(context.Background(), "acme", c.survey.ID)
	if err != nil {
		t.Fatal(err)
	}
	sv.Definition.Title = "Renamed survey" // a value: the cached one is not touched
	if err := c.stores[0].UpdateSurvey(context.Background(), sv); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Second)
	for i := range c.instances {
		for {
			rec := c.do(i, "GET", path, "", false)
			if rec.Code == 200 && strings.Contains(rec.Body.String(), "Renamed survey") {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("instance %d still served the old survey after a second: %d %s", i, rec.Code, rec.Body)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
