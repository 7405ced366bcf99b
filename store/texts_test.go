package store_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// SummaryTexts writes what encoding/json writes for the texts it keeps, byte for byte: the
// backfills of both backends are tested against it, and reads compare them.
func TestSummaryTextsAsEncodingJSON(t *testing.T) {
	long := strings.Repeat("é", store.MaxSummaryText+5)
	for _, a := range []survey.Answers{
		{},
		{"nps": survey.Number(9)},
		{"comments": survey.Text("fine")},
		{"z": survey.Text(`a "quoted" <b>&</b> \ line` + "\n\x01"), "a": survey.Choices{"Speed", "ü", long}, "m": survey.Number(1), "é": survey.Text(long)},
		{"bug": survey.BugReportAnswer{Title: "t", Metadata: "m"}, "c": survey.Choices{}},
	} {
		want := map[string]any{}
		for id, ans := range a {
			switch v := ans.(type) {
			case survey.Text:
				want[id] = cut(string(v))
			case survey.Choices:
				list := []string{}
				for _, c := range v {
					list = append(list, cut(c))
				}
				want[id] = list
			}
		}
		var wantJSON []byte
		if len(want) > 0 {
			wantJSON, _ = json.Marshal(want)
		}
		if got := store.SummaryTexts(a); string(got) != string(wantJSON) {
			t.Errorf("SummaryTexts(%v)\n = %s\nwant %s", a, got, wantJSON)
		}
	}
}

func cut(s string) string {
	r := []rune(s)
	return string(r[:min(len(r), store.MaxSummaryText)])
}
