package survey_test

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/survey"
)

func TestAnswersDecode(t *testing.T) {
	in := `{"a":"text","b":7,"c":["x","y"],"d":{"title":"t","metadata":"m","description":"d"},"e":[]}`
	var got survey.Answers
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	desc := "d"
	want := survey.Answers{
		"a": survey.Text("text"), "b": survey.Number(7), "c": survey.Choices{"x", "y"},
		"d": survey.BugReportAnswer{Title: "t", Metadata: "m", Description: &desc},
		"e": survey.Choices{},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded answers (-want +got):\n%s", diff)
	}
	out, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var wantAny, gotAny any
	_ = json.Unmarshal([]byte(in), &wantAny)
	_ = json.Unmarshal(out, &gotAny)
	if diff := cmp.Diff(wantAny, gotAny); diff != "" {
		t.Errorf("answers did not round-trip (-want +got):\n%s", diff)
	}
}

func TestAnswersDecodeNullOptionalBugReportMembers(t *testing.T) {
	var got survey.Answers
	in := `{"a":{"title":"t","metadata":"m","description":null,"screenshotDataUrl":null,"recordingEventsJson":"[]"}}`
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	rec := "[]"
	want := survey.Answers{"a": survey.BugReportAnswer{Title: "t", Metadata: "m", RecordingEventsJSON: &rec}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded answers (-want +got):\n%s", diff)
	}
	one, err := survey.DecodeAnswer(json.RawMessage(` ["x"] `))
	if err != nil || !cmp.Equal(one, survey.Answer(survey.Choices{"x"})) {
		t.Errorf("DecodeAnswer = %#v, %v; want Choices{x}", one, err)
	}
	if _, err := survey.DecodeAnswer(json.RawMessage(`  `)); err == nil {
		t.Error("DecodeAnswer of nothing succeeded")
	}
}

func TestAnswersDecodeErrors(t *testing.T) {
	for _, in := range []string{
		`{"a":null}`, `{"a":[1,2]}`, `{"a":1e999}`, `{"a":{"title":"t","n":1}}`, `{"a":{"x":null}}`,
		`{"a":{"title":"t","metadata":"m","extra":1}}`, `{"a":{"title":1,"metadata":"m"}}`, `null`, `[]`,
		`{"a":["x",null]}`, `{"a":{"Title":"t","metadata":true}}`, `{"a":{"title":"t","metadata":"m","description":5}}`,
		`{"a":{"title":null,"metadata":"m"}}`, `{"a":"x"} trailing`,
	} {
		var a survey.Answers
		if err := json.Unmarshal([]byte(in), &a); err == nil {
			t.Errorf("Unmarshal(%s) succeeded, want an error", in)
		}
	}
}

func TestValidateAnswers(t *testing.T) {
	str := func(s string) *string { return &s }
	png := "data:image/png;base64,iVBORw0KGgo="
	tests := []struct {
		name    string
		answers survey.Answers
		wantErr string // "" for a valid answer
	}{
		{"nps zero", survey.Answers{"nps": survey.Number(0)}, ""},
		{"nps ten", survey.Answers{"nps": survey.Number(10)}, ""},
		{"nps eleven", survey.Answers{"nps": survey.Number(11)}, "integer from 0 to 10"},
		{"star one", survey.Answers{"stars": survey.Number(1)}, ""},
		{"star zero", survey.Answers{"stars": survey.Number(0)}, "integer from 1 to 5"},
		{"star fraction", survey.Answers{"stars": survey.Number(2.5)}, "integer from 1 to 5"},
		{"rating as text", survey.Answers{"stars": survey.Text("4")}, "integer from 1 to 5"},
		{"single option", survey.Answers{"favourite": survey.Text("Alerts")}, ""},
		{"single option wrong case is free text", survey.Answers{"favourite": survey.Text("alerts")}, ""},
		{"single free text", survey.Answers{"favourite": survey.Text("The API")}, ""},
		{"single free text too long", survey.Answers{"favourite": survey.Text(strings.Repeat("x", 81))}, "not one of the options"},
		{"single empty", survey.Answers{"favourite": survey.Text("")}, "not one of the options"},
		{"single as list", survey.Answers{"favourite": survey.Choices{"Alerts"}}, "must be a string"},
		{"multi options", survey.Answers{"missing": survey.Choices{"Speed", "Docs"}}, ""},
		{"multi none", survey.Answers{"missing": survey.Choices{}}, ""},
		{"multi too many", survey.Answers{"missing": survey.Choices{"Speed", "Docs", "Price", "Integrations"}}, "at most 3"},
		{"multi unknown (not editable)", survey.Answers{"missing": survey.Choices{"Colour"}}, "not one of the options"},
		{"multi case-sensitive", survey.Answers{"missing": survey.Choices{"speed"}}, "not one of the options"},
		{"multi duplicate", survey.Answers{"missing": survey.Choices{"Speed", "Speed"}}, "chosen twice"},
		{"multi as text", survey.Answers{"missing": survey.Text("Speed")}, "list of strings"},
		{"open-ended", survey.Answers{"comments": survey.Text("Lovely")}, ""},
		{"open-ended at max", survey.Answers{"comments": survey.Text(strings.Repeat("é", 1000))}, ""},
		{"open-ended too long", survey.Answers{"comments": survey.Text(strings.Repeat("é", 1001))}, "longer than 1000"},
		{"open-ended number", survey.Answers{"comments": survey.Number(3)}, "must be a string"},
		{"statement", survey.Answers{"thanks": survey.Text("ok")}, "takes no answer"},
		{"bug report", survey.Answers{"bug": survey.BugReportAnswer{Title: "t", Metadata: "m", ScreenshotDataURL: &png, RecordingEventsJSON: str(`[{"t":1}]`)}}, ""},
		{"bug report bad screenshot", survey.Answers{"bug": survey.BugReportAnswer{Title: "t", Metadata: "m", ScreenshotDataURL: str("http://x/y.png")}}, "image data URL"},
		{"bug report bad base64", survey.Answers{"bug": survey.BugReportAnswer{Title: "t", Metadata: "m", ScreenshotDataURL: str("data:image/png;base64,@@@")}}, "image data URL"},
		{"bug report not an image", survey.Answers{"bug": survey.BugReportAnswer{Title: "t", Metadata: "m", ScreenshotDataURL: str("data:text/plain;base64,aGk=")}}, "image data URL"},
		{"bug report recording object", survey.Answers{"bug": survey.BugReportAnswer{Title: "t", Metadata: "m", RecordingEventsJSON: str(`{"t":1}`)}}, "JSON-encoded array"},
		{"bug report as text", survey.Answers{"bug": survey.Text("broken")}, "title and metadata"},
		{"unknown question", survey.Answers{"nope": survey.Text("x")}, `no question "nope"`},
	}
	d := survey.Sample()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := d.ValidateAnswers(tt.answers)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("ValidateAnswers() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, survey.ErrInvalidAnswer) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("ValidateAnswers() = %v, want ErrInvalidAnswer mentioning %q", err, tt.wantErr)
			}
		})
	}
}

