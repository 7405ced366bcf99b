package api

import (
	"testing"

	"github.com/svc-feedback/svc/survey"
)

func BenchmarkDecodeResponseBody(b *testing.B) {
	def := survey.Sample()
	body := []byte(`{"respondent":"user123","data":{"nps":9,"stars":4,"favourite":"Alerts","missing":["Speed","Docs"],` +
		`"comments":"The new dashboard is great, but exports are slow"},"metadata":{"page":"/dashboard","plan":"pro","locale":"en-GB"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeResponseBody(newJSONReader(body), &def); err != nil {
			b.Fatal(err)
		}
	}
}
