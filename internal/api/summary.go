package api

import (
	"net/http"

	"github.com/svc-feedback/svc/internal/report"
)

// handleSummaryGet serves "GET /v1/protected/surveys/{surveyId}/summary": per question in
// position order, the counts and scores of the answers, and the funnel, for a timeRange (as
// score distributions take it) and the period before it. Every count comes from the counts
// the store keeps on write (store.Counts), so its cost does not grow with the responses.
func (h *Handler) handleSummaryGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	sv, tr, cur, prev, err := h.rangeOf(r, teamID, q)
	if err != nil {
		return err
	}
	return writePeriods(h, w, tr, cur, prev, func(p report.Period) (report.SummaryPeriod, error) {
		return report.Summary(r.Context(), h.store, sv, p, h.opts.MaxPageBytes)
	})
}
