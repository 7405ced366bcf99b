package targeting

import (
	"slices"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// URL rules see the page's fragment: a value with a scheme matches the whole URL, one from the
// path on matches the path, query and fragment, with each kind of match and in excludeUrls.
func TestURLRulesSeeTheFragment(t *testing.T) {
	rule := func(match, value string) []survey.URLRule { return []survey.URLRule{{Match: match, Value: value}} }
	tests := []struct {
		name    string
		d       survey.Display
		url     string
		matches bool
	}{
		{"prefix, hash route, path only", survey.Display{URLs: rule("prefix", "/app#/settings")}, "/app#/settings/team", true},
		{"prefix, hash route, whole URL asked", survey.Display{URLs: rule("prefix", "/app#/settings")}, "https://app.example/app#/settings", true},
		{"prefix, another hash route", survey.Display{URLs: rule("prefix", "/app#/settings")}, "https://app.example/app#/billing", false},
		{"prefix, no fragment", survey.Display{URLs: rule("prefix", "/app#/settings")}, "https://app.example/app", false},
		{"prefix, the query before the fragment", survey.Display{URLs: rule("prefix", "/app?tab=2#/settings")}, "https://app.example/app?tab=2#/settings", true},
		{"prefix, no path", survey.Display{URLs: rule("prefix", "/#/settings")}, "https://app.example#/settings", true},
		{"prefix on the path still matches with a fragment", survey.Display{URLs: rule("prefix", "/billing")}, "https://app.example/billing#top", true},
		{"exact, hash route", survey.Display{URLs: rule("exact", "/app#/settings")}, "https://app.example/app#/settings", true},
		{"exact, hash route, deeper", survey.Display{URLs: rule("exact", "/app#/settings")}, "/app#/settings/team", false},
		{"exact path, a fragment after it", survey.Display{URLs: rule("exact", "/billing")}, "/billing#plans", false},
		{"exact path, an empty fragment is none", survey.Display{URLs: rule("exact", "/billing")}, "https://app.example/billing#", true},
		{"contains, in the fragment", survey.Display{URLs: rule("contains", "settings")}, "https://app.example/app#/settings", true},
		{"contains, across the fragment", survey.Display{URLs: rule("contains", "app#/set")}, "/app#/settings", true},
		{"regex, on the fragment", survey.Display{URLs: rule("regex", `^/app#/(settings|team)$`)}, "https://app.example/app#/team", true},
		{"regex, anchored at the end, a fragment after", survey.Display{URLs: rule("regex", `^/billing$`)}, "/billing#top", false},
		{"whole URL with a fragment", survey.Display{URLs: rule("exact", "https://app.example/app#/settings")}, "https://app.example/app#/settings", true},
		{"whole URL with a fragment, another route", survey.Display{URLs: rule("exact", "https://app.example/app#/settings")}, "https://app.example/app#/billing", false},
		{"whole URL prefix, a fragment", survey.Display{URLs: rule("prefix", "https://app.example/app#/set")}, "https://app.example/app#/settings", true},
		{"whole URL regex, a fragment", survey.Display{URLs: rule("regex", `^https://app\.example/app#/s`)}, "https://app.example/app#/settings", true},
		{"from the path on, a URL in its query", survey.Display{URLs: rule("prefix", "/login?next=https://")}, "https://app.example/login?next=https://app.example/#/x", true},
		{"excluded fragment", survey.Display{ExcludeURLs: rule("prefix", "/app#/billing")}, "https://app.example/app#/billing/plans", false},
		{"excluded fragment, another route", survey.Display{ExcludeURLs: rule("prefix", "/app#/billing")}, "https://app.example/app#/settings", true},
		{"excluded whole URL with a fragment", survey.Display{ExcludeURLs: rule("contains", "#/billing")}, "https://app.example/app#/billing", false},
		{"excluded by a rule on the fragment, included by the path", survey.Display{URLs: rule("prefix", "/app"), ExcludeURLs: rule("contains", "#/admin")}, "/app#/admin", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decide(t, Ask{URL: tt.url}, []*Rules{rules(t, "s1", time.Hour, &tt.d)}, store.Person{}, 0, Lookups{})
			want := Decision{Reason: ReasonURL}
			if tt.matches {
				want = Decision{SurveyID: "s1"}
			}
			if got != want {
				t.Errorf("%s on %s: %+v, want %+v", tt.d.URLs, tt.url, got, want)
			}
		})
	}
}

