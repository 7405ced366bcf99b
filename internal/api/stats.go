package api

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Stats and results: the engagement counters, score distributions and summaries, over a
// time range, from the counts the store keeps (package report works them out).

// handleStatsGet serves "GET /v1/protected/surveys/{surveyId}/stats": the lifetime counters,
// or with a timeRange (as score distributions take it) the counts of that range.
func (h *Handler) handleStatsGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	var st store.Stats
	sv, tr, cur, _, err := h.rangeOf(r, teamID, q)
	if err != nil {
		return err
	}
	reads, filtered, err := h.readsOf(q, sv)
	if err != nil {
		return err
	}
	if tr != "all-time" || filtered {
		// A range other than the lifetime, or a filter: counted in it, unique respondents
		// included.
		if st, err = reads.RangeStats(r.Context(), sv.ID, cur.Start, cur.End); err != nil {
			return err
		}
	} else {
		if st, err = h.store.Stats(r.Context(), sv.ID); err != nil {
			return err
		}
	}
	type statsJSON struct {
		TotalViews        int64 `json:"totalViews"`
		UniqueViewers     int64 `json:"uniqueViewers"`
		TotalDismissals   int64 `json:"totalDismissals"`
		UniqueDismissers  int64 `json:"uniqueDismissers"`
		TotalResponses    int64 `json:"totalResponses"`
		UniqueResponders  int64 `json:"uniqueResponders"`
		FinishedResponses int64 `json:"finishedResponses"`
	}
	h.writeJSON(w, http.StatusOK, struct {
		Data statsJSON `json:"data"`
	}{statsJSON(st)})
	return nil
}

// parseQuestionIDs reads questionIds, repeated or comma-separated; nil means all.
func parseQuestionIDs(values []string) []string {
	var ids []string
	for _, v := range values {
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// handleScoreDistributionsGet serves "GET /v1/protected/surveys/{surveyId}/score-distributions".
func (h *Handler) handleScoreDistributionsGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	sv, tr, cur, prev, err := h.rangeOf(r, teamID, q)
	if err != nil {
		return err
	}
	var questions []*survey.Question
	ids := parseQuestionIDs(q["questionIds"])
	if len(ids) == 0 {
		for i := range sv.Questions {
			if sv.Questions[i].Type() == survey.TypeRating {
				questions = append(questions, &sv.Questions[i])
			}
		}
	}
	seen := make(map[string]bool)
	for _, id := range ids {
		qu, ok := sv.Definition.Question(id)
		if !ok || qu.Type() != survey.TypeRating {
			return badRequest(fmt.Sprintf("questionIds: %q is not a rating question of this survey", wire.Truncate(id)))
		}
		if !seen[id] {
			seen[id] = true
			questions = append(questions, qu)
		}
	}
	return writePeriods(h, w, tr, cur, prev, func(p report.Period) (report.ScorePeriod, error) {
		return report.Scores(r.Context(), h.store, sv.ID, questions, p)
	})
}

// writePeriods writes {"data": {"timeRange", "current", "previous"}}, each period as of reads
// it (previous null when there is none).
func writePeriods[T any](h *Handler, w http.ResponseWriter, tr string, cur report.Period, prev *report.Period, of func(report.Period) (T, error)) error {
	current, err := of(cur)
	if err != nil {
		return err
	}
	var previous *T
	if prev != nil {
		p, err := of(*prev)
		if err != nil {
			return err
		}
		previous = &p
	}
	type dataJSON struct {
		TimeRange string `json:"timeRange"`
		Current   T      `json:"current"`
		Previous  *T     `json:"previous"`
	}
	h.writeJSON(w, http.StatusOK, struct {
		Data dataJSON `json:"data"`
	}{dataJSON{tr, current, previous}})
	return nil
}

// readsOf is the store the summary, stats and trends of sv read, through the request's filters
// (report.Filtered: the store itself without one), and whether a filter is given.
func (h *Handler) readsOf(q url.Values, sv store.Survey) (store.Store, bool, error) {
	f, err := report.ParseFilter(q, sv.Definition)
	if err != nil {
		return nil, false, err
	}
	return report.Filtered(h.store, sv, f, h.opts.MaxPageBytes), !f.Empty(), nil
}

// rangeOf reads the request's survey of the team and its timeRange (all-time when absent):
// the current period and the previous one (nil for all-time).
func (h *Handler) rangeOf(r *http.Request, teamID string, q map[string][]string) (store.Survey, string, report.Period, *report.Period, error) {
	tr, err := wire.Query(q, "timeRange")
	if err != nil {
		return store.Survey{}, "", report.Period{}, nil, err
	}
	sv, err := h.surveyFor(r, teamID, notDeleted)
	if err != nil {
		return store.Survey{}, "", report.Period{}, nil, err
	}
	cur, prev, err := report.Range(tr, h.now(), sv.CreatedAt)
	if tr == "" {
		tr = "all-time"
	}
	return sv, tr, cur, prev, err
}

// handleSummaryGet serves "GET /v1/protected/surveys/{surveyId}/summary": per question in
// position order, the counts and scores of the answers, and the funnel, for a timeRange (as
// score distributions take it) and the period before it. Every count comes from the counts
// the store keeps on write (store.Store.Counts), so its cost does not grow with the responses.
func (h *Handler) handleSummaryGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	sv, tr, cur, prev, err := h.rangeOf(r, teamID, q)
	if err != nil {
		return err
	}
	reads, _, err := h.readsOf(q, sv)
	if err != nil {
		return err
	}
	return writePeriods(h, w, tr, cur, prev, func(p report.Period) (report.SummaryPeriod, error) {
		return report.Summary(r.Context(), reads, sv, p, h.opts.MaxPageBytes)
	})
}

// handleTrendsGet serves "GET /v1/protected/surveys/{surveyId}/trends": the survey's views,
// responses, finished responses and rating questions' scores bucket by bucket (interval day,
// the default, week or month) over a timeRange, from the counts the store keeps on write.
// questionIds (repeated or comma-separated) picks the rating questions; all of them by default.
func (h *Handler) handleTrendsGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	interval, err := wire.Query(q, "interval")
	if err != nil {
		return err
	}
	sv, _, cur, _, err := h.rangeOf(r, teamID, q)
	if err != nil {
		return err
	}
	qs, err := report.TrendQuestions(sv, parseQuestionIDs(q["questionIds"]))
	if err != nil {
		return err
	}
	reads, _, err := h.readsOf(q, sv)
	if err != nil {
		return err
	}
	t, err := report.Trends(r.Context(), reads, sv, cur, cmp.Or(interval, report.IntervalDay), qs)
	if err != nil {
		return err
	}
	h.writeJSON(w, http.StatusOK, struct {
		Data report.Trend `json:"data"`
	}{t})
	return nil
}
