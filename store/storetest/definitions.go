package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// everyMember is a definition that sets every member a survey holds, each to a value other
// than its zero value, so that a Store that drops or changes one is seen.
func everyMember() survey.Definition {
	s := func(v string) *string { return &v }
	n := func(v int) *int { return &v }
	pct := 25.5
	start, end := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC), time.Date(2027, 1, 1, 9, 0, 0, 0, time.UTC)
	next, stop := survey.Target{Type: survey.TargetNext}, survey.Target{Type: survey.TargetEnd}
	switchOn := func(op string, v survey.Operand, to survey.Target) survey.Routing {
		return survey.Routing{Type: survey.RoutingSwitch, Cases: []survey.Case{{Operator: op, Value: v, Target: to}}, Default: next}
	}
	return survey.Definition{
		Title: "Every member", Description: s("All of them"), IsBackNavigationAllowed: true, BackButtonLabel: "Previous",
		Confirmation: survey.Confirmation{Title: "Thanks", Description: "Read by people", ButtonText: "Done"},
		Questions: []survey.Question{
			{ID: "score", Title: "How likely?", Description: s("Be honest"), Position: 0, Required: true,
				Properties: survey.RatingProperties{ButtonLabel: "On", ShouldAutoProgress: true, Scale: 10,
					Labels: &survey.RatingLabels{Lower: s("No"), Upper: s("Yes")}, Display: s(survey.DisplayNPS)},
				RoutingLogic: switchOn(survey.OpLessOrEqual, survey.Operand{Number: 6, IsNumber: true}, survey.Target{Type: survey.TargetJump, Position: 30})},
			{ID: "channel", Title: "Which?", Position: 10,
				Properties: survey.SingleSelectProperties{ShouldAutoProgress: true, ButtonLabel: "On",
					Options:  []survey.Option{{Value: "Email", Description: s("Write")}, {Value: "Chat", Label: s("Live chat")}},
					Editable: &survey.Editable{Label: "Other", Max: 40, Description: s("Yours")}},
				RoutingLogic: switchOn(survey.OpEqual, survey.Operand{Text: "Email"}, stop)},
			{ID: "missing", Title: "What is missing?", Position: 20,
				Properties: survey.MultiSelectProperties{ButtonLabel: "On", Options: []survey.Option{{Value: "Speed"}, {Value: "Price"}},
					Editable: &survey.Editable{Label: "More", Max: 30}, Max: n(2), Display: s("checkbox")},
				RoutingLogic: switchOn(survey.OpContains, survey.Operand{Text: "Price"}, stop)},
			{ID: "why", Title: "Why?", Position: 30,
				Properties:   survey.OpenEndedProperties{Placeholder: s("Tell us"), ButtonLabel: "On", Max: 300},
				RoutingLogic: switchOn(survey.OpNotContains, survey.Operand{Text: "bug"}, next)},
			{ID: "note", Title: "A note", Position: 40,
				Properties:   survey.StatementProperties{ButtonLabel: "Open", ButtonURL: s("https://example.com/notes")},
				RoutingLogic: survey.Routing{Type: survey.RoutingAlways, Target: next}},
			{ID: "bug", Title: "A bug", Position: 50,
				Properties: survey.BugReportProperties{Placeholder: s("What?"), ButtonLabel: "Send", EnableScreenshot: true,
					EnableRecording: true, DetailsLabel: "Details", DetailsPlaceholder: s("Steps"), RedactClasses: []string{"secret", "pii"}},
				RoutingLogic: survey.Routing{Type: survey.RoutingAlways, Target: stop}},
		},
		Display: &survey.Display{
			URLs:        []survey.URLRule{{Match: survey.MatchPrefix, Value: "/app#/settings"}},
			ExcludeURLs: []survey.URLRule{{Match: survey.MatchRegex, Value: "^/admin"}},
			Attributes: []survey.AttributeRule{{Key: "plan", Operator: survey.OpIn, Value: []any{"pro", "team"}},
				{Key: "seats", Operator: survey.OpGreater, Value: 3.0}, {Key: "beta", Operator: survey.OpExists}},
			Events: []string{"checkout"}, DelaySeconds: 5, Percentage: &pct, Recontact: survey.RecontactAlways, RecontactDays: 30,
			MaxDisplays: 3, StartsAt: &start, EndsAt: &end, ResponseLimit: 1000, IgnoreCooldown: true, Priority: 2.5,
		},
		Languages: &survey.Languages{Default: "en", Translations: map[string]survey.Translation{"de": {
			Title: s("Alles"), Description: s("Jedes Feld"), BackButtonLabel: s("Zurück"),
			Confirmation: &survey.ConfirmationTranslation{Title: s("Danke"), Description: s("Gelesen"), ButtonText: s("Fertig")},
			Questions: map[string]survey.QuestionTranslation{
				"score":   {Title: s("Wie?"), Description: s("Ehrlich"), ButtonLabel: s("Weiter"), Labels: &survey.RatingLabels{Lower: s("Nein"), Upper: s("Ja")}},
				"channel": {Options: map[string]string{"Email": "E-Mail"}, EditableLabel: s("Anderes")},
				"why":     {Placeholder: s("Erzählen")},
				"bug":     {DetailsLabel: s("Einzelheiten"), DetailsPlaceholder: s("Schritte")},
			},
		}}},
		Link: &survey.Link{Anonymous: true},
	}
}

