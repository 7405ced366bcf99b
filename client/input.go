package client

import (
	"bytes"
	"encoding/json"

	"github.com/svc-feedback/svc/survey"
)

// A survey written in Go holds Go's zero values wherever its writer set nothing: a question's
// position 0, an empty button label, routing of no type, an empty confirmation. Sent as they
// are, they would be read as chosen (and refused: routing of type ""), where the same survey
// written as JSON by hand leaves them out and gets the server's defaults. So the client leaves
// out each member whose value is the zero value and that the server fills in: what the caller
// did not set.

// MarshalJSON writes the survey with the members the caller did not set left out, so that the
// server's defaults apply: a definition's empty confirmation, back button label and false back
// navigation; a question's null description, false required, routing without a type, and
// positions when every question has 0 (they follow the list); its properties' empty button
// label, false auto-progress, null editable and an open-ended max of 0.
func (in SurveyInput) MarshalJSON() ([]byte, error) {
	type plain SurveyInput
	b, err := json.Marshal(plain(in))
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	leaveOutDefinitionZeros(m)
	if m["questions"], err = questionsJSON(in.Questions); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// leaveOutDefinitionZeros drops the definition's own members at their zero values.
func leaveOutDefinitionZeros(m map[string]json.RawMessage) {
	empty, _ := json.Marshal(survey.Confirmation{})
	dropIf(m, "confirmation", string(empty))
	dropIf(m, "description", "null")
	dropIf(m, "isBackNavigationAllowed", "false")
	dropIf(m, "backButtonLabel", `""`)
}

// questionsJSON writes questions with the members their writer did not set left out.
func questionsJSON(questions []survey.Question) (json.RawMessage, error) {
	if questions == nil {
		return json.RawMessage("[]"), nil
	}
	placed := false // some question has a position: keep them all as given
	for _, q := range questions {
		placed = placed || q.Position != 0
	}
	out := make([]map[string]json.RawMessage, len(questions))
	for i, q := range questions {
		b, err := json.Marshal(q)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &out[i]); err != nil {
			return nil, err
		}
		m := out[i]
		if !placed {
			delete(m, "position")
		}
		if q.RoutingLogic.Type == "" {
			delete(m, "routingLogic")
		}
		dropIf(m, "description", "null")
		dropIf(m, "required", "false")
		var props map[string]json.RawMessage
		if json.Unmarshal(m["properties"], &props) == nil && props != nil {
			dropIf(props, "buttonLabel", `""`)
			dropIf(props, "shouldAutoProgress", "false")
			dropIf(props, "editable", "null")
			if q.Type() == survey.TypeOpenEnded {
				dropIf(props, "max", "0")
			}
			if m["properties"], err = json.Marshal(props); err != nil {
				return nil, err
			}
		}
	}
	return json.Marshal(out)
}

// dropIf deletes m's member name when its JSON is value.
func dropIf(m map[string]json.RawMessage, name, value string) {
	if v, ok := m[name]; ok && bytes.Equal(bytes.TrimSpace(v), []byte(value)) {
		delete(m, name)
	}
}
