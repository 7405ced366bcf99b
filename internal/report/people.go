package report

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The CSV for people (header=titles) is what a product person opens in
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

// peopleColumn writes one cell of a response: a string, a json.Number (a score, as written) or
// a time.Time, so that a spreadsheet gets numbers as numbers and times as dates, and a CSV
// writes each as text.
type peopleColumn struct {
	head string
	cell func(r store.Response, answers map[string]json.RawMessage, meta map[string]string) any
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

// newPeopleWriter returns the writer for people of def's questions and the metadata keys, with
// link giving the address a response's screenshot is seen at: a CSV (after a UTF-8 byte order
// mark, so that spreadsheets on Windows read it as UTF-8) when sheet is nil, else sheet's rows.
func newPeopleWriter(w io.Writer, def survey.Definition, metaKeys []string, link func(responseID string) string, sheets Spreadsheet) (Writer, error) {
	cols := peopleColumns(def, metaKeys, link)
	head := make([]string, 0, len(cols))
	for _, c := range cols {
		head = append(head, fitCell(c.head))
	}
	pw := &peopleWriter{cols: cols}
	if sheets == nil {
		pw.csv = &csvRows{w: csv.NewWriter(w), head: head, bom: w}
		return pw, nil
	}
	sheet, err := sheets.NewSheet(w, head)
	if err != nil {
		return nil, err
	}
	pw.sheet = sheet
	return pw, nil
}

// peopleColumns are the columns for people: the response's own, each question's, and a column
// for each metadata key.
func peopleColumns(def survey.Definition, metaKeys []string, link func(responseID string) string) []peopleColumn {
	cols := []peopleColumn{
		{"Response", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) any { return r.ID }},
		{"Respondent", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) any { return r.Respondent }},
		{"Created", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) any { return r.CreatedAt }},
		{"Updated", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) any { return r.UpdatedAt }},
		{"Finished", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) any {
			return map[bool]string{true: "yes", false: "no"}[r.Finished]
		}},
	}
	if def.Languages != nil {
		cols = append(cols, peopleColumn{"Language", func(r store.Response, _ map[string]json.RawMessage, _ map[string]string) any { return r.Language }})
	}
	titles := map[string]int{}
	for _, q := range def.Questions {
		titles[q.Title]++
	}
	for i := range def.Questions {
		cols = append(cols, questionColumns(&def.Questions[i], titles[def.Questions[i].Title] > 1, link)...)
	}
	for _, k := range metaKeys {
		cols = append(cols, peopleColumn{"metadata." + k, func(_ store.Response, _ map[string]json.RawMessage, meta map[string]string) any {
			return meta[k]
		}})
	}
	return cols
}

// questionColumns are a question's columns: none for a statement, four for a bug report, one
// per row or field for a matrix or a contact question (moreColumns), one for the others. A title that two questions share is told apart by the question's id.
func questionColumns(q *survey.Question, shared bool, link func(string) string) []peopleColumn {
	head := q.Title
	if shared || head == "" {
		head += " (" + q.ID + ")"
	}
	id := q.ID
	if cols, ok := moreColumns(q, head); ok {
		return cols
	}
	switch q.Type() {
	case survey.TypeStatement:
		return nil
	case survey.TypeBugReport:
		part := func(name string, of func(a survey.BugReportAnswer) string) peopleColumn {
			return peopleColumn{head + ": " + name, func(r store.Response, answers map[string]json.RawMessage, _ map[string]string) any {
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
			part("page", func(a survey.BugReportAnswer) string { return pageOf(a.Metadata) }),
			{head + ": screenshot", func(r store.Response, answers map[string]json.RawMessage, _ map[string]string) any {
				var a survey.BugReportAnswer
				if raw := answers[id]; len(raw) == 0 || json.Unmarshal(raw, &a) != nil || a.ScreenshotDataURL == nil {
					return ""
				}
				return link(r.ID)
			}},
		}
	}
	return []peopleColumn{{head, func(_ store.Response, answers map[string]json.RawMessage, _ map[string]string) any {
		return peopleCell(answers[id])
	}}}
}

// pageOf is the page a bug report was written on: the url member of the metadata the widget
// writes (a JSON object of the page, the browser, the viewport and the time; "" when it has no
// url), or the metadata as it is when it is not an object (a page's path, say).
func pageOf(metadata string) string {
	t := strings.TrimSpace(metadata)
	if !strings.HasPrefix(t, "{") {
		return metadata
	}
	var m struct {
		URL string `json:"url"`
	}
	if json.Unmarshal([]byte(t), &m) != nil {
		return metadata // not JSON after all: what the writer wrote
	}
	return m.URL
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// peopleCell is an answer as a person reads it: text as it is, a number as written (a
// json.Number), a list of choices joined by "; ".
func peopleCell(raw json.RawMessage) any {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var list []string
	if raw[0] == '[' && json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, "; ")
	}
	if raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9' {
		return json.Number(raw)
	}
	return csvCell(raw)
}

// cellText is a cell as a CSV writes it: a time as the API writes one, a number as written.
func cellText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	case time.Time:
		return string(wire.AppendTime(nil, v))
	}
	return fmt.Sprint(v)
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

// peopleWriter writes the export for people, as a CSV or to a spreadsheet's sheet.
type peopleWriter struct {
	cols  []peopleColumn
	csv   *csvRows // or
	sheet Sheet
	cells []any
	text  []string
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
	e.cells, e.text = e.cells[:0], e.text[:0]
	for _, c := range e.cols {
		v := c.cell(r, answers, meta)
		if s, ok := v.(string); ok {
			v = fitCell(s)
		}
		e.cells = append(e.cells, v)
		e.text = append(e.text, fitCell(cellText(v)))
	}
	if e.sheet != nil {
		return e.sheet.WriteRow(e.cells)
	}
	return e.csv.writeRow(e.text)
}

// Flush ends the CSV, or the spreadsheet's file.
func (e *peopleWriter) Flush() error {
	if e.sheet != nil {
		return e.sheet.Close()
	}
	return e.csv.Flush()
}

// Spreadsheet writes the export for people as a spreadsheet file (format=xlsx); package xlsx
// provides one, which an app turns on with svc.Options.Spreadsheets.
type Spreadsheet interface {
	// NewSheet starts a file of one sheet written to w, whose first row, head, stays in view
	// as the rows below it scroll.
	NewSheet(w io.Writer, head []string) (Sheet, error)
}

// Sheet takes a spreadsheet's rows, in order. Each cell is a string, a json.Number (a score, as
// written: a number in the sheet) or a time.Time (a date and time in the sheet).
type Sheet interface {
	WriteRow(cells []any) error
	// Close writes the rest of the file to the writer NewSheet was given.
	Close() error
}