// A survey the page could not show (another page's, or another event's) gives at most url or
// event, whatever else would hold it back, and nothing of the person is asked for it; the reason
// is that of the best candidate the page could show, when there is one.
func TestReasonOnlyFromThePage(t *testing.T) {
	on := func(path string) []survey.URLRule { return []survey.URLRule{{Match: "prefix", Value: path}} }
	later := rules(t, "later", time.Hour, &survey.Display{URLs: on("/later"), StartsAt: ptr(now.Add(48 * time.Hour)), Priority: 9})
	ended := rules(t, "ended", 2*time.Hour, &survey.Display{URLs: on("/ended"), EndsAt: ptr(now.Add(-time.Hour)), Priority: 8})
	pro := rules(t, "pro", 3*time.Hour, &survey.Display{URLs: on("/pro"), Priority: 7,
		Attributes: []survey.AttributeRule{{Key: "plan", Operator: "equal", Value: "pro"}}})
	sampled := rules(t, "sampled", 4*time.Hour, &survey.Display{URLs: on("/sampled"), Percentage: ptr(0.01), Priority: 6})
	seen := rules(t, "seen", 5*time.Hour, &survey.Display{URLs: on("/seen"), Recontact: "once", Priority: 5})
	limited := rules(t, "limited", 6*time.Hour, &survey.Display{URLs: on("/limited"), ResponseLimit: 1, Priority: 4})
	export := rules(t, "export", 7*time.Hour, &survey.Display{URLs: on("/later"), Events: []string{"export"}, Priority: 3})
	all := []*Rules{later, ended, pro, sampled, seen, limited, export}
	p := store.Person{Surveys: map[string]store.Seen{"seen": {Views: 1, LastViewed: now.Add(-time.Hour)}}}

	asked := map[string]int{}
	l := Lookups{
		Responded: func(id string) (bool, error) { asked["responded "+id]++; return true, nil },
		Responses: func(id string) (int64, error) { asked["responses "+id]++; return 1, nil },
		Audience:  func(id string) (bool, error) { asked["audience "+id]++; return false, nil },
	}
	for _, tc := range []struct {
		url, event, want string
		asks             []string // the lookups the decision may make
	}{
		{"/pricing", "", ReasonURL, nil},
		{"/pricing", "export", ReasonURL, nil},
		{"/later", "", ReasonSchedule, nil},
		{"/later", "export", ReasonResponded, []string{"responded export"}}, // the scheduled one awaits a page view
		{"/ended", "", ReasonSchedule, nil},
		{"/ended", "export", ReasonEvent, nil}, // "ended" awaits a page view: its URL let the page through
		{"/pro", "", ReasonAttributes, nil},
		{"/sampled", "", ReasonSampledOut, nil},
		{"/seen", "", ReasonRecontact, nil},
		{"/limited", "", ReasonResponded, []string{"responded limited"}},
	} {
		clear(asked)
		got := decide(t, Ask{URL: tc.url, Event: tc.event, Respondent: "ann"}, all, p, 0, l)
		if got.Reason != tc.want || got.SurveyID != "" {
			t.Errorf("on %s, event %q: %+v, want %s", tc.url, tc.event, got, tc.want)
		}
		for k := range asked {
			if !slices.Contains(tc.asks, k) {
				t.Errorf("on %s, event %q: asked %s", tc.url, tc.event, k)
			}
		}
	}

	// The best candidate is off the page and a lesser one on it: the one on it gives the reason.
	plain := rules(t, "plain", 8*time.Hour, &survey.Display{URLs: on("/pricing")})
	if got := decide(t, Ask{URL: "/pricing"}, []*Rules{later, plain}, store.Person{}, 0, l); got.Reason != ReasonResponded {
		t.Errorf("the best off the page, one on it answered: %+v, want responded", got)
	}
	// On the page, the best is outside its schedule and a lesser one answered: the schedule.
	laterToo := rules(t, "later-too", 9*time.Hour, &survey.Display{URLs: on("/later")})
	if got := decide(t, Ask{URL: "/later"}, []*Rules{later, laterToo}, store.Person{}, 0, l); got.Reason != ReasonSchedule {
		t.Errorf("the best on the page scheduled later, a lesser one answered: %+v, want schedule", got)
	}
	// ... and the other way round.
	first := rules(t, "first", 10*time.Hour, &survey.Display{URLs: on("/later"), Priority: 10})
	if got := decide(t, Ask{URL: "/later"}, []*Rules{later, first}, store.Person{}, 0, l); got.Reason != ReasonResponded {
		t.Errorf("the best on the page answered, a lesser one scheduled later: %+v, want responded", got)
	}
	// A lesser one on the page still picked past a scheduled one.
	if got := decide(t, Ask{URL: "/later"}, []*Rules{later, laterToo}, store.Person{}, 0, Lookups{}); got.SurveyID != "later-too" {
		t.Errorf("past the scheduled survey: %+v, want later-too", got)
	}

	// A prompt lifts the page's rules, not the schedule: a prompted survey tells its schedule on
	// any page.
	prompted := store.Person{Prompts: []store.Prompt{{SurveyID: "later", CreatedAt: now.Add(-time.Hour)}}}
	if got := decide(t, Ask{URL: "/pricing"}, all, prompted, 0, Lookups{}); got.Reason != ReasonSchedule {
		t.Errorf("a prompted survey scheduled later, elsewhere: %+v, want schedule", got)
	}
}