// TestAnswersAppendJSON checks the hand-built encoding against encoding/json's, byte for byte,
// for every kind of answer a caller can put in Answers.
func TestAnswersAppendJSON(t *testing.T) {
	text, num, list := survey.Text("<b>é</b>"), survey.Number(0.5), survey.Choices{"a", "b"}
	desc := "steps"
	for _, a := range []survey.Answers{
		nil,
		{},
		{"nps": survey.Number(9), "stars": survey.Number(-1e-7), "big": survey.Number(1e21), "favourite": survey.Text("Alerts"),
			"missing": survey.Choices{"Speed", "Docs"}, "none": survey.Choices{}, "nil": survey.Choices(nil),
			"bug":  survey.BugReportAnswer{Title: "t", Metadata: `{"a":1}`, Description: &desc},
			"full": survey.BugReportAnswer{Title: "<t>", Description: &desc, ScreenshotDataURL: &desc, RecordingEventsJSON: &desc}},
		{"ptext": &text, "pnum": &num, "plist": &list, "pbug": &survey.BugReportAnswer{Title: "t"}, "null": nil, "\u2028\u2028": survey.Text("\u2028")},
	} {
		got, err := a.AppendJSON([]byte("x"))
		want, _ := json.Marshal(map[string]survey.Answer(a))
		if err != nil || string(got) != "x"+string(want) {
			t.Errorf("AppendJSON(%v) = %s, %v; want x%s", a, got, err, want)
		}
	}
	if _, err := (survey.Answers{"nps": survey.Number(math.NaN())}).AppendJSON(nil); err == nil || !strings.Contains(err.Error(), `"nps"`) {
		t.Errorf("AppendJSON with NaN: err = %v, want an error naming the answer", err)
	}
}

// TestNegativeZeroIsZero: "-0" is valid JSON for the score 0; it is kept, and written back, as 0.
func TestNegativeZeroIsZero(t *testing.T) {
	for _, in := range []string{`{"nps":-0}`, `{"nps":-0.0}`, `{"nps":-0e5}`} {
		var a survey.Answers
		if err := json.Unmarshal([]byte(in), &a); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got, err := a.AppendJSON(nil); err != nil || string(got) != `{"nps":0}` {
			t.Errorf("%s encodes as %s, %v; want {\"nps\":0}", in, got, err)
		}
	}
}

// TestChoicesMarshalJSON: a list encodes as encoding/json encodes a []string, except that an
// empty or nil list is [] rather than null.
func TestChoicesMarshalJSON(t *testing.T) {
	for _, c := range []survey.Choices{nil, {}, {"a"}, {"Speed", "<b>Docs</b>", "é", `"q"`, "\u2028"}} {
		want := "[]"
		if len(c) > 0 {
			b, _ := json.Marshal([]string(c))
			want = string(b)
		}
		if got, err := json.Marshal(c); err != nil || string(got) != want {
			t.Errorf("json.Marshal(%#v) = %s, %v; want %s", c, got, err, want)
		}
	}
}
