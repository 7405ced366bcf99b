package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// targetedSurvey creates an active survey of team A with the display rules given (a JSON
// object), through the management API, and returns its id.
func (e *env) targetedSurvey(display string) string {
	e.t.Helper()
	body := strings.Replace(newSurveyBody, `{"title":"Onboarding",`, `{"title":"Onboarding","status":"active","display":`+display+`,`, 1)
	rec := e.manage("POST", "/v1/protected/surveys", body, e.skA)
	wantStatus(e.t, rec, http.StatusCreated, "")
	var sv struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &sv); err != nil {
		e.t.Fatal(err)
	}
	e.clock.Advance(time.Millisecond) // surveys made one after the other are newer
	return sv.ID
}

// nextSurvey is a decision as POST /v1/svc/next-survey answers it.
type nextSurvey struct {
	Survey *struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	} `json:"survey"`
	DelaySeconds int     `json:"delaySeconds"`
	Reason       *string `json:"reason"`
}

// ask asks for the next survey with team A's publishable key.
func (e *env) ask(body string) nextSurvey {
	e.t.Helper()
	rec := e.public("POST", "/v1/svc/next-survey", body)
	wantStatus(e.t, rec, http.StatusOK, "")
	var d nextSurvey
	if err := json.Unmarshal(rec.Body.Bytes(), &d); err != nil {
		e.t.Fatalf("%v: %s", err, rec.Body)
	}
	return d
}

// picked is the decision's survey id, or its reason after "-".
func (d nextSurvey) picked() string {
	if d.Survey != nil {
		return d.Survey.ID
	}
	if d.Reason != nil {
		return "-" + *d.Reason
	}
	return "-"
}

