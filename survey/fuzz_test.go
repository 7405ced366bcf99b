package survey_test

import (
	"encoding/json"
	"errors"
	"strconv"
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
	f.Add([]byte(`{"nps":true,"missing":{"Speed":"x"},"bug":{"title":"t","metadata":"m","row":"x"},"comments":false}`))
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

// FuzzParseDefinition reads arbitrary definitions strictly: no panic, and nothing ParseDefinition
// accepts is dropped: every value it holds comes back, at the same path, when the definition is
// written again (or is the zero value a member left out stands for).
func FuzzParseDefinition(f *testing.F) {
	f.Add(survey.SampleJSON())
	f.Add([]byte(`{"title":"t","display":{"url":[{"match":"prefix","value":"/docs"}]},"questions":[{"id":"a","requird":true,"properties":{"type":"rating","scale":5}}]}`))
	f.Add([]byte(`{"title":"t","questions":[{"id":"a","properties":{"type":"single-select","options":[{"value":"Email"}]},"routingLogic":{"type":"switch","cases":[{"type":"binary-operator","operator":"equal","value":{"type":"value","value":"email"},"target":{"type":"end"}}],"default":{"type":"next"}}}]}`))
	f.Add([]byte(`{"title":"t","languages":{"default":"en","translations":{"de":{"questions":{"a":{"options":{"x":"y"}}}}}},"link":{"anonymous":true}}`))
	f.Add([]byte(moreJSON)) // the new question types
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := survey.ParseDefinition(b)
		if err != nil {
			if !errors.Is(err, survey.ErrInvalidDefinition) {
				t.Fatalf("ParseDefinition: %v does not wrap ErrInvalidDefinition", err)
			}
			return
		}
		out, err := json.Marshal(d)
		if err != nil {
			t.Fatalf("an accepted definition does not encode: %v", err)
		}
		if _, err := survey.ParseDefinition(out); err != nil {
			t.Fatalf("the definition as written again, %s, is refused: %v", out, err)
		}
		var in, back any
		if json.Unmarshal(b, &in) != nil || json.Unmarshal(out, &back) != nil {
			t.Fatal("JSON that ParseDefinition accepted does not decode")
		}
		if path, ok := keeps(in, back, ""); !ok {
			t.Fatalf("%s was dropped or changed:\nin:  %s\nout: %s", path, b, out)
		}
	})
}

// keeps reports whether every value in in stands at the same path in out, the path where one
// does not. A null or a zero value may be left out, as may an empty list or object.
func keeps(in, out any, path string) (string, bool) {
	switch v := in.(type) {
	case map[string]any:
		o, _ := out.(map[string]any)
		if o == nil && len(v) == 0 {
			return "", true
		}
		for k, x := range v {
			y, ok := o[k]
			if !ok && (x == nil || x == false || x == 0.0 || x == "" || isEmpty(x)) {
				continue
			}
			if p, ok := keeps(x, y, path+"."+k); !ok || y == nil && x != nil {
				return p, false
			}
		}
	case []any:
		o, _ := out.([]any)
		if len(o) != len(v) {
			return path, false
		}
		for i := range v {
			if p, ok := keeps(v[i], o[i], path+"["+strconv.Itoa(i)+"]"); !ok {
				return p, false
			}
		}
	case nil:
	default:
		if in != out {
			return path, false
		}
	}
	return "", true
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}
