package survey_test

import (
	"encoding/json"
	"testing"

	"github.com/svc-feedback/svc/survey"
)

// BenchmarkDecodeAnswers decodes the answers of a typical response, as every PUT does:
//
//	go test ./survey -run '^$' -bench DecodeAnswers -benchmem -count 6
func BenchmarkDecodeAnswers(b *testing.B) {
	data := []byte(`{"nps":9,"stars":4,"favourite":"Alerts","missing":["Speed","Docs"],` +
		`"comments":"The new dashboard is great, but exports are slow",` +
		`"bug":{"title":"Export hangs","metadata":"{\"browser\":\"firefox\"}","description":"It spins forever"}}`)
	b.ReportAllocs()
	for b.Loop() {
		var a survey.Answers
		if err := json.Unmarshal(data, &a); err != nil {
			b.Fatal(err)
		}
		if len(a) != 6 {
			b.Fatalf("%d answers", len(a))
		}
	}
}

// BenchmarkEncodeAnswers encodes the answers of a typical response, as every PUT stores them
// (AppendJSON), and through encoding/json (Marshal) for comparison.
func BenchmarkEncodeAnswers(b *testing.B) {
	desc := "It spins forever"
	a := survey.Answers{"nps": survey.Number(9), "stars": survey.Number(4), "favourite": survey.Text("Alerts"),
		"missing": survey.Choices{"Speed", "Docs"}, "comments": survey.Text("The new dashboard is great, but exports are slow"),
		"bug": survey.BugReportAnswer{Title: "Export hangs", Metadata: `{"browser":"firefox"}`, Description: &desc}}
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 512) // as the store passes one
		for b.Loop() {
			out, err := a.AppendJSON(buf[:0])
			if err != nil || len(out) == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := json.Marshal(a)
			if err != nil || len(out) == 0 {
				b.Fatal(err)
			}
		}
	})
}
