package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// URL rules see the page's fragment over HTTP: a hash-routed app's page is targeted by a rule
// from the path on, or by one on the whole URL; excludeUrls leave out a fragment.
func TestNextSurveyFragment(t *testing.T) {
	e := setup(t)
	settings := e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/app#/settings"}]}`)
	billing := e.targetedSurvey(`{"urls":[{"match":"exact","value":"https://app.example/app#/billing"}]}`)
	docs := e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/docs"}],"excludeUrls":[{"match":"regex","value":"#/?preview$"}]}`)
	for _, tc := range []struct{ url, want string }{
		{"/app#/settings", settings},
		{"https://app.example/app#/settings/team", settings},
		{"/app#/billing", "-url"}, // the path on: the whole-URL rule does not see it
		{"https://app.example/app#/billing", billing},
		{"https://app.example/app#/billing/plans", "-url"},
		{"https://other.example/app#/billing", "-url"},
		{"https://app.example/app", "-url"},
		{"https://app.example/app#", "-url"},
		{"/docs/start#intro", docs},
		{"https://app.example/docs/start#preview", "-url"},
		{"/docs/start#/preview", "-url"},
		{"/docs/start?preview#top", docs},
	} {
		if got := e.ask(`{"respondent":"ann","url":"` + tc.url + `"}`).picked(); got != tc.want {
			t.Errorf("on %s: %s, want %s", tc.url, got, tc.want)
		}
	}
}

// A URL with a fragment is taken up to the bound on its length, and refused past it.
func TestNextSurveyLongFragment(t *testing.T) {
	e := setup(t)
	id := e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/app#/report"}]}`)
	url := "https://app.example/app#/report?state="
	url += strings.Repeat("x", 8192-len(url))
	if got := e.ask(`{"respondent":"ann","url":"` + url + `"}`).picked(); got != id {
		t.Errorf("an 8,192-byte URL with a fragment: %s, want %s", got, id)
	}
	rec := e.public("POST", "/v1/svc/next-survey", `{"respondent":"ann","url":"`+url+`x"}`)
	wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
	if msg := errorMessage(t, rec); !strings.Contains(msg, "fragment, of at most 8192 bytes") {
		t.Errorf("an 8,193-byte URL: %q", msg)
	}
}

// The reason tells only what held back a survey the page could show: a survey scheduled later
// for another page, one the person answered elsewhere, one for other people, are the page's url
// reason; on their own page, their own.
func TestNextSurveyReasonOfThePage(t *testing.T) {
	e := setup(t)
	starts := e.clock.Now().Add(48 * time.Hour).Format(time.RFC3339)
	later := e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/later"}],"startsAt":"` + starts + `","priority":3}`)
	answered := e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/answered"}],"priority":2}`)
	e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/pro"}],"attributes":[{"key":"plan","operator":"equal","value":"pro"}],"priority":1}`)
	e.targetedSurvey(`{"urls":[{"match":"prefix","value":"/export"}],"events":["export"]}`)
	put := e.public("PUT", "/v1/svc/"+answered+"/response/"+e.ids.New(), `{"respondent":"ann","data":{},"metadata":{}}`)
	wantStatus(t, put, http.StatusOK, "")

	for _, tc := range []struct{ url, event, want string }{
		{"/pricing", "", "-url"},
		{"/pricing", "export", "-url"},
		{"/later", "", "-schedule"},
		{"/later#/settings", "", "-schedule"},
		{"/answered", "", "-responded"},
		{"/pro", "", "-attributes"},
		{"/export", "", "-event"},
	} {
		body := `{"respondent":"ann","url":"` + tc.url + `"}`
		if tc.event != "" {
			body = `{"respondent":"ann","url":"` + tc.url + `","event":"` + tc.event + `"}`
		}
		rec := e.public("POST", "/v1/svc/next-survey", body)
		wantStatus(t, rec, http.StatusOK, "")
		if want := `"reason":"` + strings.TrimPrefix(tc.want, "-") + `"`; !strings.Contains(rec.Body.String(), want) {
			t.Errorf("on %s, event %q: %s, want %s", tc.url, tc.event, rec.Body, want)
		}
	}

	// Once its schedule starts, the survey is picked on its page, and the others still tell
	// nothing of it.
	e.clock.Advance(49 * time.Hour)
	if got := e.ask(`{"respondent":"ann","url":"/later"}`).picked(); got != later {
		t.Errorf("on /later after its start: %s, want %s", got, later)
	}
	if got := e.ask(`{"respondent":"ann","url":"/pricing"}`).picked(); got != "-url" {
		t.Errorf("on /pricing after its start: %s", got)
	}
}
