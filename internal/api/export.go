package api

import (
	"fmt"
	"net/http"

	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/internal/wire"

	"github.com/svc-feedback/svc/store"
)

// handleResponseGet serves "GET /v1/protected/surveys/{surveyId}/responses/{responseId}".
func (h *Handler) handleResponseGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, id, err := h.responseTarget(r, teamID)
	if err != nil {
		return err
	}
	resp, err := h.store.Response(r.Context(), sv.ID, id)
	if err != nil {
		return err
	}
	b := append([]byte(`{"data":`), wire.AppendResponse(nil, resp, true)...)
	writeBody(w, http.StatusOK, append(b, "}\n"...))
	return nil
}

// responseTarget is the request's survey of the team and its {responseId}, canonical (a UUID
// lower-cased).
func (h *Handler) responseTarget(r *http.Request, teamID string) (store.Survey, string, error) {
	sv, err := h.surveyFor(r, teamID, notDeleted)
	if err != nil {
		return store.Survey{}, "", err
	}
	id := r.PathValue("responseId")
	if !store.ValidResponseID(id) {
		return store.Survey{}, "", badRequest(fmt.Sprintf("responseId %q is not a cuid2 or a UUID", wire.Truncate(id)))
	}
	return sv, store.CanonicalResponseID(id), nil
}

// handleExport serves "GET /v1/protected/surveys/{surveyId}/responses/export": every response
// matching the list's filters, oldest first, streamed as CSV (the default) or NDJSON.
func (h *Handler) handleExport(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	format, err := report.ParseFormat(q)
	if err != nil {
		return err
	}
	var rq store.ResponseQuery
	sv, err := h.filteredQuery(r, teamID, q, &rq)
	if err != nil {
		return err
	}
	return report.ServeExport(w, r, h.log, h.store, sv, format, rq, h.opts.MaxPageBytes)
}

// filteredQuery reads the list's filters (respondent, after, before) into rq and loads the
// request's survey, whose id it sets in rq.
func (h *Handler) filteredQuery(r *http.Request, teamID string, q map[string][]string, rq *store.ResponseQuery) (store.Survey, error) {
	if err := responseFilters(q, rq); err != nil {
		return store.Survey{}, err
	}
	sv, err := h.surveyFor(r, teamID, notDeleted)
	rq.SurveyID = sv.ID
	return sv, err
}

// responseFilters reads the list's filters (respondent, after, before) into rq.
func responseFilters(q map[string][]string, rq *store.ResponseQuery) error {
	var err error
	if rq.Respondent, err = wire.Query(q, "respondent"); err != nil {
		return err
	}
	if _, given := q["respondent"]; given {
		if err := store.ValidateRespondent(rq.Respondent); err != nil {
			return badRequest(fmt.Sprintf("respondent must be 1 to %d characters", store.MaxRespondentChars))
		}
	}
	if rq.After, err = parseTimeParam(q, "after"); err != nil {
		return err
	}
	if rq.Before, err = parseTimeParam(q, "before"); err != nil {
		return err
	}
	if !rq.After.IsZero() && !rq.Before.IsZero() && rq.After.After(rq.Before) {
		return badRequest("after must not be later than before")
	}
	return nil
}

// handleResponseDelete serves "DELETE /v1/protected/surveys/{surveyId}/responses/{responseId}":
// the response is gone for good, from lists, stats, score distributions and history, and its
// unsent delivery with it.
func (h *Handler) handleResponseDelete(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, id, err := h.responseTarget(r, teamID)
	if err != nil {
		return err
	}
	if err := h.store.DeleteResponse(r.Context(), sv.ID, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleRespondentErase serves "DELETE /v1/protected/respondents/{respondent}": the person's
// responses and events are erased from every survey of the team (GDPR article 17).
func (h *Handler) handleRespondentErase(w http.ResponseWriter, r *http.Request, teamID string) error {
	respondent := r.PathValue("respondent")
	if err := store.ValidateRespondent(respondent); err != nil {
		return badRequest(fmt.Sprintf("respondent must be 1 to %d characters", store.MaxRespondentChars))
	}
	erased, err := h.store.EraseRespondent(r.Context(), teamID, respondent)
	if err != nil {
		return err
	}
	h.log.InfoContext(r.Context(), "respondent erased", "team", teamID, "responses", erased.Responses, "events", erased.Events)
	h.writeJSON(w, http.StatusOK, struct {
		Data struct {
			Responses int `json:"responses"`
			Events    int `json:"events"`
		} `json:"data"`
	}{Data: struct {
		Responses int `json:"responses"`
		Events    int `json:"events"`
	}{erased.Responses, erased.Events}})
	return nil
}
