package store

import (
	"encoding/json"
	"slices"
)

// Passes reports whether r passes every term of n: the meaning a Store that tests n in its
// query must keep (it may let through more). A nil Narrowing passes every response.
func (n *Narrowing) Passes(r Response) bool {
	if n == nil {
		return true
	}
	if n.Finished != nil && r.Finished != *n.Finished {
		return false
	}
	if len(n.Scores) == 0 && len(n.Choices) == 0 {
		return true
	}
	var answers map[string]json.RawMessage
	if json.Unmarshal(r.Data, &answers) != nil {
		return false
	}
	answered := func(id string) json.RawMessage {
		if raw := answers[id]; string(raw) != "null" {
			return raw
		}
		return nil // an answer of null is none, as a filter reads it
	}
	for _, b := range n.Scores {
		var x float64
		if json.Unmarshal(answered(b.QuestionID), &x) != nil || x < b.Min || x > b.Max {
			return false
		}
	}
	for _, c := range n.Choices {
		var one string
		var list []string
		raw := answered(c.QuestionID)
		switch {
		case json.Unmarshal(raw, &one) == nil:
			list = []string{one}
		case json.Unmarshal(raw, &list) != nil:
			return false
		}
		if !slices.ContainsFunc(list, func(v string) bool { return slices.Contains(c.Values, v) }) {
			return false
		}
	}
	return true
}
