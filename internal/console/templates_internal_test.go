package console

import "testing"

// TestTemplatesAreValid: every template the console offers reads strictly, as the management
// API reads a survey, and is a valid survey once its defaults are filled in.
func TestTemplatesAreValid(t *testing.T) {
	for _, tpl := range surveyTemplates {
		if _, err := templateDefinition(tpl.ID); err != nil {
			t.Errorf("template %s: %v", tpl.ID, err)
		}
	}
}
