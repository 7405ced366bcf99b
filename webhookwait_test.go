package svc_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/internal/testclock"
	"github.com/svc-feedback/svc/store"
)

// TestWebhookWaitSeconds: with webhookWaitSeconds a response's response.created waits until the
// response is finished or quiet for the wait, whichever comes first, is still sent once, and
// carries the answers as they stand then (docs/webhooks.md). The clock is the test's.
func TestWebhookWaitSeconds(t *testing.T) {
	rv := newReceiver(t)
	clock := testclock.New(time.Now().UTC().Truncate(time.Millisecond))
	e := setupHooks(t, rv.URL, func(o *svc.Options, sv *store.Survey) {
		o.Now = clock.Now
		sv.WebhookWaitSeconds = 60
	})
	put := func(id, data string, finished bool) {
		t.Helper()
		body := `{"respondent":"ann","data":` + data + `,"metadata":{}`
		if finished {
			body += `,"finished":true`
		}
		r, _ := http.NewRequest("PUT", e.srv.URL+"/v1/svc/"+e.survey.ID+"/response/"+id, strings.NewReader(body+"}"))
		r.Header.Set("x-svc-pk", e.pk)
		r.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(r)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("PUT: %v %v", resp, err)
		}
		resp.Body.Close()
	}
	payload := func(d delivery) (data []any, finished bool) {
		t.Helper()
		var p struct {
			Data struct {
				Response struct {
					Data     []any `json:"data"`
					Finished bool  `json:"finished"`
				} `json:"response"`
			} `json:"data"`
		}
		if err := json.Unmarshal(d.body, &p); err != nil {
			t.Fatalf("payload: %v\n%s", err, d.body)
		}
		return p.Data.Response.Data, p.Data.Response.Finished
	}

	// Answered one question at a time, then finished: one delivery, with every answer.
	finishing := e.ids.New()
	put(finishing, `{"nps":9}`, false)
	clock.Advance(30 * time.Second)
	put(finishing, `{"nps":9,"stars":4}`, false)
	clock.Advance(20 * time.Second)
	put(finishing, `{"nps":9,"stars":4,"comments":"Lovely"}`, true)
	if r := e.outcome(); r.State != store.DeliverySucceeded {
		t.Fatalf("outcome %+v", r)
	}
	got := rv.deliveries()
	if len(got) != 1 {
		t.Fatalf("%d deliveries, want 1", len(got))
	}
	if data, finished := payload(got[0]); len(data) != 3 || !finished {
		t.Errorf("delivered data %v, finished %v: want the three answers, finished", data, finished)
	}

	// Left unfinished: sent once the wait has passed since its last update.
	quiet := e.ids.New()
	put(quiet, `{"nps":3}`, false)
	clock.Advance(59 * time.Second)
	put(quiet, `{"nps":3,"stars":2}`, false)
	clock.Advance(59 * time.Second) // 118 s after the first write, 59 s after the last
	page := e.protectedGet("/v1/protected/surveys/" + e.survey.ID + "/webhook-deliveries")
	if !strings.Contains(page, `"state":"pending"`) {
		t.Fatalf("the quiet response's delivery is not pending 59 s after its last update: %s", page)
	}
	clock.Advance(time.Second)
	if r := e.outcome(); r.State != store.DeliverySucceeded {
		t.Fatalf("outcome %+v", r)
	}
	got = rv.deliveries()
	if len(got) != 2 {
		t.Fatalf("%d deliveries, want 2", len(got))
	}
	if data, finished := payload(got[1]); len(data) != 2 || finished {
		t.Errorf("delivered data %v, finished %v: want the two answers, unfinished", data, finished)
	}
	// Later writes send nothing more: one response.created per response.
	put(quiet, `{"nps":3,"stars":2,"comments":"late"}`, true)
	clock.Advance(2 * time.Minute)
	if page := e.protectedGet("/v1/protected/surveys/" + e.survey.ID + "/webhook-deliveries"); strings.Count(page, `"id":"dlv_`) != 2 {
		t.Errorf("want two deliveries, one per response: %s", page)
	}
}
