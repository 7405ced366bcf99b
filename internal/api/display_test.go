package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

const displayRules = `"display":{"urls":[{"match":"prefix","value":"/billing"},{"match":"regex","value":"^/settings/(team|plan)$"}],
	"excludeUrls":[{"match":"contains","value":"?preview"}],"attributes":[{"key":"plan","operator":"in","value":["pro","team"]},
	{"key":"seats","operator":"greater","value":5}],"events":["upgraded"],"delaySeconds":10,"percentage":25,
	"recontact":"always","recontactDays":30,"maxDisplays":3,"startsAt":"2026-11-01T00:00:00Z","endsAt":"2027-01-01T00:00:00Z",
	"responseLimit":500,"ignoreCooldown":true,"priority":2}`

// A survey's display rules are kept, shown to its team's key, left out of the widget's view,
// and removed by a patch of null.
func TestSurveyDisplayRules(t *testing.T) {
	e := setup(t)
	body := strings.Replace(newSurveyBody, `{"title":"Onboarding",`, `{"title":"Onboarding","status":"active",`+displayRules+`,`, 1)
	rec := e.manage("POST", "/v1/protected/surveys", body, e.skA)
	wantStatus(t, rec, http.StatusCreated, "")
	var created struct {
		ID      string         `json:"id"`
		Display map[string]any `json:"display"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte("{"+displayRules+"}"), &want); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(created.Display); string(got) != mustJSON(t, want["display"]) {
		t.Errorf("display kept as %s, want %s", got, mustJSON(t, want["display"]))
	}
	public := e.public("GET", "/v1/svc/"+created.ID, "")
	wantStatus(t, public, http.StatusOK, "")
	if strings.Contains(public.Body.String(), "display\"") || strings.Contains(public.Body.String(), "billing") {
		t.Errorf("the widget's view shows the rules: %s", public.Body)
	}
	patched := e.manage("PATCH", "/v1/protected/surveys/"+created.ID, `{"display":null}`, e.skA, "If-Match", rec.Header().Get("ETag"))
	wantStatus(t, patched, http.StatusOK, "")
	if strings.Contains(patched.Body.String(), `"display"`) {
		t.Errorf("a patch of null left the rules: %s", patched.Body)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A rule the server cannot take is a 400 that names the member at fault.
func TestSurveyDisplayRulesRefused(t *testing.T) {
	e := setup(t)
	for rules, message := range map[string]string{
		`{"urls":[{"match":"glob","value":"/a"}]}`:                                       "display.urls[0].match must be exact, prefix, contains or regex",
		`{"urls":[{"match":"regex","value":"("}]}`:                                       "display.urls[0].value is not a regular expression",
		`{"excludeUrls":[{"match":"regex","value":"` + strings.Repeat("a", 501) + `"}]}`: "display.excludeUrls[0].value: a regular expression may have at most 500 characters",
		`{"attributes":[{"key":"plan","operator":"like","value":"x"}]}`:                  "display.attributes[0].operator must be one of",
		`{"attributes":[{"key":"plan","operator":"in","value":"pro"}]}`:                  "display.attributes[0].value must be a list",
		`{"attributes":[{"key":"seats","operator":"greater","value":"many"}]}`:           "display.attributes[0].value must be a number for greater",
		`{"attributes":[{"key":"plan","operator":"exists","value":true}]}`:               "display.attributes[0].value must be absent for exists",
		`{"percentage":0}`:      "display.percentage must be from 0.01 to 100",
		`{"delaySeconds":3601}`: "display.delaySeconds must be from 0 to 3600",
		`{"recontact":"never"}`: "display.recontact must be once, until-responded or always",
		`{"startsAt":"2027-01-01T00:00:00Z","endsAt":"2026-01-01T00:00:00Z"}`: "display.endsAt must be after display.startsAt",
		`{"events":[""]}`: "display.events[0] must be a name",
		`{"urls":[{"match":"prefix","value":"/a","Value":"/b"}]}`: `"Value"`,
	} {
		body := strings.Replace(newSurveyBody, `{"title":"Onboarding",`, `{"title":"Onboarding","display":`+rules+`,`, 1)
		rec := e.manage("POST", "/v1/protected/surveys", body, e.skA)
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if msg := errorMessage(t, rec); !strings.Contains(msg, message) {
			t.Errorf("display %s: message %q does not say %q", rules, msg, message)
		}
	}
}
