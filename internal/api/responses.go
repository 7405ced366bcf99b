package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/jsonappend"
	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
)

// Responses: the widget's PUT, and the protected API's lists, reads, exports, deletions and
// erasures of a respondent.

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
	body, err := decodeBody(h, w, r, h.opts.MaxResponseBody, func(jr *jsonReader) (responseBody, error) {
		return decodeResponseBody(jr, &sv.Definition)
	})
	if err != nil {
		return limitNamed(err, "MaxResponseBody")
	}
	switch {
	case body.Respondent == nil:
		return badRequest("respondent is required")
	case body.Data == nil:
		return badRequest("data is required: an object of answers by question id")
	case !body.HasMeta:
		return badRequest("metadata is required: an object of strings (it may be empty)")
	}
	if err := grantRespondentCheck(r.Context(), *body.Respondent); err != nil {
		return err
	}
	lang, err := responseLanguage(body.Language)
	if err != nil {
		return err
	}
	answers := body.Data
	write := store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: *body.Respondent, Data: answers,
		Metadata: body.Metadata, Telemetry: body.Telemetry, Language: lang, Finished: body.Finished, At: h.now().UTC()}
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
	// The reply is written by hand, as encoding/json would: this is the busiest write.
	b := make([]byte, 0, 96)
	b = jsonappend.String(append(b, `{"id":`...), resp.ID)
	b = wire.AppendTime(append(b, `,"createdAt":"`...), resp.CreatedAt)
	writeBody(w, http.StatusOK, append(b, "\"}\n"...))
	return nil
}

// handleResponsesList serves "GET /v1/protected/surveys/{surveyId}/responses".
func (h *Handler) handleResponsesList(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	limit, cursor, err := parsePage(q)
	if err != nil {
		return err
	}
	rq := store.ResponseQuery{Limit: limit, Cursor: cursor, MaxBytes: h.opts.MaxPageBytes}
	sv, err := h.filteredQuery(r, teamID, q, &rq)
	if err != nil {
		return err
	}
	f, err := report.ParseFilter(q, sv.Definition)
	if err != nil {
		return err
	}
	var (
		responses []store.Response
		next      *store.Cursor
	)
	if f.Empty() {
		responses, next, err = h.store.Responses(r.Context(), rq)
	} else {
		responses, next, err = report.FilteredResponses(r.Context(), h.store, rq, f)
	}
	if err != nil {
		return err
	}
	nc := wire.EncodeCursor(next)
	buf := h.pageBuffer()
	defer h.pageBuffers.Put(buf)
	body, err := appendResponsesPage((*buf)[:0], responses, nc, limit, h.pageLinks(r, q, nc))
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, body)
	if cap(body) <= maxPooledPage {
		*buf = body
	}
	return nil
}

// maxPooledPage is the largest page buffer kept for reuse: a rare page of long answers should
// not stay in memory after it is sent.
const maxPooledPage = 256 << 10

// pageBuffer returns a buffer to write a page into, from the pool when one is free. A page of
// 100 responses is tens of kilobytes, and allocating each afresh made up a third of the bytes
// a page request allocated, and so of the garbage collector's work.
func (h *Handler) pageBuffer() *[]byte {
	if b, ok := h.pageBuffers.Get().(*[]byte); ok {
		return b
	}
	return new([]byte)
}

// appendResponsesPage appends a page of responses to b, with each response's stored data and
// metadata JSON spliced in as it is, without decoding and encoding it again. The shape is that
// of page[responseItem].
func appendResponsesPage(b []byte, responses []store.Response, nextCursor *string, limit int, l links) ([]byte, error) {
	size := 128
	for _, r := range responses {
		size += len(r.Data) + len(r.Metadata) + len(r.ID) + len(r.Respondent) + 160
	}
	b = slices.Grow(b, size)
	b = append(b, `{"data":[`...)
	for i, r := range responses {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendResponse(b, r, false)
	}
	tail, err := json.Marshal(struct {
		NextCursor *string `json:"nextCursor"`
		Limit      int     `json:"limit"`
		Links      links   `json:"links"`
	}{nextCursor, limit, l})
	if err != nil {
		return nil, err
	}
	b = append(b, "],"...)
	b = append(b, tail[1:]...)
	return append(b, '\n'), nil
}

// parseTimeParam reads an optional RFC 3339 query parameter.
func parseTimeParam(q map[string][]string, name string) (time.Time, error) {
	s, err := wire.Query(q, name)
	if err != nil || s == "" {
		return time.Time{}, err
	}
	// An offset's "+" sent unescaped in a query decodes as a space; a date-time never holds one
	// there, so it can only have been meant as the "+".
	if i := len(s) - len("+hh:mm"); i > 0 && s[i] == ' ' {
		s = s[:i] + "+" + s[i+1:]
	}
	// RFC 3339 allows a lowercase "t" and "z"; time.Parse takes only capitals, and a date-time
	// has no other letters.
	t, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
	if err != nil {
		return time.Time{}, badRequest(fmt.Sprintf("%s must be an RFC 3339 date-time such as 2026-11-21T10:04:05Z", name))
	}
	return t.UTC(), nil
}

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
	o, err := report.ParseExport(q, h.opts.Spreadsheets)
	if err != nil {
		return err
	}
	// The CSV for people links a response's screenshot to the response's address in the API
	// (absolute under BaseURL), beside the export's own.
	base := strings.TrimSuffix(h.requestPath(r), "/export")
	o.Link = func(id string) string { return base + "/" + id }
	var rq store.ResponseQuery
	sv, err := h.filteredQuery(r, teamID, q, &rq)
	if err != nil {
		return err
	}
	if o.Filter, err = report.ParseFilter(q, sv.Definition); err != nil {
		return err
	}
	return report.ServeExport(w, r, h.log, h.store, sv, o, rq, h.opts.MaxPageBytes)
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
