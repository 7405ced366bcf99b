package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/svc-feedback/svc/internal/jsonappend"
	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/survey"

	"github.com/svc-feedback/svc/store"
)

// Surveys: the request's survey of the key's team; the public view the widget reads; the team's
// list and the whole survey, for the protected API. Their changes are in manage.go.

// surveyFor loads the request's {surveyId} for the team: 400 for an id that is not a cuid2,
// 404 for a survey the team does not hold or whose status visible does not allow.
func (h *Handler) surveyFor(r *http.Request, teamID string, visible func(store.Status) bool) (store.Survey, error) {
	id := r.PathValue("surveyId")
	if !store.ValidSurveyID(id) {
		return store.Survey{}, badRequest(fmt.Sprintf("surveyId %q is not a cuid2 (a lowercase letter, then 1 to 31 lowercase letters or digits)", wire.Truncate(id)))
	}
	sv, err := h.readSurvey(r.Context(), teamID, id)
	if err != nil {
		return store.Survey{}, surveyNotFound(err)
	}
	if !visible(sv.Status) {
		if sv.Status == store.StatusInactive {
			// Only the survey's own team gets here (the read is scoped to the key's team), so
			// saying why leaks nothing to anyone else, and saves its developer a search.
			return store.Survey{}, notFound(`survey not found: it is inactive; activate it with PATCH /v1/protected/surveys/` + sv.ID + ` and {"status":"active"}`)
		}
		return store.Survey{}, notFound("survey not found")
	}
	return sv, nil
}

// readSurvey reads a survey the handler only reads, so it may share the store's own.
func (h *Handler) readSurvey(ctx context.Context, teamID, id string) (store.Survey, error) {
	if shared, ok := h.store.(store.SharedSurveyReader); ok {
		return shared.SharedSurvey(ctx, teamID, id)
	}
	return h.store.Survey(ctx, teamID, id)
}

// isActive is the visibility of the widget endpoints: active surveys only.
func isActive(s store.Status) bool { return s == store.StatusActive }

// notDeleted is the visibility of the protected endpoints: every survey not deleted.
func notDeleted(s store.Status) bool { return s != store.StatusDeleted }

func surveyNotFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return notFound("survey not found")
	}
	return err
}

// handleSurveyGet serves "GET /v1/svc/{surveyId}": the public view of an active survey, with
// an ETag; If-None-Match with a current tag gets 304.
func (h *Handler) handleSurveyGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, err := h.surveyFor(r, teamID, isActive)
	if err != nil {
		return err
	}
	lang, err := surveyLanguage(r, &sv)
	if err != nil {
		return err
	}
	enc, err := h.publicSurvey(sv, lang)
	if err != nil {
		return err
	}
	if sv.Languages != nil {
		w.Header().Add("Vary", "Accept-Language")
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
	// next is next-survey's reply picking this survey, made once per delay it is asked with.
	next atomic.Pointer[nextReply]
}

type nextReply struct {
	delay int
	body  []byte
}

// asNext returns next-survey's reply picking the survey, whose id is id, shown after delay
// seconds: the public view, with its id first. Callers must not change it.
func (e *encodedSurvey) asNext(id string, delay int) []byte {
	if n := e.next.Load(); n != nil && n.delay == delay {
		return n.body
	}
	b := make([]byte, 0, len(e.body)+96)
	b = jsonappend.String(append(b, `{"survey":{"id":`...), id)
	b = append(append(b, ','), e.body[1:len(e.body)-2]...) // without its braces and newline
	b = strconv.AppendInt(append(b, `},"delaySeconds":`...), int64(delay), 10)
	b = append(b, ",\"reason\":null}\n"...)
	e.next.Store(&nextReply{delay, b})
	return b
}

// publicView is a survey as a person answers it: its texts in one language, which it names
// when the survey has translations.
type publicView struct {
	survey.Definition
	Language string `json:"language,omitempty"`
}

// publicSurvey returns the survey's encoded public view in lang ("" for a survey without
// translations), from the cache when the survey's version (UpdatedAt, which the store moves
// forward on every change) has not changed.
func (h *Handler) publicSurvey(sv store.Survey, lang string) (*encodedSurvey, error) {
	key := sv.ID
	if lang != "" {
		key += "/" + lang
	}
	h.surveysMu.RLock()
	enc, ok := h.surveys[key]
	h.surveysMu.RUnlock()
	if ok && enc.version.Equal(sv.UpdatedAt) {
		return enc, nil
	}
	// The team's targeting rules and the other languages are not the browser's business.
	body, err := json.Marshal(publicView{sv.Definition.Localize(lang), lang})
	if err != nil {
		return nil, fmt.Errorf("encode survey %s: %w", sv.ID, err)
	}
	body = append(body, '\n')
	sum := sha256.Sum256(body)
	enc = &encodedSurvey{version: sv.UpdatedAt, body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	h.surveysMu.Lock()
	h.surveys[key] = enc
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

// page is a paginated list reply, as every list of the API has it (docs/api.md).
type page[T any] struct {
	Data       []T     `json:"data"`
	NextCursor *string `json:"nextCursor"`
	Limit      int     `json:"limit"`
	Links      links   `json:"links"`
}

// surveySummary is an item of the survey list, GET /v1/protected/surveys.
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
