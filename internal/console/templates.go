package console

import (
	"encoding/json"
	"fmt"

	"github.com/svc-feedback/svc/survey"
)

// template is a survey a product person starts from.
type surveyTemplate struct {
	ID, Name string
	JSON     string
}

// surveyTemplates are the console's starting points for a new survey, written as a
// person would write them over the management API, defaults left out.
var surveyTemplates = []surveyTemplate{
	{"nps", "Net Promoter Score", `{"title":"How likely are you to recommend us?","questions":[
		{"id":"nps","title":"How likely are you to recommend us to a friend or colleague?","required":true,
		 "properties":{"type":"rating","scale":10,"display":"nps","labels":{"lower":"Not likely","upper":"Very likely"}}},
		{"id":"why","title":"What is the main reason for your score?","properties":{"type":"open-ended","placeholder":"Your reason"}}]}`},
	{"csat", "Customer satisfaction", `{"title":"How satisfied are you?","questions":[
		{"id":"csat","title":"How satisfied are you with us today?","required":true,
		 "properties":{"type":"rating","scale":5,"display":"star"}},
		{"id":"improve","title":"What could we do better?","properties":{"type":"open-ended"}}]}`},
	{"feature", "Feature request", `{"title":"What should we build next?","questions":[
		{"id":"area","title":"Which part of the product is it about?","required":true,
		 "properties":{"type":"single-select","options":[{"value":"Reports"},{"value":"Integrations"},{"value":"Billing"}],
		 "editable":{"label":"Something else","max":80}}},
		{"id":"idea","title":"What would you like it to do?","required":true,"properties":{"type":"open-ended"}}]}`},
	{"bug", "Bug report", `{"title":"Report a problem","questions":[
		{"id":"bug","title":"What went wrong?","required":true,
		 "properties":{"type":"bug-report","enableScreenshot":true,"enableRecording":false}}]}`},
	{"blank", "Blank", `{"title":"Untitled survey","questions":[
		{"id":"question1","title":"Your question","properties":{"type":"open-ended"}}]}`},
}

// templateDefinition is a template's survey, with the management API's defaults filled in,
// normalized and valid.
func templateDefinition(id string) (survey.Definition, error) {
	for _, t := range surveyTemplates {
		if t.ID != id {
			continue
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal([]byte(t.JSON), &members); err != nil {
			return survey.Definition{}, fmt.Errorf("template %s: %w", id, err)
		}
		if err := survey.CheckSurvey(members); err != nil {
			return survey.Definition{}, fmt.Errorf("template %s: %w", id, err)
		}
		if err := survey.FillDefaults(members); err != nil {
			return survey.Definition{}, fmt.Errorf("template %s: %w", id, err)
		}
		b, err := json.Marshal(members)
		if err != nil {
			return survey.Definition{}, err
		}
		var d survey.Definition
		if err := json.Unmarshal(b, &d); err != nil {
			return survey.Definition{}, fmt.Errorf("template %s: %w", id, err)
		}
		d.Normalize()
		return d, d.Validate()
	}
	return survey.Definition{}, errUnknownTemplate
}