// POST /v1/svc/next-survey over HTTP: page, event, attributes (the page's and the stored
// ones), recontact, the team's cooldown and a prompt, with the public view of the survey
// picked and nothing recorded by the decision itself.
func TestNextSurvey(t *testing.T) {
	e := setup(t)
	if got := e.ask(`{"respondent":"ann","url":"/billing"}`).picked(); got != "-no-survey" {
		t.Fatalf("a team without display rules: %s", got)
	}
	billing := e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/billing"}],"delaySeconds":5}`)
	d := e.ask(`{"respondent":"ann","url":"https://app.example/billing?tab=1"}`)
	if d.picked() != billing || d.DelaySeconds != 5 || d.Survey.Title != "Onboarding" || d.Reason != nil {
		t.Errorf("on the billing page: %+v", d)
	}
	raw := e.public("POST", "/v1/svc/next-survey", `{"respondent":"ann","url":"/billing"}`).Body.String()
	if strings.Contains(raw, "display") || strings.Contains(raw, "/billing") {
		t.Errorf("the decision shows the rules: %s", raw)
	}
	if got := e.ask(`{"respondent":"ann","url":"/home"}`).picked(); got != "-url" {
		t.Errorf("on another page: %s", got)
	}
	// A response holds back a survey shown until responded; a view starts the cooldown.
	put := e.public("PUT", "/v1/svc/"+billing+"/response/"+e.ids.New(), `{"respondent":"ann","data":{},"metadata":{}}`)
	wantStatus(t, put, http.StatusOK, "")
	if got := e.ask(`{"respondent":"ann","url":"/billing"}`).picked(); got != "-responded" {
		t.Errorf("after a response: %s", got)
	}
	wantStatus(t, e.manage("PATCH", "/v1/protected/settings", `{"cooldownDays":7}`, e.skA), http.StatusOK, "")
	wantStatus(t, e.public("POST", "/v1/svc/"+billing+"/respondent/bob/event", `{"type":"view"}`), http.StatusOK, "")
	if got := e.ask(`{"respondent":"bob","url":"/billing"}`).picked(); got != "-cooldown" {
		t.Errorf("bob, just after a view, inside the cooldown: %s", got)
	}
	e.clock.Advance(8 * 24 * time.Hour)
	if got := e.ask(`{"respondent":"bob","url":"/billing"}`).picked(); got != billing {
		t.Errorf("bob, after the cooldown: %s", got)
	}

	// An event's survey, for people with an attribute: the page's, unless the team stored one.
	upgraded := e.targetedSurvey(`{"events":["upgraded"],"attributes":[{"key":"plan","operator":"equal","value":"pro"}],"recontact":"always"}`)
	if got := e.ask(`{"respondent":"ann","url":"/home","event":"upgraded"}`).picked(); got != "-attributes" {
		t.Errorf("the event, without the attribute: %s", got)
	}
	if got := e.ask(`{"respondent":"ann","url":"/home","event":"upgraded","attributes":{"plan":"pro"}}`).picked(); got != upgraded {
		t.Errorf("the event, with the page's attribute: %s", got)
	}
	wantStatus(t, e.manage("PUT", "/v1/protected/respondents/ann/attributes", `{"plan":"free"}`, e.skA), http.StatusOK, "")
	if got := e.ask(`{"respondent":"ann","url":"/home","event":"upgraded","attributes":{"plan":"pro"}}`).picked(); got != "-attributes" {
		t.Errorf("the stored attribute against the page's: %s", got)
	}

	// A prompt brings its survey to any page, without its event, once: the view uses it up.
	rec := e.manage("POST", "/v1/protected/surveys/"+upgraded+"/prompts", `{"respondent":"carl"}`, e.skA)
	wantStatus(t, rec, http.StatusCreated, "")
	if got := e.ask(`{"respondent":"carl","url":"/anywhere"}`).picked(); got != upgraded {
		t.Errorf("a prompted person, elsewhere: %s", got)
	}
	if got := e.ask(`{"respondent":"carl","url":"/anywhere"}`).picked(); got != upgraded {
		t.Errorf("asking again records nothing: %s", got)
	}
	wantStatus(t, e.public("POST", "/v1/svc/"+upgraded+"/respondent/carl/event", `{"type":"view"}`), http.StatusOK, "")
	if got := e.ask(`{"respondent":"carl","url":"/anywhere"}`).picked(); got != "-event" {
		t.Errorf("after the prompted view: %s, want the newest survey's reason (event)", got)
	}
	if list := e.manage("GET", "/v1/protected/surveys/"+upgraded+"/prompts", "", e.skA); !strings.Contains(list.Body.String(), `"data":[]`) {
		t.Errorf("prompts after the view: %s", list.Body)
	}

	// Team B's key sees none of team A's surveys.
	recB := e.do(req{method: "POST", path: "/v1/svc/next-survey", body: `{"respondent":"ann","url":"/billing"}`,
		headers: map[string]string{"x-svc-pk": e.pkB, "Content-Type": "application/json"}})
	if !strings.Contains(recB.Body.String(), `"reason":"no-survey"`) {
		t.Errorf("team B asking: %s", recB.Body)
	}
}

