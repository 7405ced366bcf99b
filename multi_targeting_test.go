package svc_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

// A prompt is used up once when its survey is viewed through several instances at once: every
// instance picks the prompted survey until then, every view is counted, and afterwards no
// instance picks it, nor lists the prompt.
func TestClusterUsesPromptUpOnce(t *testing.T) {
	c := newCluster(t, "http://127.0.0.1:9/unused")
	id := c.survey.ID // no display rules: picked only when prompted
	if rec := c.do(0, "POST", "/v1/protected/surveys/"+id+"/prompts", `{"respondent":"ann"}`, true); rec.Code != http.StatusCreated {
		t.Fatalf("prompt: %d %s", rec.Code, rec.Body)
	}
	ask := func(i int) string {
		t.Helper()
		rec := c.do(i, "POST", "/v1/svc/next-survey", `{"respondent":"ann","url":"/anywhere"}`, false)
		if rec.Code != http.StatusOK {
			t.Fatalf("instance %d next-survey: %d %s", i, rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	for i := range 3 {
		if got := ask(i); !strings.Contains(got, `"id":"`+id+`"`) {
			t.Errorf("instance %d before the views: %s, want the prompted survey", i, got)
		}
	}
	const views = 4 // by each instance, all at once
	var wg sync.WaitGroup
	for i := range 3 * views {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := c.do(i, "POST", "/v1/svc/"+id+"/respondent/ann/event", `{"type":"view"}`, false)
			if rec.Code != http.StatusOK {
				t.Errorf("a view through instance %d: %d %s", i%3, rec.Code, rec.Body)
			}
		}()
	}
	wg.Wait()
	for i := range 3 {
		if got := ask(i); !strings.Contains(got, `"survey":null`) || !strings.Contains(got, `"reason":"no-survey"`) {
			t.Errorf("instance %d after the views: %s, want no survey", i, got)
		}
	}
	if rec := c.do(2, "GET", "/v1/protected/surveys/"+id+"/prompts", "", true); !strings.Contains(rec.Body.String(), `"data":[]`) {
		t.Errorf("prompts after the views: %d %s", rec.Code, rec.Body)
	}
	p, err := c.stores[1].Person(t.Context(), "acme", "ann", nil)
	if err != nil || p.Surveys[id].Views != 3*views || len(p.Prompts) != 0 {
		t.Errorf("ann's history: %+v, %v; want %d views and no prompt", p, err, 3*views)
	}
}