// testDefinitionKeptWhole: a survey's definition comes back from the Store as it was saved,
// every member of it, on create and on update; one that the definition's checks refuse (a
// routing case that can never hold) is not saved by either, and is ErrInvalid.
func testDefinitionKeptWhole(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := newSurvey("a", t0)
	sv.Definition = everyMember()
	if err := sv.Definition.Validate(); err != nil {
		t.Fatalf("the definition of every member is not valid: %v", err)
	}
	mustSurvey(t, s, sv)
	got, err := s.Survey(ctx, "a", sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(everyMember(), got.Definition); diff != "" {
		t.Errorf("the definition as stored (-saved +read):\n%s", diff)
	}

	plain := newSurvey("a", t0)
	mustSurvey(t, s, plain)
	plain.Definition, plain.UpdatedAt = everyMember(), t0.Add(time.Minute)
	if err := s.UpdateSurvey(ctx, plain); err != nil {
		t.Fatalf("UpdateSurvey: %v", err)
	}
	if got, err := s.Survey(ctx, "a", plain.ID); err != nil || !cmp.Equal(everyMember(), got.Definition) {
		t.Errorf("after UpdateSurvey the definition is not as saved: %v\n%s", err, cmp.Diff(everyMember(), got.Definition))
	}

	never := newSurvey("a", t0)
	never.Definition.Questions[0].RoutingLogic.Cases[0].Value = survey.Operand{Text: "six"} // the NPS question
	wantErr(t, "CreateSurvey with a case that never holds", s.CreateSurvey(ctx, never), store.ErrInvalid)
	if _, err := s.Survey(ctx, "a", never.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused survey was stored: %v", err)
	}
	plain.Definition = never.Definition
	wantErr(t, "UpdateSurvey with a case that never holds", s.UpdateSurvey(ctx, plain), store.ErrInvalid)
	_, err = store.ModifySurvey(ctx, s, "a", sv.ID, func(cur *store.Survey) error {
		cur.Definition.Questions[1].RoutingLogic.Cases[0].Value = survey.Operand{Text: "email"} // the option is "Email"
		return nil
	})
	wantErr(t, "ModifySurvey with a case that never holds", err, store.ErrInvalid)
	if got, err := s.Survey(ctx, "a", sv.ID); err != nil || !cmp.Equal(everyMember(), got.Definition) {
		t.Errorf("a refused change was stored: %v", err)
	}
}