// The app's Audience is asked, with the request, of a survey that passes every rule.
// A survey paused elsewhere (another instance, here the store itself) while this handler holds
// the team's rules is not shown: the survey picked is read, and the rules read again.
func TestNextSurveyPausedElsewhere(t *testing.T) {
	e := setup(t)
	older := e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/billing"}]}`)
	newer := e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/billing"}]}`)
	if got := e.ask(`{"respondent":"ann","url":"/billing"}`).picked(); got != newer {
		t.Fatalf("the newest survey first: %s, want %s", got, newer)
	}
	if _, err := store.ModifySurvey(t.Context(), e.store, e.survA.TeamID, newer, func(sv *store.Survey) error {
		sv.Status, sv.UpdatedAt = store.StatusInactive, e.clock.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := e.ask(`{"respondent":"ann","url":"/billing"}`).picked(); got != older {
		t.Errorf("after the newest was paused elsewhere: %s, want %s", got, older)
	}
}

func TestNextSurveyAudience(t *testing.T) {
	asked := 0
	e := setup(t, func(c *api.Config) {
		c.Audience = func(r *http.Request, respondent, surveyID string) (bool, error) {
			asked++
			cookie, err := r.Cookie("session")
			return err == nil && cookie.Value == "staff", nil
		}
	})
	id := e.targetedSurvey(`{}`)
	ask := func(cookie string) string {
		rec := e.do(req{method: "POST", path: "/v1/svc/next-survey", body: `{"respondent":"ann","url":"/"}`,
			headers: map[string]string{"x-svc-pk": e.pkA, "Content-Type": "application/json", "Cookie": cookie}})
		return rec.Body.String()
	}
	if got := ask("session=guest"); !strings.Contains(got, `"reason":"audience"`) || asked != 1 {
		t.Errorf("a guest: %s (asked %d times)", got, asked)
	}
	if got := ask("session=staff"); !strings.Contains(got, `"id":"`+id+`"`) {
		t.Errorf("staff: %s", got)
	}
}

// Settings, attributes and prompts refuse what they cannot take, with the member at fault.
func TestTargetingInputsRefused(t *testing.T) {
	e := setup(t)
	id := e.targetedSurvey(`{}`)
	for _, tc := range []struct{ method, path, body, message string }{
		{"POST", "/v1/svc/next-survey", `{"url":"/"}`, "respondent is required"},
		{"POST", "/v1/svc/next-survey", `{"respondent":"ann"}`, "url is required"},
		{"POST", "/v1/svc/next-survey", `{"respondent":"ann","url":"/","attributes":{"a":{"b":1}}}`, `the value of "a" must be a string, number or boolean`},
		{"POST", "/v1/svc/next-survey", `{"respondent":"ann","url":"/","URL":"/x"}`, `"URL" should be "url"`},
		{"PATCH", "/v1/protected/settings", `{"cooldownDays":-1}`, "cooldownDays must be a whole number of days from 0 to 3650"},
		{"PATCH", "/v1/protected/settings", `{"cooldown":3}`, `unknown member "cooldown"`},
		{"PUT", "/v1/protected/respondents/ann/attributes", `["plan"]`, "must be an object of strings, numbers and booleans"},
		{"POST", "/v1/protected/surveys/" + id + "/prompts", `{}`, "respondent is required"},
		{"POST", "/v1/protected/surveys/" + id + "/prompts", `{"respondent":"ann","expiresAt":"2020-01-01T00:00:00Z"}`, "expiresAt is in the past"},
	} {
		var rec = e.public(tc.method, tc.path, tc.body)
		if strings.HasPrefix(tc.path, "/v1/protected") {
			rec = e.manage(tc.method, tc.path, tc.body, e.skA)
		}
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if msg := errorMessage(t, rec); !strings.Contains(msg, tc.message) {
			t.Errorf("%s %s %s: %q does not say %q", tc.method, tc.path, tc.body, msg, tc.message)
		}
	}
	wantStatus(t, e.manage("POST", "/v1/protected/surveys/"+e.survB.ID+"/prompts", `{"respondent":"ann"}`, e.skA), http.StatusNotFound, "not_found")
	wantStatus(t, e.manage("DELETE", "/v1/protected/surveys/"+id+"/prompts/prm_nothere", "", e.skA), http.StatusNotFound, "not_found")
}

// defaultSettings is the body of a team's settings never changed.
const defaultSettings = `{"cooldownDays":0,"segments":[],"segmentsFill":{"state":"none","done":0,"total":0}}` + "\n"

// The settings' ETag guards a change made from a stale read.
func TestSettingsIfMatch(t *testing.T) {
	e := setup(t)
	get := e.manage("GET", "/v1/protected/settings", "", e.skA)
	wantStatus(t, get, http.StatusOK, "")
	if get.Body.String() != defaultSettings {
		t.Errorf("default settings: %s", get.Body)
	}
	tag := get.Header().Get("ETag")
	wantStatus(t, e.manage("PATCH", "/v1/protected/settings", `{"cooldownDays":3}`, e.skA, "If-Match", tag), http.StatusOK, "")
	wantStatus(t, e.manage("PATCH", "/v1/protected/settings", `{"cooldownDays":4}`, e.skA, "If-Match", tag), http.StatusPreconditionFailed, "precondition_failed")
	if got := e.manage("GET", "/v1/protected/settings", "", e.skB).Body.String(); got != defaultSettings {
		t.Errorf("team B's settings after A's change: %s", got)
	}
}

// Erasing a person takes their stored attributes and prompts with the rest.
func TestEraseTakesAttributesAndPrompts(t *testing.T) {
	e := setup(t)
	id := e.targetedSurvey(`{"urls":[{"match":"exact","value":"/only-here"}]}`)
	wantStatus(t, e.manage("PUT", "/v1/protected/respondents/ann/attributes", `{"plan":"pro"}`, e.skA), http.StatusOK, "")
	wantStatus(t, e.manage("POST", "/v1/protected/surveys/"+id+"/prompts", `{"respondent":"ann"}`, e.skA), http.StatusCreated, "")
	wantStatus(t, e.manage("DELETE", "/v1/protected/respondents/ann", "", e.skA), http.StatusOK, "")
	if got := e.ask(`{"respondent":"ann","url":"/elsewhere"}`).picked(); got != "-url" {
		t.Errorf("the erased person's prompt still picks its survey: %s", got)
	}
	tg := e.store.(store.Targeter)
	if p, err := tg.Person(t.Context(), "a", "ann", nil); err != nil || len(p.Attributes) != 0 {
		t.Errorf("the erased person's attributes: %v, %v", p.Attributes, err)
	}
}

// slowRules is a store whose first read of a team's display rules waits for release, and which
// counts them.
type slowRules struct {
	*sqlite.Store
	reads   atomic.Int64
	release chan struct{}
}

func (s *slowRules) ActiveRules(ctx context.Context, teamID string) ([]store.SurveyRules, error) {
	if s.reads.Add(1) == 1 {
		<-s.release
	}
	return s.Store.ActiveRules(ctx, teamID)
}

// A burst of asks before the team's rules are in memory loads them once: the others wait for
// that load rather than each reading every survey's rules.
func TestNextSurveyLoadsRulesOnce(t *testing.T) {
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	slow := &slowRules{Store: st, release: make(chan struct{})}
	e := setupWith(t, slow, slog.New(slog.DiscardHandler))
	id := e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/billing"}]}`)
	var wg sync.WaitGroup
	picked := make(chan string, 32)
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			picked <- e.ask(fmt.Sprintf(`{"respondent":"p%d","url":"/billing"}`, i)).picked()
		}()
	}
	time.Sleep(50 * time.Millisecond) // let the asks arrive while the first load waits
	close(slow.release)
	wg.Wait()
	close(picked)
	for got := range picked {
		if got != id {
			t.Errorf("an ask of the burst: %s, want %s", got, id)
		}
	}
	if n := slow.reads.Load(); n != 1 {
		t.Errorf("the team's rules were read %d times for a burst of 32 asks, want once", n)
	}
}

