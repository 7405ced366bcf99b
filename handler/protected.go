package handler

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/jsonappend"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// page is a paginated list reply (contract 4.5, 4.6).
type page[T any] struct {
	Data       []T     `json:"data"`
	NextCursor *string `json:"nextCursor"`
	Limit      int     `json:"limit"`
	Links      links   `json:"links"`
}

// surveySummary is an item of the survey list (contract 2.7).
type surveySummary struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Status      string `json:"status"`
	CreatedAt   Time   `json:"createdAt"`
	UpdatedAt   Time   `json:"updatedAt"`
}

// handleSurveysList serves "GET /v1/protected/surveys".
func (h *Handler) handleSurveysList(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	limit, cursor, err := parsePage(q)
	if err != nil {
		return err
	}
	surveys, next, err := h.store.Surveys(r.Context(), teamID, cursor, limit)
	if err != nil {
		return err
	}
	items := make([]surveySummary, len(surveys))
	for i, sv := range surveys {
		desc := ""
		if sv.Description != nil {
			desc = *sv.Description
		}
		items[i] = surveySummary{sv.ID, sv.Title, desc, string(sv.Status), Time(sv.CreatedAt), Time(sv.UpdatedAt)}
	}
	nc := encodeCursor(next)
	h.writeJSON(w, http.StatusOK, page[surveySummary]{items, nc, limit, h.pageLinks(r, q, nc)})
	return nil
}

// fullSurvey is the protected view of a survey: the public view plus its identity and status.
type fullSurvey struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	survey.Definition
	CreatedAt Time `json:"createdAt"`
	UpdatedAt Time `json:"updatedAt"`
}

// handleProtectedSurveyGet serves "GET /v1/protected/surveys/{surveyId}".
func (h *Handler) handleProtectedSurveyGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, err := h.surveyFor(r, teamID, notDeleted)
	if err != nil {
		return err
	}
	h.writeJSON(w, http.StatusOK, fullSurvey{sv.ID, string(sv.Status), sv.Definition, Time(sv.CreatedAt), Time(sv.UpdatedAt)})
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
	if rq.Respondent, err = query(q, "respondent"); err != nil {
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
	sv, err := h.surveyFor(r, teamID, notDeleted)
	if err != nil {
		return err
	}
	rq.SurveyID = sv.ID
	responses, next, err := h.store.Responses(r.Context(), rq)
	if err != nil {
		return err
	}
	nc := encodeCursor(next)
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
		b = append(b, `{"id":`...)
		b = jsonappend.String(b, r.ID)
		b = append(b, `,"respondent":`...)
		b = jsonappend.String(b, r.Respondent)
		b = append(b, `,"data":`...)
		b = append(b, rawOrEmpty(r.Data)...)
		b = append(b, `,"clientMetadata":`...)
		b = append(b, rawOrEmpty(r.Metadata)...)
		b = append(b, `,"finished":`...)
		b = strconv.AppendBool(b, r.Finished)
		b = append(b, `,"createdAt":"`...)
		b = appendTime(b, r.CreatedAt)
		b = append(b, `","updatedAt":"`...)
		b = appendTime(b, r.UpdatedAt)
		b = append(b, `"}`...)
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
	s, err := query(q, name)
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

// handleStatsGet serves "GET /v1/protected/surveys/{surveyId}/stats".
func (h *Handler) handleStatsGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, err := h.surveyFor(r, teamID, notDeleted)
	if err != nil {
		return err
	}
	st, err := h.store.Stats(r.Context(), sv.ID)
	if err != nil {
		return err
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

// rawOrEmpty returns stored JSON, or an empty object for a missing value.
func rawOrEmpty(b json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(b)) == 0 {
		return json.RawMessage("{}")
	}
	return b
}
