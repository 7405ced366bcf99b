package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/wire"

	"github.com/svc-feedback/svc/store"
)

func surveyNotFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return notFound("survey not found")
	}
	return err
}

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

// handleSurveyGet serves "GET /v1/svc/{surveyId}": the public view of an active survey, with
// an ETag; If-None-Match with a current tag gets 304.
func (h *Handler) handleSurveyGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, err := h.surveyFor(r, teamID, isActive)
	if err != nil {
		return err
	}
	enc, err := h.publicSurvey(sv)
	if err != nil {
		return err
	}
	setHeader(w.Header(), headerETag, enc.etag)
	setHeader(w.Header(), headerCacheControl, "no-cache")
	if etagMatches(headerValue(r.Header, headerIfNoneMatch), enc.etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	writeBody(w, http.StatusOK, enc.body)
	return nil
}

// encodedSurvey is a survey's public view, encoded once per version.
type encodedSurvey struct {
	version time.Time
	body    []byte
	etag    string
}

// publicSurvey returns the survey's encoded public view, from the cache when the survey's
// version (UpdatedAt, which the store moves forward on every change) has not changed.
func (h *Handler) publicSurvey(sv store.Survey) (*encodedSurvey, error) {
	h.surveysMu.RLock()
	enc, ok := h.surveys[sv.ID]
	h.surveysMu.RUnlock()
	if ok && enc.version.Equal(sv.UpdatedAt) {
		return enc, nil
	}
	body, err := json.Marshal(sv.Definition)
	if err != nil {
		return nil, fmt.Errorf("encode survey %s: %w", sv.ID, err)
	}
	body = append(body, '\n')
	sum := sha256.Sum256(body)
	enc = &encodedSurvey{version: sv.UpdatedAt, body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	h.surveysMu.Lock()
	h.surveys[sv.ID] = enc
	h.surveysMu.Unlock()
	return enc, nil
}

// etagMatches applies If-None-Match's weak comparison: any listed tag, or *, matches.
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// historyJSON is a respondent's interaction history (contract 2.8).
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
	raw, err := readBody(w, r, h.opts.MaxEventBody)
	if err != nil {
		return err
	}
	body, err := decodeEventBody(raw)
	if err != nil {
		return err
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

// handleResponsePut serves "PUT /v1/svc/{surveyId}/response/{responseId}": it creates the
// response, or replaces its answers when the id exists for the same respondent (409 for
// another respondent's id).
func (h *Handler) handleResponsePut(w http.ResponseWriter, r *http.Request, teamID string) error {
	id := r.PathValue("responseId")
	if !store.ValidResponseID(id) {
		return badRequest(fmt.Sprintf("responseId %q is not a cuid2 or a UUID", wire.Truncate(id)))
	}
	id = store.CanonicalResponseID(id)
	sv, err := h.surveyFor(r, teamID, isActive)
	if err != nil {
		return err
	}
	raw, err := readBody(w, r, h.opts.MaxResponseBody)
	if err != nil {
		return err
	}
	body, err := decodeResponseBody(raw, &sv.Definition)
	if err != nil {
		return err
	}
	switch {
	case body.Respondent == nil:
		return badRequest("respondent is required")
	case body.Data == nil:
		return badRequest("data is required: an object of answers by question id")
	case !body.HasMeta:
		return badRequest("metadata is required: an object of strings (it may be empty)")
	}
	answers := body.Data
	write := store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: *body.Respondent, Data: answers,
		Metadata: body.Metadata, Telemetry: body.Telemetry, Finished: body.Finished, At: h.now().UTC()}
	if err := write.Validate(); err != nil {
		return err
	}
	if err := sv.Definition.ValidateAnswers(answers); err != nil {
		return err
	}
	resp, created, err := h.store.PutResponse(r.Context(), write)
	if err != nil {
		return surveyNotFound(err)
	}
	if created && sv.WebhookURL != "" {
		h.deliveryScheduled()
	}
	h.writeJSON(w, http.StatusOK, struct {
		ID        string    `json:"id"`
		CreatedAt wire.Time `json:"createdAt"`
	}{resp.ID, wire.Time(resp.CreatedAt)})
	return nil
}
