package store_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// An embedding app makes its survey ids with NewSurveyID: they must pass Survey.Validate (which
// CreateSurvey runs) and never repeat.
func TestNewSurveyID(t *testing.T) {
	seen := make(map[string]bool)
	for range 1000 {
		id := store.NewSurveyID()
		if !store.ValidSurveyID(id) {
			t.Fatalf("NewSurveyID() = %q, which ValidSurveyID refuses", id)
		}
		if seen[id] {
			t.Fatalf("NewSurveyID() repeated %q", id)
		}
		seen[id] = true
	}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample()}
	if err := sv.Validate(); err != nil {
		t.Errorf("a survey with a NewSurveyID id and the sample definition: %v", err)
	}
	for _, bad := range []string{"", "Upper", "1starts-with-digit", "has space"} {
		if store.ValidSurveyID(bad) {
			t.Errorf("ValidSurveyID(%q) = true", bad)
		}
	}
}

// A survey whose definition is invalid fails with a typed error whose message is the
// definition's own, ready for an API reply, and which is both ErrInvalid and the survey
// package's ErrInvalidDefinition.
func TestSurveyValidateTypedError(t *testing.T) {
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: "acme", Status: store.StatusActive, Definition: survey.Sample()}
	sv.Title = " "
	err := sv.Validate()
	var se *store.Error
	if !errors.As(err, &se) || se.Message != "title is required" {
		t.Fatalf("Validate = %v, want a *store.Error with message %q", err, "title is required")
	}
	if !errors.Is(err, store.ErrInvalid) || !errors.Is(err, survey.ErrInvalidDefinition) {
		t.Errorf("Validate = %v, want it to be ErrInvalid and ErrInvalidDefinition", err)
	}
}

// TestValidateChange: a definition left as stored is not checked again, so a survey saved
// before a check was added can still be paused; a changed one, and the survey's own settings,
// are checked as Validate checks them.
func TestValidateChange(t *testing.T) {
	sv := store.Survey{ID: "cvalidatechange000000001", TeamID: "a", Status: store.StatusActive, Definition: survey.Sample()}
	sv.Definition.Questions[0].RoutingLogic.Cases[0].Value = survey.Operand{Text: "six"} // saved by an older version
	before, err := json.Marshal(sv.Definition)
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.Validate(); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("Validate() = %v, want ErrInvalid", err)
	}
	sv.Status = store.StatusInactive
	if err := sv.ValidateChange(before); err != nil {
		t.Errorf("pausing, definition unchanged: %v", err)
	}
	sv.Status = "paused"
	if err := sv.ValidateChange(before); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("an unknown status, definition unchanged: %v, want ErrInvalid", err)
	}
	sv.Status = store.StatusInactive
	sv.Definition.Title = "Renamed"
	if err := sv.ValidateChange(before); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "six") {
		t.Errorf("the definition changed: %v, want the case refused", err)
	}
}
