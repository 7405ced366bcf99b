package targeting

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

var now = time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC)

func rules(t *testing.T, id string, age time.Duration, d *survey.Display) *Rules {
	t.Helper()
	r, err := Compile(id, now.Add(-age), d)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func ptr[T any](v T) *T { return &v }

func decide(t *testing.T, ask Ask, surveys []*Rules, p store.Person, cooldown time.Duration, l Lookups) Decision {
	t.Helper()

	if ask.Now.IsZero() {
		ask.Now = now
	}
	if ask.Respondent == "" {
		ask.Respondent = "ann"
	}
	surveys = slices.Clone(surveys)
	Sort(surveys) // as the handler keeps them
	d, err := Decide(ask, surveys, OnPage(ask, surveys), p, cooldown, l)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Each rule alone: the survey is picked when it holds and held back, with the rule's reason,
// when it does not.
func TestEachRule(t *testing.T) {
	day := 24 * time.Hour
	tests := []struct {
		name   string
		d      survey.Display
		ask    Ask
		person store.Person
		want   string // "" for picked, else the reason
	}{
		{"no rules: every page view", survey.Display{}, Ask{URL: "/any"}, store.Person{}, ""},
		{"url exact", survey.Display{URLs: []survey.URLRule{{Match: "exact", Value: "/billing"}}}, Ask{URL: "/billing"}, store.Person{}, ""},
		{"url exact, with a query", survey.Display{URLs: []survey.URLRule{{Match: "exact", Value: "/billing"}}}, Ask{URL: "/billing?tab=2"}, store.Person{}, ReasonURL},
		{"url prefix", survey.Display{URLs: []survey.URLRule{{Match: "prefix", Value: "/billing"}}}, Ask{URL: "https://app.example/billing/plans#top"}, store.Person{}, ""},
		{"url contains, none of two", survey.Display{URLs: []survey.URLRule{{Match: "contains", Value: "plan"}, {Match: "contains", Value: "seat"}}}, Ask{URL: "/home"}, store.Person{}, ReasonURL},
		{"url regex", survey.Display{URLs: []survey.URLRule{{Match: "regex", Value: `^/settings/(team|plan)$`}}}, Ask{URL: "/settings/team"}, store.Person{}, ""},
		{"url with a scheme: the whole URL", survey.Display{URLs: []survey.URLRule{{Match: "prefix", Value: "https://app.example/"}}}, Ask{URL: "https://other.example/"}, store.Person{}, ReasonURL},
		{"excluded url", survey.Display{ExcludeURLs: []survey.URLRule{{Match: "contains", Value: "preview=1"}}}, Ask{URL: "/docs?preview=1"}, store.Person{}, ReasonURL},
		{"event awaited", survey.Display{Events: []string{"upgraded"}}, Ask{Event: "upgraded"}, store.Person{}, ""},
		{"event awaited, page view", survey.Display{Events: []string{"upgraded"}}, Ask{}, store.Person{}, ReasonEvent},
		{"page view survey, an event", survey.Display{}, Ask{Event: "upgraded"}, store.Person{}, ReasonEvent},
		{"attribute equal", survey.Display{Attributes: []survey.AttributeRule{{Key: "plan", Operator: "equal", Value: "pro"}}}, Ask{Attributes: map[string]any{"plan": "pro"}}, store.Person{}, ""},
		{"attribute missing", survey.Display{Attributes: []survey.AttributeRule{{Key: "plan", Operator: "equal", Value: "pro"}}}, Ask{}, store.Person{}, ReasonAttributes},
		{"stored attributes win", survey.Display{Attributes: []survey.AttributeRule{{Key: "plan", Operator: "equal", Value: "pro"}}},
			Ask{Attributes: map[string]any{"plan": "pro"}}, store.Person{Attributes: map[string]any{"plan": "free"}}, ReasonAttributes},
		{"attribute greater, number as text", survey.Display{Attributes: []survey.AttributeRule{{Key: "seats", Operator: "greater", Value: 5.0}}}, Ask{Attributes: map[string]any{"seats": "12"}}, store.Person{}, ""},
		{"attribute less", survey.Display{Attributes: []survey.AttributeRule{{Key: "seats", Operator: "less", Value: 5.0}}}, Ask{Attributes: map[string]any{"seats": 12.0}}, store.Person{}, ReasonAttributes},
		{"attribute in", survey.Display{Attributes: []survey.AttributeRule{{Key: "plan", Operator: "in", Value: []any{"pro", "team"}}}}, Ask{Attributes: map[string]any{"plan": "team"}}, store.Person{}, ""},
		{"attribute not-in, missing", survey.Display{Attributes: []survey.AttributeRule{{Key: "plan", Operator: "not-in", Value: []any{"free"}}}}, Ask{}, store.Person{}, ""},
		{"attribute not-equal", survey.Display{Attributes: []survey.AttributeRule{{Key: "beta", Operator: "not-equal", Value: true}}}, Ask{Attributes: map[string]any{"beta": true}}, store.Person{}, ReasonAttributes},
		{"attribute contains", survey.Display{Attributes: []survey.AttributeRule{{Key: "email", Operator: "contains", Value: "@acme."}}}, Ask{Attributes: map[string]any{"email": "ann@acme.io"}}, store.Person{}, ""},
		{"attribute exists", survey.Display{Attributes: []survey.AttributeRule{{Key: "beta", Operator: "exists"}}}, Ask{Attributes: map[string]any{"beta": false}}, store.Person{}, ""},
		{"attribute not-exists", survey.Display{Attributes: []survey.AttributeRule{{Key: "beta", Operator: "not-exists"}}}, Ask{Attributes: map[string]any{"beta": false}}, store.Person{}, ReasonAttributes},
		{"responded, until-responded", survey.Display{}, Ask{Respondent: "responder"}, store.Person{Surveys: map[string]store.Seen{"s1": {Views: 1}}}, ReasonResponded},
		{"responded, always", survey.Display{Recontact: "always"}, Ask{Respondent: "responder"}, store.Person{Surveys: map[string]store.Seen{"s1": {Views: 1}}}, ""},
		{"viewed, once", survey.Display{Recontact: "once"}, Ask{}, store.Person{Surveys: map[string]store.Seen{"s1": {Views: 1}}}, ReasonRecontact},
		{"dismissed within the recontact days", survey.Display{Recontact: "always", RecontactDays: 7}, Ask{},
			store.Person{Surveys: map[string]store.Seen{"s1": {Views: 1, LastViewed: now.Add(-30 * day), LastDismissed: now.Add(-6 * day)}}}, ReasonRecontact},
		{"after the recontact days", survey.Display{Recontact: "always", RecontactDays: 7}, Ask{},
			store.Person{Surveys: map[string]store.Seen{"s1": {Views: 1, LastViewed: now.Add(-8 * day)}}}, ""},
		{"max displays", survey.Display{Recontact: "always", MaxDisplays: 2}, Ask{}, store.Person{Surveys: map[string]store.Seen{"s1": {Views: 2}}}, ReasonMaxDisplays},
		{"before its start", survey.Display{StartsAt: ptr(now.Add(time.Hour))}, Ask{}, store.Person{}, ReasonSchedule},
		{"at its end", survey.Display{EndsAt: ptr(now)}, Ask{}, store.Person{}, ReasonSchedule},
		{"within its schedule", survey.Display{StartsAt: ptr(now.Add(-time.Hour)), EndsAt: ptr(now.Add(time.Hour))}, Ask{}, store.Person{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// "responder" has responded to every survey; the others to none.
			responded := func(string) (bool, error) { return tt.ask.Respondent == "responder", nil }
			got := decide(t, tt.ask, []*Rules{rules(t, "s1", time.Hour, &tt.d)}, tt.person, 0, Lookups{Responded: responded})
			want := Decision{SurveyID: "s1"}
			if tt.want != "" {
				want = Decision{Reason: tt.want}
			}
			if got != want {
				t.Errorf("decision %+v, want %+v", got, want)
			}
		})
	}
}

// The team's cooldown holds back every survey but those that ignore it; the response limit
// and the app's audience are asked last, and only of a survey that passed the rest.
func TestCooldownLimitAudience(t *testing.T) {
	// A view of another survey of the team, 47 hours ago.
	p := store.Person{Surveys: map[string]store.Seen{"elsewhere": {Views: 1, LastViewed: now.Add(-47 * time.Hour)}}}
	plain := rules(t, "s1", time.Hour, &survey.Display{})
	if got := decide(t, Ask{}, []*Rules{plain}, p, 48*time.Hour, Lookups{}); got.Reason != ReasonCooldown {
		t.Errorf("within the cooldown: %+v", got)
	}
	if got := decide(t, Ask{}, []*Rules{plain}, p, 46*time.Hour, Lookups{}); got.SurveyID != "s1" {
		t.Errorf("after the cooldown: %+v", got)
	}
	exempt := rules(t, "s2", time.Hour, &survey.Display{IgnoreCooldown: true})
	if got := decide(t, Ask{}, []*Rules{plain, exempt}, p, 48*time.Hour, Lookups{}); got.SurveyID != "s2" {
		t.Errorf("a survey that ignores the cooldown: %+v", got)
	}

	asked := map[string]int{}
	limited := rules(t, "s3", time.Hour, &survey.Display{ResponseLimit: 100, Events: []string{"x"}})
	l := Lookups{Responses: func(id string) (int64, error) { asked[id]++; return 100, nil },
		Audience: func(id string) (bool, error) { asked["audience "+id]++; return id != "s4", nil }}
	if got := decide(t, Ask{}, []*Rules{limited}, store.Person{}, 0, l); got.Reason != ReasonEvent || asked["s3"] != 0 {
		t.Errorf("a survey held back by its event: %+v, responses asked %d times", got, asked["s3"])
	}
	if got := decide(t, Ask{Event: "x"}, []*Rules{limited}, store.Person{}, 0, l); got.Reason != ReasonResponseLimit || asked["s3"] != 1 {
		t.Errorf("a survey at its response limit: %+v", got)
	}
	refused := rules(t, "s4", time.Hour, &survey.Display{})
	if got := decide(t, Ask{}, []*Rules{refused}, store.Person{}, 0, l); got.Reason != ReasonAudience {
		t.Errorf("a survey the app refuses: %+v", got)
	}
	failing := Lookups{Audience: func(string) (bool, error) { return false, errors.New("session store down") }}
	only := []*Rules{refused}
	if _, err := Decide(Ask{Now: now}, only, OnPage(Ask{Now: now}, only), store.Person{}, 0, failing); err == nil {
		t.Error("an Audience error was not returned")
	}
}

// Prompted surveys come first, oldest prompt first; then priority, then the newest. A prompt
// lifts the page's and the attributes' rules, not the history's; an expired one does nothing.
// A survey without rules is picked only when prompted. The reason is that of the best candidate
// the page could show.
func TestOrderAndPrompts(t *testing.T) {
	older := rules(t, "older", 48*time.Hour, &survey.Display{})
	newer := rules(t, "newer", time.Hour, &survey.Display{})
	high := rules(t, "high", 72*time.Hour, &survey.Display{Priority: 5})
	bare := rules(t, "bare", 2*time.Hour, nil)
	onBilling := rules(t, "billing", 3*time.Hour, &survey.Display{URLs: []survey.URLRule{{Match: "prefix", Value: "/billing"}},
		Attributes: []survey.AttributeRule{{Key: "plan", Operator: "equal", Value: "pro"}}, Percentage: ptr(0.01)})

	if got := decide(t, Ask{}, []*Rules{older, newer}, store.Person{}, 0, Lookups{}); got.SurveyID != "newer" {
		t.Errorf("between equal priorities: %+v, want the newest", got)
	}
	if got := decide(t, Ask{}, []*Rules{older, newer, high}, store.Person{}, 0, Lookups{}); got.SurveyID != "high" {
		t.Errorf("a higher priority: %+v", got)
	}
	if got := decide(t, Ask{}, []*Rules{bare}, store.Person{}, 0, Lookups{}); got.Reason != ReasonNoSurvey {
		t.Errorf("a survey without rules, unprompted: %+v", got)
	}
	prompts := []store.Prompt{{SurveyID: "bare", CreatedAt: now.Add(-time.Hour)}, {SurveyID: "billing", CreatedAt: now.Add(-2 * time.Hour)},
		{SurveyID: "newer", CreatedAt: now.Add(-3 * time.Hour), ExpiresAt: ptr(now)}}
	all := []*Rules{older, newer, high, bare, onBilling}
	if got := decide(t, Ask{URL: "/home"}, all, store.Person{Prompts: prompts}, 0, Lookups{}); got.SurveyID != "billing" {
		t.Errorf("prompted surveys, off their page, without the attribute, sampled out: %+v, want the oldest prompt's", got)
	}
	answered := func(ids ...string) Lookups {
		return Lookups{Responded: func(id string) (bool, error) { return slices.Contains(ids, id), nil }}
	}
	if got := decide(t, Ask{URL: "/home"}, all, store.Person{Prompts: prompts}, 0, answered("billing")); got.SurveyID != "bare" {
		t.Errorf("the oldest prompt's survey answered: %+v, want the next prompt's", got)
	}
	// The newer of the two (billing) is off its page, the older, on it, answered: the older's
	// reason, not the newer's.
	if got := decide(t, Ask{URL: "/home"}, []*Rules{older, onBilling}, store.Person{}, 0, answered("older")); got.Reason != ReasonResponded {
		t.Errorf("nothing to show: %+v, want the reason of the best candidate on the page (responded)", got)
	}
	// Surveys off the page are not checked but for the reason: the best one on the page gives
	// it when it comes first, and one further down the page's list is still picked.
	onHome := rules(t, "home", 4*time.Hour, &survey.Display{URLs: []survey.URLRule{{Match: "exact", Value: "/home"}}})
	if got := decide(t, Ask{URL: "/home"}, []*Rules{high, onBilling}, store.Person{}, 0, answered("high")); got.Reason != ReasonResponded {
		t.Errorf("the best on the page answered, the other off it: %+v, want responded", got)
	}
	if got := decide(t, Ask{URL: "/home"}, []*Rules{high, onBilling, onHome}, store.Person{}, 0, answered("high")); got.SurveyID != "home" {
		t.Errorf("the best answered, the next off the page, the last on it: %+v, want the last", got)
	}
}

// Sampling keeps about the share asked for, and the same answer for the same person.
func TestSampled(t *testing.T) {
	for _, pct := range []float64{0.01, 10, 50, 100} {
		in := 0
		const people = 20_000
		for i := range people {
			who := fmt.Sprint("user", i)
			got := Sampled("s1", who, pct)
			if got != Sampled("s1", who, pct) {
				t.Fatalf("%s sampled differently twice", who)
			}
			if got {
				in++
			}
		}
		share := 100 * float64(in) / people
		if share < pct*0.9-0.1 || share > pct*1.1+0.1 {
			t.Errorf("at %v%%: %.2f%% of %d people sampled in", pct, share, people)
		}
	}
	same := 0
	for i := range 1000 {
		if Sampled("s1", fmt.Sprint("u", i), 50) == Sampled("s2", fmt.Sprint("u", i), 50) {
			same++
		}
	}
	if same < 400 || same > 600 {
		t.Errorf("two surveys at 50%% agree on %d of 1000 people: they should sample independently", same)
	}
}
