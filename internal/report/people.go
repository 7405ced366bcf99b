package report

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The CSV for people (header=titles, extensions.md section 9) is what a product person opens in
// a spreadsheet: question titles as headers, a multi-select's choices in one cell, a bug
// report's title, description and page in columns of their own with its screenshot linked
// rather than inlined, each metadata key a column, and no cell longer than a spreadsheet holds.

// maxCell is the most characters (UTF-16 code units) a spreadsheet cell holds: Excel's and
// LibreOffice's limit.
const maxCell = 32767

// maxMetadataColumns bounds the metadata keys that get a column each; the rest share one.
const maxMetadataColumns = 100

// cutMark ends a cell cut to maxCell.
const cutMark = " […cut: the whole answer is in the NDJSON export]"

// peopleColumn writes one or more cells of a response.
type peopleColumn struct {
	head string
	cell func(r store.Response, answers map[string]json.RawMessage, meta map[string]string) string
}

// MetadataKeys reads every response q finds in sv, a page at a time, for the metadata keys they
// use (of those f picks), sorted: the CSV for people gives each its column. It keeps maxMetadataColumns of them at
// most (the first in sort order).
func MetadataKeys(ctx context.Context, s store.Store, sv store.Survey, q store.ResponseQuery, f Filter, maxPageBytes int) ([]string, error) {
	q.SurveyID = sv.ID
	seen := map[string]bool{}
	err := eachMatch(ctx, s, q, f, maxPageBytes, func(r store.Response) error {
		var meta map[string]string
		if len(r.Metadata) > 0 && json.Unmarshal(r.Metadata, &meta) == nil {
			for k := range meta {
				seen[k] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys[:min(len(keys), maxMetadataColumns)], nil
}

// newPeopleWriter returns the CSV writer for people of def's questions and the metadata keys,
// with link giving the address a response's screenshot is seen at.
func newPeopleWriter(w io.Writer, def survey.Definition, metaKeys []string, link func(responseID string) string) Writer {
	cols := []peopleColumn{
		{"Response", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) string { return r.ID }},
		{"Respondent", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) string { return r.Respondent }},
		{"Created", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) string {
			return string(wire.AppendTime(nil, r.CreatedAt))
		}},
		{"Updated", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) string {
			return string(wire.AppendTime(nil, r.UpdatedAt))
		}},
		{"Finished", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) string {
			return map[bool]string{true: "yes", false: "no"}[r.Finished]
		}},
	}
	if def.Languages != nil {
		cols = append(cols, peopleColumn{"Language", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) string { return r.Language }})
	}
	titles := map[string]int{}
	for _, q := range def.Questions {
		titles[q.Title]++
	}
	for i := range def.Questions {
		cols = append(cols, questionColumns(&def.Questions[i], titles[def.Questions[i].Title] > 1, link)...)
	}
	for _, k := range metaKeys {
		cols = append(cols, peopleColumn{"metadata." + k, func(_ store.Response, _ map[string]json.RawMessage, meta map[string]string) string {
			return meta[k]
		}})
	}
	head := make([]string, 0, len(cols))
	for _, c := range cols {
		head = append(head, fitCell(c.head))
	}
	return &peopleWriter{csvRows: csvRows{w: csv.NewWriter(w), head: head}, cols: cols}
}

// questionColumns are a question's columns: none for a statement, four for a bug report, one
// for the others. A title that two questions share is told apart by the question's id.
func questionColumns(q *survey.Question, shared bool, link func(string) string) []peopleColumn {
	head := q.Title
	if shared || head == "" {
		head += " (" + q.ID + ")"
	}
	id := q.ID
	switch q.Type() {
	case survey.TypeStatement:
		return nil
	case survey.TypeBugReport:
		part := func(name string, of func(a survey.BugReportAnswer) string) peopleColumn {
			return peopleColumn{head + ": " + name, func(r store.Response, answers map[string]json.RawMessage, _ map[string]string) string {
				var a survey.BugReportAnswer
				if raw := answers[id]; len(raw) == 0 || json.Unmarshal(raw, &a) != nil {
					return ""
				}
				return of(a)
			}}
		}
		return []peopleColumn{
			part("title", func(a survey.BugReportAnswer) string { return a.Title }),
			part("description", func(a survey.BugReportAnswer) string { return deref(a.Description) }),
			part("page", func(a survey.BugReportAnswer) string { return a.Metadata }),
			{head + ": screenshot", func(r store.Response, answers map[string]json.RawMessage, _ map[string]string) string {
				var a survey.BugReportAnswer
				if raw := answers[id]; len(raw) == 0 || json.Unmarshal(raw, &a) != nil || a.ScreenshotDataURL == nil {
					return ""
				}
				return link(r.ID)
			}},
		}
	}
	return []peopleColumn{{head, func(_ store.Response, answers map[string]json.RawMessage, _ map[string]string) string {
		return peopleCell(answers[id])
	}}}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// peopleCell is an answer as a person reads it: text as it is, a number as written, a list of
// choices joined by "; ".
func peopleCell(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var list []string
	if raw[0] == '[' && json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, "; ")
	}
	return csvCell(raw)
}

// fitCell cuts a cell to maxCell UTF-16 code units, marking the cut.
func fitCell(s string) string {
	if len(s) <= maxCell { // a UTF-8 byte is at most one UTF-16 code unit
		return s
	}
	units := 0
	for i, r := range s {
		units += utf16.RuneLen(r)
		if units > maxCell-len(cutMark) {
			return s[:i] + cutMark
		}
	}
	return s
}

// peopleWriter writes the CSV for people.
type peopleWriter struct {
	csvRows
	cols []peopleColumn
	row  []string
}

func (e *peopleWriter) Write(r store.Response) error {
	answers, err := rawAnswers(r)
	if err != nil {
		return err
	}
	var meta map[string]string
	if len(r.Metadata) > 0 {
		_ = json.Unmarshal(r.Metadata, &meta) // stored as an object of strings
	}
	e.row = e.row[:0]
	for _, c := range e.cols {
		e.row = append(e.row, fitCell(c.cell(r, answers, meta)))
	}
	return e.writeRow(e.row)
}
