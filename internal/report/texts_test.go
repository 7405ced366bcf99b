package report

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// writtenByUnmarshal is how summaries read the written answers before textReader: texts
// decoded by encoding/json into a map of raw values, each answer decoded again. textReader
// must find what it found.
func writtenByUnmarshal(texts []byte, open map[string]map[string]bool) []foundText {
	var answers map[string]json.RawMessage
	if json.Unmarshal(texts, &answers) != nil {
		return nil
	}
	var out []foundText
	for id, options := range open {
		raw, ok := answers[id]
		if !ok {
			continue
		}
		var one string
		if json.Unmarshal(raw, &one) == nil {
			if options == nil || !options[one] {
				out = append(out, foundText{id, one})
			}
			continue
		}
		var many []string
		if options != nil && json.Unmarshal(raw, &many) == nil {
			for _, v := range many {
				if !options[v] {
					out = append(out, foundText{id, v})
					break
				}
			}
		}
	}
	return out
}

// textsOpen are the questions of the cases below: two open-ended, one select with free text.
var textsOpen = map[string]map[string]bool{
	"q_text":  nil,
	"q_other": nil,
	"q_pick":  {"red": true, "blue": true},
}

var textsCases = []string{
	`{"q_text":"slow export","q_nps":9}`,
	`{"q_nps":9,"q_text":"caf\u00e9 \"quoted\"","q_pick":"green"}`,
	`{"q_pick":"red"}`,
	`{"q_pick":["red","teal","mauve"]}`,
	`{"q_pick":["red","blue"]}`,
	`{"q_pick":["red",null,"x"]}`,
	`{"q_pick":["red",3]}`,
	`{"q_pick":["teal",3]}`,
	`{"q_pick":["teal",{"x":"y"}],"q_text":"after"}`,
	`{"q_pick":[["x"]]}`,
	`{"q_text":["not","a","text"]}`,
	`{"q_text":null,"q_pick":null}`,
	`{"q_text":{"nested":"x"},"q_other":"kept"}`,
	`{"q_text":"first","q_text":"last"}`,
	`{"q_text":"first","q_text":7}`,
	`{"q_text":"a"} trailing`,
	`{"q_text":"a",}`,
	`{"q_text":"a"`,
	`["q_text","a"]`,
	`null`,
	``,
	`{}`,
	`{"q_text":""}`,
	"{\"q_text\":\"bad \xff byte\"}",
	`{"q_other":"x","q_nps":{"deep":[1,2,{"q_text":"inner"}]},"q_text":"outer"}`,
}

func TestTextReaderReadsAsEncodingJSON(t *testing.T) {
	tr := newTextReader()
	for _, c := range textsCases {
		want := writtenByUnmarshal([]byte(c), textsOpen)
		got := append([]foundText(nil), tr.written([]byte(c), textsOpen)...)
		sortByID := cmpopts.SortSlices(func(a, b foundText) bool { return a.id < b.id })
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(foundText{}), sortByID, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("texts %s: found (-encoding/json +textReader):\n%s", c, diff)
		}
	}
}

func FuzzTextReader(f *testing.F) {
	for _, c := range textsCases {
		f.Add([]byte(c))
	}
	tr := newTextReader()
	f.Fuzz(func(t *testing.T, texts []byte) {
		want := writtenByUnmarshal(texts, textsOpen)
		got := append([]foundText(nil), tr.written(texts, textsOpen)...)
		sortByID := cmpopts.SortSlices(func(a, b foundText) bool { return a.id < b.id })
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(foundText{}), sortByID, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("texts %q: found (-encoding/json +textReader):\n%s", texts, diff)
		}
	})
}
