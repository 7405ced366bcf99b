package report

import (
	"encoding/json"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// moreColumns are the columns for people of the question types whose answer is not one cell:
// a matrix gives a column per row ("Title: row") holding the column chosen, a contact question
// a column per field ("Title: email"), and a consent one column of "yes". ok is false for the
// other types, whose one column peopleCell writes (a ranking's values in rank order joined by
// "; ", a date as written, a call to action's "clicked" or "dismissed").
func moreColumns(q *survey.Question, head string) (cols []peopleColumn, ok bool) {
	id := q.ID
	part := func(name, key string) peopleColumn {
		return peopleColumn{head + ": " + name, func(_ store.Response, answers map[string]json.RawMessage, _ map[string]string) any {
			f, err := survey.DecodeFields(answers[id])
			if err != nil {
				return ""
			}
			return f[key]
		}}
	}
	switch p := q.Properties.(type) {
	case survey.MatrixProperties:
		for _, r := range p.Rows {
			cols = append(cols, part(r.Text(), r.Value))
		}
		return cols, true
	case survey.ContactProperties:
		for _, fd := range p.Fields {
			cols = append(cols, part(fd.ID, fd.ID))
		}
		return cols, true
	case survey.ConsentProperties:
		return []peopleColumn{{head, func(_ store.Response, answers map[string]json.RawMessage, _ map[string]string) any {
			if string(answers[id]) == "true" {
				return "yes"
			}
			return ""
		}}}, true
	}
	return nil, false
}
