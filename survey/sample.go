package survey

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed sample.json
var sampleJSON []byte

// SampleJSON returns the JSON of the sample survey (see Sample).
func SampleJSON() []byte { return append([]byte(nil), sampleJSON...) }

// Sample returns a survey that uses the first six question types (rating to bug-report), routing
// and back navigation, ready to save: a starting point for a survey of your own, and a realistic
// definition for tests. The example server shows it on first start. Each call returns a fresh
// copy.
func Sample() Definition {
	var d Definition
	if err := json.Unmarshal(sampleJSON, &d); err != nil {
		panic(fmt.Sprintf("survey: the sample survey does not decode: %v", err)) // a build defect, caught by tests
	}
	d.Normalize()
	return d
}
