package console

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"

	"github.com/svc-feedback/svc/internal/problem"
	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// An open-ended question's page: every answer written in the page's range, newest first, a page
// at a time, and a search among them (the filter answer.{questionId}=words).

// answersPage is how many answers the page lists at a time.
const answersPage = 50

type answersView struct {
	Survey    store.Survey
	Question  *survey.Question
	TimeRange string
	Search    string
	Answers   []writtenAnswer
	// Older is the link to the next older page, if any; Newest to the first page, when this
	// is not it.
	Older, Newest string
}

type writtenAnswer struct {
	ResponseID, Respondent, Text string
	CreatedAt                    wire.Time
}

func (rs *Results) answers(w http.ResponseWriter, r *http.Request) {
	pr, err := rs.pageRange(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	i := slices.IndexFunc(pr.sv.Questions, func(q survey.Question) bool { return q.ID == r.PathValue("questionId") })
	if i < 0 || pr.sv.Questions[i].Type() != survey.TypeOpenEnded {
		rs.fail(w, r, problem.NotFound("no such open-ended question"))
		return
	}
	q := &pr.sv.Questions[i]
	search, err := wire.Query(pr.q, "q")
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	fq := url.Values{}
	if search != "" {
		fq.Set("answer."+q.ID, search)
	}
	f, err := report.ParseFilter(fq, pr.sv.Definition)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	cursor, err := wire.ParseCursor(pr.q)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	v := answersView{Survey: pr.sv, Question: q, TimeRange: pr.tr, Search: search}
	link := func(c string) string {
		u := url.Values{"timeRange": {pr.tr}}
		if search != "" {
			u.Set("q", search)
		}
		if c != "" {
			u.Set("cursor", c)
		}
		return "?" + u.Encode()
	}
	if err := rs.writtenAnswers(r, pr, q.ID, f, cursor, &v); err != nil {
		rs.fail(w, r, err)
		return
	}
	if v.Older != "" {
		v.Older = link(v.Older)
	}
	if cursor != nil {
		v.Newest = link("")
	}
	rs.render(w, r, "answers.html", v)
}

// writtenAnswers reads answers until it has a page of them, or none are left: responses that
// answered other questions only are passed over.
func (rs *Results) writtenAnswers(r *http.Request, pr pageRange, questionID string, f report.Filter, cursor *store.Cursor, v *answersView) error {
	q := store.ResponseQuery{SurveyID: pr.sv.ID, Limit: answersPage, After: pr.cur.Start, Before: pr.cur.End.Add(-1),
		Cursor: cursor, MaxBytes: rs.maxPageBytes}
	for {
		page, next, err := report.FilteredResponses(r.Context(), rs.store, q, f)
		if err != nil {
			return err
		}
		for _, resp := range page {
			var answers map[string]json.RawMessage
			var text string
			if json.Unmarshal(resp.Data, &answers) != nil || json.Unmarshal(answers[questionID], &text) != nil || text == "" {
				continue
			}
			v.Answers = append(v.Answers, writtenAnswer{resp.ID, resp.Respondent, text, wire.Time(resp.CreatedAt)})
			if len(v.Answers) == answersPage {
				if next != nil || resp.ID != page[len(page)-1].ID {
					v.Older = *wire.EncodeCursor(&store.Cursor{CreatedAt: resp.CreatedAt, ID: resp.ID})
				}
				return nil
			}
		}
		if next == nil {
			return nil
		}
		q.Cursor = next
	}
}
