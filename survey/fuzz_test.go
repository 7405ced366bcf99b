package survey_test

import (
	"encoding/json"
	"testing"

	"github.com/svc-feedback/svc/survey"
)

// FuzzDefinition decodes arbitrary definitions: no panic, and a definition that decodes and
// validates encodes to JSON that decodes to the same definition.
func FuzzDefinition(f *testing.F) {
	f.Add(survey.SampleJSON())
	f.Add([]byte(`{"title":"t","questions":[{"id":"a","position":0,"properties":{"type":"rating","scale":5},"routingLogic":{"type":"switch","cases":[{"type":"binary-operator","operator":"equal","value":{"type":"value","value":"x"},"target":{"type":"jump","target":1}}],"default":{"type":"end"}}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var d survey.Definition
		if json.Unmarshal(b, &d) != nil {
			return
		}
		d.Normalize()
		if d.Validate() != nil {
			return
		}
		out, err := json.Marshal(d)
		if err != nil {
			t.Fatalf("a valid definition does not encode: %v", err)
		}
		var back survey.Definition
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
		again, _ := json.Marshal(back)
		if string(again) != string(out) {
			t.Fatalf("encoding is not stable:\n%s\n%s", out, again)
		}
		for _, q := range back.Questions {
			if _, _, err := back.Next(q.ID, nil); err != nil {
				t.Fatalf("Next(%s): %v", q.ID, err)
			}
		}
	})
}

// FuzzAnswers decodes and validates arbitrary answers against the demo survey: no panic, the
// answers encode to the bytes encoding/json writes for them, and valid answers round-trip.
func FuzzAnswers(f *testing.F) {
	f.Add([]byte(`{"nps":9,"missing":["Speed"],"favourite":"Alerts","comments":"ok","bug":{"title":"t","metadata":"m","screenshotDataUrl":"data:image/png;base64,AA==","recordingEventsJson":"[]"}}`))
	f.Add([]byte(`{"stars":1e308,"missing":[],"bug":{"title":"","metadata":"","x":1}}`))
	d := survey.Sample()
	f.Fuzz(func(t *testing.T, b []byte) {
		var a survey.Answers
		if json.Unmarshal(b, &a) != nil {
			return
		}
		got, err := a.AppendJSON(nil)
		want, wantErr := json.Marshal(map[string]survey.Answer(a))
		if err != nil || wantErr != nil || string(got) != string(want) {
			t.Fatalf("AppendJSON = %s, %v; encoding/json writes %s, %v", got, err, want, wantErr)
		}
		if d.ValidateAnswers(a) != nil {
			return
		}
		out, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("valid answers do not encode: %v", err)
		}
		var back survey.Answers
		if err := json.Unmarshal(out, &back); err != nil || d.ValidateAnswers(back) != nil {
			t.Fatalf("valid answers %s do not round-trip: %v", out, err)
		}
	})
}
