package answerjson

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/survey"
)

// answersCases are stored answers of every shape: each plain kind, the ones left to
// encoding/json (bug reports, null, numbers out of range, lists of other things, invalid UTF-8
// and escapes that decode to a replacement character), a name given twice, and data that is
// not one object.
var answersCases = []string{
	`{"nps":9,"stars":4,"favourite":"Alerts","missing":["Speed","Docs"],"comments":"The new dashboard is great"}`,
	`{}`, `{"a":[]}`, `{"a":-0}`, `{"a":-0.0,"b":1e-7,"c":0.30000000000000004,"d":1E3}`, `{"a":1e400}`, `{"a":-1e400}`,
	`{"a":"\u00e9\ud83d\ude00 \"q\" \\ \/ \n"}`, `{"a":"\ud800"}`, `{"a":"\ufffd"}`, "{\"a\":\"\xff\"}", "{\"a\xff\":1}",
	`{"a":null}`, `{"a":true}`, `{"a":["x",1]}`, `{"a":["x",null]}`, `{"a":[["x"]]}`, `{"a":{"title":"t","metadata":"m"}}`,
	`{"a":{"title":"t","metadata":"m","description":null,"extra":1}}`, `{"a":1,"a":"two"}`, `{"a":null,"a":2}`,
	`{"a":2,"a":null}`, `null`, `[]`, `"x"`, `{"a":1} {}`, `{"a":1`, `{"a":1,}`, ` { "a" : [ "x" , "y" ] } `, ``,
}

// answersByUnmarshal is how the stored answers are decoded without Reader.
func answersByUnmarshal(data []byte) (survey.Answers, error) {
	var a survey.Answers
	err := json.Unmarshal(data, &a)
	return a, err
}

// Whatever Reader decodes, encoding/json decodes alike; and it takes the plain answers,
// which are nearly all of them, rather than leaving everything to encoding/json.
func TestAnswersAsEncodingJSON(t *testing.T) {
	var o Reader
	plain := 0
	for _, c := range answersCases {
		if checkAnswers(t, &o, []byte(c)) {
			plain++
		}
	}
	if plain < 8 {
		t.Errorf("Reader decoded %d of the cases, want the plain ones", plain)
	}
}

// checkAnswers compares Reader's answers of data with encoding/json's, reporting whether
// Reader decoded them itself; Decode, whichever decodes, must give encoding/json's answers, or
// fail where it fails.
func checkAnswers(t *testing.T, o *Reader, data []byte) bool {
	t.Helper()
	want, wantErr := answersByUnmarshal(data)
	decoded, err := o.Decode(data)
	if (err != nil) != (wantErr != nil) {
		t.Errorf("%q: Decode: %v, encoding/json: %v", data, err, wantErr)
	} else if diff := cmp.Diff(want, decoded); err == nil && diff != "" {
		t.Errorf("%q: Decode (-encoding/json +Decode):\n%s", data, diff)
	}
	got, ok := o.answers(data)
	if !ok {
		return false
	}
	if wantErr != nil {
		t.Errorf("%q: Reader decoded %v, encoding/json fails: %v", data, got, wantErr)
	} else if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%q: answers (-encoding/json +Reader):\n%s", data, diff)
	}
	return true
}

// A nil Reader decodes with one of its own.
func TestNilReaderDecodes(t *testing.T) {
	var o *Reader
	got, err := o.Decode([]byte(`{"nps":9,"missing":["Speed"]}`))
	if want := (survey.Answers{"nps": survey.Number(9), "missing": survey.Choices{"Speed"}}); err != nil || !cmp.Equal(want, got) {
		t.Errorf("Decode: %v, %v; want %v", got, err, want)
	}
}

func FuzzAnswers(f *testing.F) {
	for _, c := range answersCases {
		f.Add([]byte(c))
	}
	var o Reader
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAnswers(t, &o, data)
	})
}
