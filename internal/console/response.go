package console

import (
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/internal/problem"
	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// One response on the results pages, and its answers as text.

// answerTextMax is how many characters of an answer the list of responses shows: a response's
// own page and the export have them all.
const answerTextMax = 300

// answerRow is one answer of a response as the results pages show it: under its question's
// title, as text, and a bug report's parts apart.
type answerRow struct {
	Question, Answer string
	Bug              *bugReport
}

// bugReport is what a response's page shows of a bug report.
type bugReport struct {
	Title, Description string
	// Screenshot is the screenshot's data URL when it is an image the page shows, and
	// OtherScreenshot says one came in another format.
	Screenshot      template.URL
	OtherScreenshot bool
	Recording       bool
}

// shownImages are the screenshot formats a response's page shows: what browsers show in an img
// and the widget sends.
var shownImages = []string{"data:image/png;base64,", "data:image/jpeg;base64,", "data:image/webp;base64,"}

// answerRows are a response's answers in the survey's question order, named by the questions'
// titles; answers to questions the survey no longer has come last, named by their ids. With a
// max above 0, each answer is cut after max characters.
func answerRows(def survey.Definition, data json.RawMessage, max int) []answerRow {
	var answers map[string]json.RawMessage
	if json.Unmarshal(data, &answers) != nil {
		return nil
	}
	rows := make([]answerRow, 0, len(answers))
	for _, q := range def.Questions {
		if raw, ok := answers[q.ID]; ok {
			rows = append(rows, answerOf(q.Title, raw, max))
			delete(answers, q.ID)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(answers)) {
		rows = append(rows, answerOf(id, answers[id], max))
	}
	return rows
}

// answerOf is an answer as a person reads it: a text as it is, a number as written, a list
// joined by commas, a consent as "Yes", a matrix's or contact's fields as "name: value" pairs,
// a bug report by its title (and, uncut, its parts).
func answerOf(question string, raw json.RawMessage, max int) answerRow {
	row := answerRow{Question: question}
	switch a, _ := survey.DecodeAnswerOrUnknown(raw); a := a.(type) {
	case survey.Text:
		row.Answer = string(a)
	case survey.Number:
		row.Answer = strconv.FormatFloat(float64(a), 'f', -1, 64)
	case survey.Choices:
		row.Answer = strings.Join(a, ", ")
	case survey.Bool: // a consent's
		row.Answer = map[bool]string{true: "Yes", false: "No"}[bool(a)]
	case survey.Fields: // a matrix's rows or a contact question's fields
		parts := make([]string, 0, len(a))
		for _, k := range slices.Sorted(maps.Keys(a)) {
			parts = append(parts, k+": "+a[k])
		}
		row.Answer = strings.Join(parts, "; ")
	case survey.BugReportAnswer:
		row.Answer = "Bug report: " + a.Title
		if max <= 0 {
			row.Bug = bugReportOf(a)
		}
	default:
		row.Answer = string(raw)
	}
	if r := []rune(row.Answer); max > 0 && len(r) > max {
		row.Answer = string(r[:max]) + "…"
	}
	return row
}

func bugReportOf(a survey.BugReportAnswer) *bugReport {
	b := &bugReport{Title: a.Title, Recording: a.RecordingEventsJSON != nil}
	if a.Description != nil {
		b.Description = *a.Description
	}
	if shot := a.ScreenshotDataURL; shot != nil {
		// The store checked it is base64 of an image type; the page shows only the types above.
		if slices.ContainsFunc(shownImages, func(p string) bool { return strings.HasPrefix(*shot, p) }) {
			b.Screenshot = template.URL(*shot)
		} else {
			b.OtherScreenshot = true
		}
	}
	return b
}

// responsePage is what a response's page shows.
type responsePage struct {
	Survey   store.Survey
	Response store.Response
	Answers  []answerRow
	Metadata []answerRow
}

// response shows one response whole: every answer uncut, a bug report's screenshot, the
// metadata.
func (rs *Results) response(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	id := r.PathValue("responseId")
	if !store.ValidResponseID(id) {
		rs.fail(w, r, problem.BadRequest(fmt.Sprintf("responseId %q is not a response's id", wire.Truncate(id))))
		return
	}
	id = store.CanonicalResponseID(id)
	resp, err := rs.store.Response(r.Context(), sv.ID, id)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	p := responsePage{Survey: sv, Response: resp, Answers: answerRows(sv.Definition, resp.Data, 0)}
	var meta map[string]string
	_ = json.Unmarshal(resp.Metadata, &meta) // stored as an object of strings; nothing shown otherwise
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		p.Metadata = append(p.Metadata, answerRow{Question: k, Answer: meta[k]})
	}
	rs.render(w, r, "response.html", p)
}
