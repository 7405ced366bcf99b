package survey_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/survey"
)

// TestDefinitionRoundTrip checks that decoding and encoding a definition keeps exactly the
// members it had: every question type, every routing and target variant, null and absent
// optional members.
func TestDefinitionRoundTrip(t *testing.T) {
	in := survey.SampleJSON()
	var d survey.Definition
	if err := json.Unmarshal(in, &d); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	if err := json.Unmarshal(in, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round trip changed the definition (-want +got):\n%s", diff)
	}
}

func TestQuestionPropertiesVariants(t *testing.T) {
	d := survey.Sample()
	want := map[string]string{
		"nps": survey.TypeRating, "stars": survey.TypeRating, "favourite": survey.TypeSingleSelect,
		"missing": survey.TypeMultiSelect, "comments": survey.TypeOpenEnded,
		"thanks": survey.TypeStatement, "bug": survey.TypeBugReport,
	}
	for id, typ := range want {
		q, ok := d.Question(id)
		if !ok {
			t.Fatalf("question %q missing", id)
		}
		if q.Type() != typ {
			t.Errorf("question %q type = %q, want %q", id, q.Type(), typ)
		}
	}
	if p, ok := mustQuestion(t, d, "stars").Properties.(survey.RatingProperties); !ok || p.Scale != 5 {
		t.Errorf("stars properties = %#v, want RatingProperties with scale 5", p)
	}
}

func mustQuestion(t *testing.T, d survey.Definition, id string) *survey.Question {
	t.Helper()
	q, ok := d.Question(id)
	if !ok {
		t.Fatalf("question %q missing", id)
	}
	return q
}

// A question type of a newer version decodes (so a client reading a newer server's survey
// keeps working), writes back as it came, and is refused when a survey is validated for saving.
func TestUnknownQuestionType(t *testing.T) {
	in := `{"id":"a","title":"Slide","description":null,"position":1,"required":false,` +
		`"properties":{"type":"slider","min":0,"max":100,"buttonLabel":"Next"},` +
		`"routingLogic":{"type":"always","target":{"type":"next"}}}`
	var q survey.Question
	if err := json.Unmarshal([]byte(in), &q); err != nil {
		t.Fatalf("Unmarshal of a question of an unknown type: %v", err)
	}
	p, ok := q.Properties.(survey.UnknownProperties)
	if !ok || p.Type() != "slider" || q.Type() != "slider" {
		t.Fatalf("Properties = %#v, want UnknownProperties of type slider", q.Properties)
	}
	out, err := json.Marshal(q.Properties)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(asAny(t, []byte(`{"type":"slider","min":0,"max":100,"buttonLabel":"Next"}`)), asAny(t, out)); diff != "" {
		t.Errorf("written back (-want +got):\n%s", diff)
	}
	d := survey.Sample()
	d.Questions = append(d.Questions, q)
	d.Questions[len(d.Questions)-1].Position = 1000
	err = d.Validate()
	if !errors.Is(err, survey.ErrInvalidDefinition) || !strings.Contains(err.Error(), `unknown question type "slider"`) {
		t.Errorf("Validate with an unknown question type = %v, want ErrInvalidDefinition naming the type", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := map[string]string{
		"missing properties":     `{"id":"a","routingLogic":{"type":"always","target":{"type":"next"}}}`,
		"unknown routing":        `{"id":"a","properties":{"type":"statement","buttonLabel":"x"},"routingLogic":{"type":"maybe"}}`,
		"jump without target":    `{"id":"a","properties":{"type":"statement","buttonLabel":"x"},"routingLogic":{"type":"always","target":{"type":"jump"}}}`,
		"switch without default": `{"id":"a","properties":{"type":"statement","buttonLabel":"x"},"routingLogic":{"type":"switch","cases":[]}}`,
		"operand of bad type": `{"id":"a","properties":{"type":"statement","buttonLabel":"x"},"routingLogic":{"type":"switch","default":{"type":"end"},
			"cases":[{"type":"binary-operator","operator":"equal","value":{"type":"value","value":true},"target":{"type":"end"}}]}}`,
		"scale not an integer": `{"id":"a","properties":{"type":"rating","scale":4.5},"routingLogic":{"type":"always","target":{"type":"next"}}}`,
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			var q survey.Question
			if err := json.Unmarshal([]byte(in), &q); err == nil {
				t.Errorf("Unmarshal(%s) succeeded, want an error", in)
			}
		})
	}
}

