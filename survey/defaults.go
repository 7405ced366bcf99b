package survey

import (
	"encoding/json"
	"fmt"
)

// Defaults of what a survey written by hand may leave out (see FillDefaults).
const (
	// DefaultButtonLabel is the button of a question that names none.
	DefaultButtonLabel = "Next"
	// DefaultOpenEndedMax is the most characters an open-ended answer may hold when the
	// question sets no max.
	DefaultOpenEndedMax = 2000
)

// DefaultConfirmation is the confirmation of a survey that gives none.
var DefaultConfirmation = Confirmation{Title: "Thank you!", Description: "Your answers help us improve.", ButtonText: "Close"}

// FillDefaults fills in, in the members of a survey's JSON object, what a person writing one by
// hand may leave out, so that a first survey written over HTTP needs only what it asks:
//
//   - confirmation: DefaultConfirmation;
//   - in each question: position, its index in the list; description, null; required, false;
//     routingLogic, {"type":"always","target":{"type":"next"}} (on to the next question);
//   - in each question's properties: buttonLabel, DefaultButtonLabel; shouldAutoProgress,
//     false; a select question's editable, null; an open-ended question's max,
//     DefaultOpenEndedMax.
//
// Members given, null included, are kept as given; a value of the wrong shape is left for the
// decoding that follows to refuse.
func FillDefaults(members map[string]json.RawMessage) error {
	if _, ok := members["confirmation"]; !ok {
		b, err := json.Marshal(DefaultConfirmation)
		if err != nil {
			return err
		}
		members["confirmation"] = b
	}
	raw, ok := members["questions"]
	if !ok {
		return nil
	}
	var questions []map[string]json.RawMessage
	if json.Unmarshal(raw, &questions) != nil {
		return nil // not an array of objects: the decoding says what is wrong
	}
	for i, q := range questions {
		if q == nil {
			continue
		}
		setDefault(q, "position", fmt.Sprint(i))
		setDefault(q, "description", "null")
		setDefault(q, "required", "false")
		setDefault(q, "routingLogic", `{"type":"always","target":{"type":"next"}}`)
		var props map[string]json.RawMessage
		if json.Unmarshal(q["properties"], &props) != nil || props == nil {
			continue
		}
		var typ string
		_ = json.Unmarshal(props["type"], &typ)
		label, _ := json.Marshal(DefaultButtonLabel)
		setDefault(props, "buttonLabel", string(label))
		switch typ {
		case TypeRating, TypeSingleSelect:
			setDefault(props, "shouldAutoProgress", "false")
		}
		switch typ {
		case TypeSingleSelect, TypeMultiSelect:
			setDefault(props, "editable", "null")
		case TypeOpenEnded:
			setDefault(props, "max", fmt.Sprint(DefaultOpenEndedMax))
		}
		b, err := json.Marshal(props)
		if err != nil {
			return err
		}
		q["properties"] = b
	}
	b, err := json.Marshal(questions)
	if err != nil {
		return err
	}
	members["questions"] = b
	return nil
}

func setDefault(m map[string]json.RawMessage, name, value string) {
	if _, ok := m[name]; !ok {
		m[name] = json.RawMessage(value)
	}
}