// countingRules is a store that counts its reads of a team's display rules.
type countingRules struct {
	*sqlite.Store
	reads atomic.Int64
}

func (s *countingRules) ActiveRules(ctx context.Context, teamID string) ([]store.SurveyRules, error) {
	s.reads.Add(1)
	return s.Store.ActiveRules(ctx, teamID)
}

// A team's rules are read again when they may have changed (the store's version of them moved)
// and at least once a minute, not every second: a change made around the handler (the console,
// another process) still shows within the second.
func TestNextSurveyRereadsRulesWhenChanged(t *testing.T) {
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	counting := &countingRules{Store: st}
	e := setupWith(t, counting, slog.New(slog.DiscardHandler))
	id := e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/billing"}]}`)
	ask := func(url, want string, reads int64) {
		t.Helper()
		if got := e.ask(`{"respondent":"ann","url":"` + url + `"}`).picked(); got != want {
			t.Errorf("on %s: %s, want %s", url, got, want)
		}
		if n := counting.reads.Load(); n != reads {
			t.Errorf("on %s: the rules read %d times, want %d", url, n, reads)
		}
	}
	ask("/billing", id, 1)
	for range 3 {
		e.clock.Advance(2 * time.Second)
		ask("/billing", id, 1)
	}
	e.clock.Advance(time.Millisecond)
	if _, err := store.ModifySurvey(t.Context(), st, e.survA.TeamID, id, func(sv *store.Survey) error {
		sv.Display = &survey.Display{URLs: []survey.URLRule{{Match: survey.MatchPrefix, Value: "/docs"}}}
		sv.UpdatedAt = e.clock.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(2 * time.Second)
	ask("/docs", id, 2)
	ask("/billing", "-url", 2)
	e.clock.Advance(61 * time.Second)
	ask("/docs", id, 3)
}
