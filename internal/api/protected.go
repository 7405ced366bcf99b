package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/wire"

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
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Status      string    `json:"status"`
	CreatedAt   wire.Time `json:"createdAt"`
	UpdatedAt   wire.Time `json:"updatedAt"`
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
		items[i] = surveySummary{sv.ID, sv.Title, desc, string(sv.Status), wire.Time(sv.CreatedAt), wire.Time(sv.UpdatedAt)}
	}
	nc := wire.EncodeCursor(next)
	h.writeJSON(w, http.StatusOK, page[surveySummary]{items, nc, limit, h.pageLinks(r, q, nc)})
	return nil
}

// fullSurvey is the protected view of a survey: the public view plus its identity, status and
// webhook settings (never its secret).
type fullSurvey struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	survey.Definition
	WebhookURL         *string   `json:"webhookUrl"`
	WebhookSecretSet   bool      `json:"webhookSecretSet"`
	WebhookWaitSeconds int       `json:"webhookWaitSeconds"`
	CreatedAt          wire.Time `json:"createdAt"`
	UpdatedAt          wire.Time `json:"updatedAt"`
}

// encodeFullSurvey is the protected view of sv as JSON, and its ETag.
func encodeFullSurvey(sv store.Survey) ([]byte, string, error) {
	var hook *string
	if sv.WebhookURL != "" {
		hook = &sv.WebhookURL
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(fullSurvey{sv.ID, string(sv.Status), sv.Definition, hook, sv.WebhookSecret != "", sv.WebhookWaitSeconds, wire.Time(sv.CreatedAt), wire.Time(sv.UpdatedAt)})
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(buf.Bytes())
	return buf.Bytes(), `"` + hex.EncodeToString(sum[:12]) + `"`, nil
}

// surveyETag is the ETag of the protected view of sv, which PATCH and DELETE check If-Match
// against.
func surveyETag(sv store.Survey) string {
	_, tag, _ := encodeFullSurvey(sv)
	return tag
}

// writeSurvey writes the protected view of sv with its ETag.
func (h *Handler) writeSurvey(w http.ResponseWriter, status int, sv store.Survey) error {
	body, tag, err := encodeFullSurvey(sv)
	if err != nil {
		return err
	}
	w.Header().Set("ETag", tag)
	writeBody(w, status, body)
	return nil
}

// handleProtectedSurveyGet serves "GET /v1/protected/surveys/{surveyId}".
func (h *Handler) handleProtectedSurveyGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, err := h.surveyFor(r, teamID, notDeleted)
	if err != nil {
		return err
	}
	return h.writeSurvey(w, http.StatusOK, sv)
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
	if _, err := h.filteredQuery(r, teamID, q, &rq); err != nil {
		return err
	}
	responses, next, err := h.store.Responses(r.Context(), rq)
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

// handleStatsGet serves "GET /v1/protected/surveys/{surveyId}/stats": the lifetime counters,
// or with a timeRange (as score distributions take it) the counts of that range.
func (h *Handler) handleStatsGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	tr, err := wire.Query(q, "timeRange") // given twice, a 400, as everywhere
	if err != nil {
		return err
	}
	var st store.Stats
	if tr != "" && tr != "all-time" {
		// A range other than the lifetime: counted in it, unique respondents included.
		sv, _, cur, _, err := h.rangeOf(r, teamID, q)
		if err != nil {
			return err
		}
		if st, err = h.store.RangeStats(r.Context(), sv.ID, cur.Start, cur.End); err != nil {
			return err
		}
	} else {
		sv, err := h.surveyFor(r, teamID, notDeleted)
		if err != nil {
			return err
		}
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