// Pages remembers which surveys of a page are held back by their schedule alone, as OnPage
// tells them, and Decide gives the same answer from either.
func TestPagesRememberTheScheduled(t *testing.T) {
	later := rules(t, "later", time.Hour, &survey.Display{URLs: []survey.URLRule{{Match: "prefix", Value: "/later"}}, StartsAt: ptr(now.Add(time.Hour))})
	now2 := rules(t, "now", 2*time.Hour, &survey.Display{URLs: []survey.URLRule{{Match: "prefix", Value: "/later"}}})
	surveys := []*Rules{later, now2}
	Sort(surveys)
	pages := NewPages(surveys, now)
	answered := Lookups{Responded: func(string) (bool, error) { return true, nil }}
	for range 2 { // the second time from memory
		ask := Ask{URL: "/later", Now: now, Respondent: "ann"}
		m := pages.OnPage(ask)
		if !slices.Equal(m.IDs, []string{"now"}) || len(m.page) != 2 {
			t.Fatalf("on the page: %v, the page's %d", m.IDs, len(m.page))
		}
		if d, err := Decide(ask, surveys, m, store.Person{}, 0, answered); err != nil || d.Reason != ReasonSchedule {
			t.Errorf("decided %+v, %v; want schedule", d, err)
		}
	}
}

// The check before parsing a number changes no answer of survey.NumberOf.
func TestNumberOfAsSurvey(t *testing.T) {
	for _, v := range []any{"42", " 42 ", "+1", "-.5", ".5", "5.", "1e3", "-1E-3", "0x1p-2", "1_000", "Inf", "-inf", "+Infinity", "NaN",
		"", " ", "+", "-", ".", "pro", "free", "١٢", "e5", 12.0, true, nil} {
		x, ok := numberOf(v)
		y, wantOK := survey.NumberOf(v)
		if ok != wantOK || x != y {
			t.Errorf("%#v: %v, %v; survey.NumberOf says %v, %v", v, x, ok, y, wantOK)
		}
	}
}
