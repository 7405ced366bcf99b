package targeting

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/svc-feedback/svc/survey"
)

// Pages answers as OnPage does, for pages asked again, across the start of a survey's schedule,
// for an ask dated before the Pages were made, and past the pages it remembers.
func TestPagesAnswerAsOnPage(t *testing.T) {
	later := now.Add(time.Hour)
	surveys := []*Rules{
		rules(t, "docs", time.Hour, &survey.Display{URLs: []survey.URLRule{{Match: "prefix", Value: "/docs"}}}),
		rules(t, "soon", 2*time.Hour, &survey.Display{URLs: []survey.URLRule{{Match: "prefix", Value: "/docs"}}, StartsAt: &later}),
		rules(t, "event", 3*time.Hour, &survey.Display{Events: []string{"export"}}),
		rules(t, "bare", 4*time.Hour, nil),
	}
	Sort(surveys)
	p := NewPages(surveys, now)
	asks := []Ask{
		{URL: "/docs/a", Now: now}, {URL: "/docs/a", Now: now.Add(time.Minute)}, // the same page again
		{URL: "/docs/a", Now: later}, {URL: "/docs/a", Now: later.Add(time.Minute)}, // the schedule started
		{URL: "/docs/a", Now: now.Add(-time.Minute)}, // before the Pages were made
		{URL: "/home", Event: "export", Now: now}, {URL: "/home", Now: now},
	}
	for i := range maxPages + 10 { // past the bound, answers still right
		asks = append(asks, Ask{URL: fmt.Sprintf("/docs/%d", i), Now: now})
	}
	asks = append(asks, asks[:7]...)
	for _, a := range asks {
		if got, want := p.OnPage(a), OnPage(a, surveys); !slices.Equal(got.IDs, want.IDs) || !slices.Equal(got.Surveys, want.Surveys) {
			t.Errorf("%s %q at %v: %v, want %v", a.URL, a.Event, a.Now, got, want)
		}
	}
	if got := p.OnPage(Ask{URL: "/docs/a", Now: later}); !slices.Contains(got.IDs, "soon") {
		t.Errorf("after its start: %v, want the scheduled survey", got)
	}
	if len(p.answers) > maxPages {
		t.Errorf("%d pages remembered, want at most %d", len(p.answers), maxPages)
	}
}