func TestValidateAcceptsDemo(t *testing.T) {
	d := survey.Sample()
	if err := d.Validate(); err != nil {
		t.Fatalf("Validate() = %v, want nil", err)
	}
}

func TestValidateRejects(t *testing.T) {
	tests := []struct {
		name   string
		change func(d *survey.Definition)
		want   string
	}{
		{"empty title", func(d *survey.Definition) { d.Title = " " }, "title is required"},
		{"empty question id", func(d *survey.Definition) { d.Questions[1].ID = "" }, "questions[1].id is required"},
		{"duplicate question id", func(d *survey.Definition) { d.Questions[1].ID = "nps" }, `"nps" is used twice`},
		{"duplicate position", func(d *survey.Definition) { d.Questions[1].Position = 0 }, "position 0 is used twice"},
		{"negative position", func(d *survey.Definition) { d.Questions[1].Position = -1 }, "must be an integer from 0 to"},
		{"scale too small", func(d *survey.Definition) { setRating(d, 1) }, "scale must be an integer from 2 to 10"},
		{"scale too large", func(d *survey.Definition) { setRating(d, 11) }, "scale must be an integer from 2 to 10"},
		{"no options", func(d *survey.Definition) {
			p := d.Questions[2].Properties.(survey.SingleSelectProperties)
			p.Options = nil
			d.Questions[2].Properties = p
		}, "options must not be empty"},
		{"duplicate option", func(d *survey.Definition) {
			p := d.Questions[3].Properties.(survey.MultiSelectProperties)
			p.Options = append(p.Options, survey.Option{Value: "Speed"})
			d.Questions[3].Properties = p
		}, `"Speed" is used twice`},
		{"empty option value", func(d *survey.Definition) {
			p := d.Questions[3].Properties.(survey.MultiSelectProperties)
			p.Options[0].Value = ""
			d.Questions[3].Properties = p
		}, "value must not be empty"},
		{"multi-select max zero", func(d *survey.Definition) {
			p := d.Questions[3].Properties.(survey.MultiSelectProperties)
			zero := 0
			p.Max = &zero
			d.Questions[3].Properties = p
		}, "max must be positive"},
		{"editable max zero", func(d *survey.Definition) {
			p := d.Questions[2].Properties.(survey.SingleSelectProperties)
			p.Editable = &survey.Editable{Label: "Other", Max: 0}
			d.Questions[2].Properties = p
		}, "editable.max must be positive"},
		{"open-ended max zero", func(d *survey.Definition) {
			d.Questions[4].Properties = survey.OpenEndedProperties{ButtonLabel: "Next"}
		}, "max must be positive"},
		{"no properties", func(d *survey.Definition) { d.Questions[0].Properties = nil }, "properties are required"},
		{"jump backwards", func(d *survey.Definition) {
			d.Questions[4].RoutingLogic = survey.Routing{Type: survey.RoutingAlways, Target: survey.Target{Type: survey.TargetJump, Position: 1}}
		}, "routing only moves forward"},
		{"jump to itself", func(d *survey.Definition) {
			d.Questions[4].RoutingLogic = survey.Routing{Type: survey.RoutingAlways, Target: survey.Target{Type: survey.TargetJump, Position: 4}}
		}, "routing only moves forward"},
		{"jump nowhere", func(d *survey.Definition) {
			d.Questions[0].RoutingLogic.Default = survey.Target{Type: survey.TargetJump, Position: 99}
		}, "no question has"},
		{"unknown operator", func(d *survey.Definition) { d.Questions[0].RoutingLogic.Cases[0].Operator = "like" }, `operator "like" cannot hold for a rating question`},
		{"unknown target type", func(d *survey.Definition) {
			d.Questions[1].RoutingLogic.Target = survey.Target{Type: "somewhere"}
		}, "type must be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := survey.Sample()
			tt.change(&d)
			err := d.Validate()
			if !errors.Is(err, survey.ErrInvalidDefinition) {
				t.Fatalf("Validate() = %v, want ErrInvalidDefinition", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %q, want it to mention %q", err, tt.want)
			}
		})
	}
}

func setRating(d *survey.Definition, scale int) {
	p := d.Questions[1].Properties.(survey.RatingProperties)
	p.Scale = scale
	d.Questions[1].Properties = p
}

func asAny(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}
