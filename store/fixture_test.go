package store_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/svc-feedback/svc/store"
)

// TestDecodeFixtureReportsUnknownMembers: members svc does not know, at any level it reads, are
// ignored and listed by path, so the file still imports and a typo can be reported; known
// members still decode, whatever their case, as encoding/json matches them ("Title",
// "webhookURL").
func TestDecodeFixtureReportsUnknownMembers(t *testing.T) {
	raw := `{"version": 2, "teams": [{"id": "acme", "name": "Acme", "plan": "pro",
	  "surveys": [
	    {"id": "cabc", "Title": "Hi", "webhookURL": "https://example.com", "updatedAt": "2026-01-01T00:00:00Z",
	     "confirmation": {"title": "Thanks", "description": "", "buttonText": "Close", "icon": "x"},
	     "questions": [{"id": "q", "title": "Q", "description": null, "position": 0, "required": false, "somethingNew": true,
	       "properties": {"type": "open-ended", "buttonLabel": "Next", "max": 100, "colour": "red"}, "routingLogic": {"type": "always", "target": {"type": "next"}}}],
	     "responses": [{"id": "r1", "respondent": "ann", "data": {"q": "x"}, "metadata": {"any": "key"}, "telemetry": "t"}],
	     "events": [{"respondent": "ann", "type": "view", "createdAt": "2026-01-01T00:00:00Z", "source": "import"}]},
	    {"id": "cdef", "title": "Two", "unknown": {"nested": [1, {"deep": []}, [[]]], "more": "x"}, "status": "inactive", "after": 1}]}]}`
	f, err := store.DecodeFixture(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{ // in the file's order
		"version",
		"teams[0].plan",
		"teams[0].surveys[0].updatedAt",
		"teams[0].surveys[0].confirmation.icon",
		"teams[0].surveys[0].responses[0].telemetry",
		"teams[0].surveys[0].events[0].source",
		"teams[0].surveys[1].unknown",
		"teams[0].surveys[1].after",
	}
	if diff := cmp.Diff(want, f.Unknown); diff != "" {
		t.Errorf("Unknown (-want +got):\n%s", diff)
	}
	sv := f.Teams[0].Surveys[0]
	if sv.Title != "Hi" || sv.WebhookURL != "https://example.com" || sv.Confirmation.ButtonText != "Close" ||
		len(sv.Responses) != 1 || sv.Responses[0].Metadata["any"] != "key" || len(sv.Events) != 1 || f.Teams[0].Surveys[1].Title != "Two" || f.Teams[0].Surveys[1].Status != store.StatusInactive {
		t.Errorf("known members not decoded: %+v", f)
	}

	clean, err := store.DecodeFixture(strings.NewReader(`{"teams": [{"id": "acme", "name": "Acme", "surveys": [{"id": "cabc", "title": "Hi"}]}]}`))
	if err != nil || clean.Unknown != nil {
		t.Errorf("a fixture of known members: Unknown = %v, err = %v", clean.Unknown, err)
	}
}

func TestDecodeFixtureErrors(t *testing.T) {
	for _, raw := range []string{
		``,
		`{"teams": [}`,
		`{"teams": {}}`,
		`{"teams": [{"id": 7}]}`,
		`{"teams": [{"id": "acme", "surveys": [{"createdAt": "yesterday"}]}]}`,
		`{"teams": []} {"teams": []}`,
		`{"teams": []} x`,
	} {
		if _, err := store.DecodeFixture(strings.NewReader(raw)); err == nil {
			t.Errorf("DecodeFixture(%s): no error", raw)
		}
	}
}
