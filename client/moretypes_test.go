package client_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/survey"
)

// TestMoreTypesFromGo: a survey of the new question types is written from Go with their
// properties' types, answered with Bool, Fields, Choices and Text, and read back with the same
// types.
func TestMoreTypesFromGo(t *testing.T) {
	c, pc, _ := inProcess(t, nil)
	ctx := t.Context()
	label := func(s string) *string { return &s }
	sv, err := c.CreateSurvey(ctx, &client.SurveyInput{Status: "active", Definition: survey.Definition{Title: "More", Questions: []survey.Question{
		{ID: "grid", Title: "Rate each", Properties: survey.MatrixProperties{
			Rows: []survey.Choice{{Value: "speed", Label: label("Speed")}, {Value: "price"}}, Columns: []survey.Choice{{Value: "bad"}, {Value: "good"}}}},
		{ID: "order", Title: "Rank", Properties: survey.RankingProperties{Options: []survey.Choice{{Value: "a"}, {Value: "b"}}}},
		{ID: "when", Title: "When", Properties: survey.DateProperties{}},
		{ID: "agree", Title: "Terms", Properties: survey.ConsentProperties{Label: "I agree"}},
		{ID: "act", Title: "Book", Properties: survey.CTAProperties{ButtonLabel: "Book"}},
		{ID: "reach", Title: "Reach", Properties: survey.ContactProperties{Fields: []survey.ContactField{{ID: survey.ContactEmail, Required: true}}}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := sv.Questions[0].Properties.(survey.MatrixProperties); !ok || p.ButtonLabel != survey.DefaultButtonLabel || p.Rows[0].Text() != "Speed" {
		t.Errorf("the matrix as created: %#v", sv.Questions[0].Properties)
	}
	data := survey.Answers{"grid": survey.Fields{"speed": "good", "price": "bad"}, "order": survey.Choices{"b", "a"}, "when": survey.Text("2026-03-14"),
		"agree": survey.Bool(true), "act": survey.Text(survey.CTAClicked), "reach": survey.Fields{"email": "ann@example.com"}}
	if _, err := pc.PutResponse(ctx, sv.ID, "rmore000000000000000001", &client.ResponseInput{Respondent: "ann", Data: data, Metadata: map[string]string{}}); err != nil {
		t.Fatal(err)
	}
	r, err := c.GetResponse(ctx, sv.ID, "rmore000000000000000001")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(data, r.Data); diff != "" {
		t.Errorf("answers read back (-sent +read):\n%s", diff)
	}
	// A refused answer says why, naming the question.
	_, err = pc.PutResponse(ctx, sv.ID, "rmore000000000000000002", &client.ResponseInput{Respondent: "bob", Data: survey.Answers{"agree": survey.Bool(false)}, Metadata: map[string]string{}})
	if err == nil || !strings.Contains(err.Error(), `"agree"`) || !strings.Contains(err.Error(), "a consent answer is true") {
		t.Errorf("consent false: %v", err)
	}
}
