package api

import (
	"fmt"
	"net/http"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
)

// Events and history: a respondent's views and dismissals, and when they last responded,
// viewed and dismissed.

// surveyAndRespondent loads the request's active {surveyId} and checks its {respondent}.
func (h *Handler) surveyAndRespondent(r *http.Request, teamID string) (store.Survey, string, error) {
	sv, err := h.surveyFor(r, teamID, isActive)
	if err != nil {
		return store.Survey{}, "", err
	}
	who := r.PathValue("respondent")
	if err := store.ValidateRespondent(who); err != nil {
		return store.Survey{}, "", badRequest(fmt.Sprintf("respondent must be 1 to %d characters", store.MaxRespondentChars))
	}
	return sv, who, nil
}

// historyJSON is a respondent's interaction history, as
// GET /v1/svc/{surveyId}/respondent/{respondent} gives it.
type historyJSON struct {
	LastRespondedAt *wire.Time `json:"lastRespondedAt"`
	LastViewedAt    *wire.Time `json:"lastViewedAt"`
	LastDismissedAt *wire.Time `json:"lastDismissedAt"`
}

// handleHistoryGet serves "GET /v1/svc/{surveyId}/respondent/{respondent}".
func (h *Handler) handleHistoryGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, who, err := h.surveyAndRespondent(r, teamID)
	if err != nil {
		return err
	}
	hist, err := h.store.History(r.Context(), sv.ID, who)
	if err != nil {
		return err
	}
	h.writeJSON(w, http.StatusOK, historyJSON{wire.TimePtr(hist.LastRespondedAt), wire.TimePtr(hist.LastViewedAt), wire.TimePtr(hist.LastDismissedAt)})
	return nil
}

// handleEventPost serves "POST /v1/svc/{surveyId}/respondent/{respondent}/event".
func (h *Handler) handleEventPost(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, who, err := h.surveyAndRespondent(r, teamID)
	if err != nil {
		return err
	}
	body, err := decodeBody(h, w, r, h.opts.MaxEventBody, decodeEventBody)
	if err != nil {
		return limitNamed(err, "MaxEventBody")
	}
	if body.Type == nil || (*body.Type != string(store.EventView) && *body.Type != string(store.EventDismiss)) {
		return badRequest(`type is required and must be "view" or "dismiss"`)
	}
	now := h.now().UTC()
	e := store.Event{SurveyID: sv.ID, Respondent: who, Type: store.EventType(*body.Type), At: now}
	if err := h.store.RecordEvent(r.Context(), e); err != nil {
		return surveyNotFound(err)
	}
	h.writeJSON(w, http.StatusOK, struct {
		Type       string    `json:"type"`
		RecordedAt wire.Time `json:"recordedAt"`
	}{*body.Type, wire.Time(now)})
	return nil
}
