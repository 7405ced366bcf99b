package targeting

import (
	"fmt"
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// BenchmarkDecide is one decision among 100 surveys with URL and attribute rules, for a person
// without history, on a page one of them matches, with the page's surveys remembered (Pages) as
// the handler keeps them: the page given as the widget sends it (its whole URL, with a
// fragment) and as a path.
func BenchmarkDecide(b *testing.B) {
	surveys := make([]*Rules, 100)
	for i := range surveys {
		r, err := Compile(fmt.Sprintf("s%03d", i), now, &survey.Display{
			URLs:       []survey.URLRule{{Match: survey.MatchPrefix, Value: fmt.Sprintf("/app/page-%d/", i)}},
			Attributes: []survey.AttributeRule{{Key: "plan", Operator: survey.OpNotEqual, Value: "free"}},
			Priority:   float64(i % 3),
		})
		if err != nil {
			b.Fatal(err)
		}
		surveys[i] = r
	}
	Sort(surveys)
	for _, url := range []string{"https://app.example.com/app/page-42/settings?tab=team#/members", "/app/page-42/settings"} {
		b.Run(map[bool]string{true: "whole-url", false: "path"}[url[0] != '/'], func(b *testing.B) {
			pages := NewPages(surveys, now)
			ask := Ask{Respondent: "visitor1", URL: url, Attributes: map[string]any{"plan": "pro"}, Now: now}
			b.ReportAllocs()
			for b.Loop() {
				d, err := Decide(ask, surveys, pages.OnPage(ask), store.Person{}, 0, Lookups{})
				if err != nil || d.SurveyID != "s042" {
					b.Fatalf("%+v, %v", d, err)
				}
			}
		})
	}
}
