package svc_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/survey"
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

// Each instance decides on what the others wrote a moment before: a person asked about through
// one instance (which keeps what it read of them), then shown a survey, answering one or given
// attributes through another, is decided anew by the first at once. (Each ask after a write
// gets no survey; the reason is the best candidate's, which may be another survey's.)
func TestClusterDecidesOnOtherInstancesWrites(t *testing.T) {
	var once, untilAnswered, paying store.Survey
	c := newCluster(t, "http://127.0.0.1:9/unused", func(st *postgres.Store, _ store.Survey) {
		mk := func(d *survey.Display) store.Survey {
			def := survey.Sample()
			def.Display = d
			sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: def}
			if err := st.CreateSurvey(t.Context(), sv); err != nil {
				t.Fatal(err)
			}
			return sv
		}
		once = mk(&survey.Display{URLs: []survey.URLRule{{Match: survey.MatchPrefix, Value: "/once"}}, Recontact: survey.RecontactOnce})
		untilAnswered = mk(&survey.Display{URLs: []survey.URLRule{{Match: survey.MatchPrefix, Value: "/answer"}}})
		paying = mk(&survey.Display{URLs: []survey.URLRule{{Match: survey.MatchPrefix, Value: "/billing"}},
			Attributes: []survey.AttributeRule{{Key: "plan", Operator: survey.OpNotEqual, Value: "free"}}})
	})
	ask := func(i int, who, url, want string) {
		t.Helper()
		rec := c.do(i, "POST", "/v1/svc/next-survey", fmt.Sprintf(`{"respondent":%q,"url":%q}`, who, url), false)
		if got := rec.Body.String(); rec.Code != http.StatusOK || !strings.Contains(got, want) {
			t.Errorf("%s on %s through instance %d: %d %.60s…, want %s", who, url, i, rec.Code, got, want)
		}
	}
	write := func(i int, method, path, body string, secret bool, want int) {
		t.Helper()
		if rec := c.do(i, method, path, body, secret); rec.Code != want {
			t.Fatalf("%s %s through instance %d: %d %s", method, path, i, rec.Code, rec.Body)
		}
	}
	for n := range 12 {
		who, a, b := fmt.Sprint("person", n), n%3, (n+1)%3
		ask(a, who, "/once", `"id":"`+once.ID+`"`)
		write(b, "POST", "/v1/svc/"+once.ID+"/respondent/"+who+"/event", `{"type":"view"}`, false, http.StatusOK)
		ask(a, who, "/once", `"survey":null`)

		ask(a, who, "/answer", `"id":"`+untilAnswered.ID+`"`)
		write(b, "PUT", "/v1/svc/"+untilAnswered.ID+"/response/"+store.NewSurveyID(), fmt.Sprintf(`{"respondent":%q,"data":{"nps":9},"metadata":{}}`, who),
			false, http.StatusOK)
		ask(a, who, "/answer", `"survey":null`)

		ask(a, who, "/billing", `"id":"`+paying.ID+`"`)
		write(b, "PUT", "/v1/protected/respondents/"+who+"/attributes", `{"plan":"free"}`, true, http.StatusOK)
		ask(a, who, "/billing", `"survey":null`)
	}
}
