package survey_test

import (
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/svc-feedback/svc/survey"
)

// TestRoutingCases runs the routing cases the widget's tests run too, so that the browser and the
// server agree on every next question.
func TestRoutingCases(t *testing.T) {
	b, err := os.ReadFile("testdata/routing.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Groups []struct {
			Name      string            `json:"name"`
			Questions []survey.Question `json:"questions"`
			Cases     []struct {
				Name    string         `json:"name"`
				Current string         `json:"current"`
				Answers survey.Answers `json:"answers"`
				Want    *string        `json:"want"`
			} `json:"cases"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, g := range file.Groups {
		d := survey.Definition{Questions: g.Questions}
		sort.SliceStable(d.Questions, func(i, j int) bool { return d.Questions[i].Position < d.Questions[j].Position })
		for _, c := range g.Cases {
			q, ok, err := d.Next(c.Current, c.Answers)
			if err != nil {
				t.Errorf("%s: %s: %v", g.Name, c.Name, err)
				continue
			}
			got, want := "(end)", "(end)"
			if ok {
				got = q.ID
			}
			if c.Want != nil {
				want = *c.Want
			}
			if got != want {
				t.Errorf("%s: %s: Next(%q) = %s, want %s", g.Name, c.Name, c.Current, got, want)
			}
			ran++
		}
	}
	if ran < 50 {
		t.Fatalf("ran only %d routing cases", ran)
	}
}
