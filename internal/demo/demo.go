// Package demo holds the demo survey, which uses every question type: the example server
// creates it on first start, and tests use it as a realistic definition.
package demo

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/svc-feedback/svc/survey"
)

//go:embed survey.json
var surveyJSON []byte

// SurveyJSON returns the demo survey definition as JSON.
func SurveyJSON() []byte { return append([]byte(nil), surveyJSON...) }

// Survey returns the demo survey definition, normalized.
func Survey() survey.Definition {
	var d survey.Definition
	if err := json.Unmarshal(surveyJSON, &d); err != nil {
		panic(fmt.Sprintf("demo survey does not decode: %v", err)) // a build defect, caught by tests
	}
	d.Normalize()
	return d
}
