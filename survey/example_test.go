package survey_test

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/svc-feedback/svc/survey"
)

// A response's data decodes into typed answers, which the survey's definition validates and
// routes.
func ExampleAnswers() {
	def := survey.Definition{
		Title: "Feedback",
		Questions: []survey.Question{
			{ID: "stars", Title: "How do you rate us?", Position: 0, Properties: survey.RatingProperties{Scale: 5},
				RoutingLogic: survey.Routing{Type: survey.RoutingAlways, Target: survey.Target{Type: survey.TargetNext}}},
			{ID: "why", Title: "Why?", Position: 1, Properties: survey.OpenEndedProperties{Max: 500},
				RoutingLogic: survey.Routing{Type: survey.RoutingAlways, Target: survey.Target{Type: survey.TargetEnd}}},
		},
	}
	if err := def.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	var data survey.Answers
	if err := json.Unmarshal([]byte(`{"stars":4,"why":"Fast exports"}`), &data); err != nil {
		fmt.Println(err)
		return
	}
	ids := make([]string, 0, len(data))
	for id := range data {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		switch a := data[id].(type) {
		case survey.Number:
			fmt.Printf("%s: number %v\n", id, float64(a))
		case survey.Text:
			fmt.Printf("%s: text %q\n", id, string(a))
		}
	}
	fmt.Println("valid:", def.ValidateAnswers(data) == nil)
	if next, ok, err := def.Next("stars", data); err == nil && ok {
		fmt.Println("after stars:", next.ID)
	}
	fmt.Println("out of range:", def.ValidateAnswers(survey.Answers{"stars": survey.Number(6)}))
	// Output:
	// stars: number 4
	// why: text "Fast exports"
	// valid: true
	// after stars: why
	// out of range: invalid answer to question "stars": a rating answer must be an integer from 1 to 5
}
