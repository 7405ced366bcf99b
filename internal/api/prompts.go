package api

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Limits of a person's attributes, as the team's backend or a page sends them.
const (
	maxAttributes     = 100
	maxAttributeKey   = 200
	maxPromptsListed  = 100
	maxAttributesBody = 64 << 10
)

// decodeAttributes reads an object of attributes: each a string, number or boolean, at most
// maxAttributes of them. A null is none.
func decodeAttributes(jr *jsonReader, field string) (map[string]any, error) {
	attrs := map[string]any{}
	t, err := jr.object(maxAttributes, func(key string) error {
		if key == "" || utf8.RuneCountInString(key) > maxAttributeKey {
			return badRequest(fmt.Sprintf("%s: a key has 1 to %d characters", field, maxAttributeKey))
		}
		tok, err := jr.token()
		if err != nil {
			return err
		}
		switch tok.Kind() {
		case '"':
			s := tok.String()
			if utf8.RuneCountInString(s) > survey.MaxRuleValue {
				return badRequest(fmt.Sprintf("%s: the value of %q has more than %d characters", field, wire.Truncate(key), survey.MaxRuleValue))
			}
			attrs[key] = s
		case '0':
			f, err := tok.Float()
			if err != nil || math.IsInf(f, 0) {
				return badRequest(fmt.Sprintf("%s: the value of %q is a number out of range", field, wire.Truncate(key)))
			}
			attrs[key] = f
		case 't', 'f':
			attrs[key] = tok.Bool()
		default:
			return badRequest(fmt.Sprintf("%s: the value of %q must be a string, number or boolean, not %s", field, wire.Truncate(key), tokenKind(tok)))
		}
		return nil
	})
	switch {
	case errors.Is(err, errNotObject) && t.Kind() == 'n':
		return nil, nil
	case errors.Is(err, errNotObject):
		return nil, badRequest(fmt.Sprintf("%s must be an object of strings, numbers and booleans, not %s", field, tokenKind(t)))
	}
	return attrs, err
}

// handleAttributesPut serves "PUT /v1/protected/respondents/{respondent}/attributes": the
// body replaces the attributes the team stores for the person.
func (h *Handler) handleAttributesPut(w http.ResponseWriter, r *http.Request, teamID string) error {
	tg, err := h.targeter()
	if err != nil {
		return err
	}
	respondent, err := respondentParam(r)
	if err != nil {
		return err
	}
	body, err := readBody(w, r, maxAttributesBody)
	if err != nil {
		return err
	}
	jr := newJSONReader(body)
	attrs, err := decodeAttributes(jr, "the attributes")
	if err == nil {
		err = jr.end()
	}
	if err != nil {
		return err
	}
	if err := tg.SetAttributes(r.Context(), teamID, respondent, attrs); err != nil {
		return err
	}
	if attrs == nil {
		attrs = map[string]any{}
	}
	h.writeJSON(w, http.StatusOK, struct {
		Respondent string         `json:"respondent"`
		Attributes map[string]any `json:"attributes"`
	}{respondent, attrs})
	return nil
}

// respondentParam is the path's respondent, checked as every endpoint checks it.
func respondentParam(r *http.Request) (string, error) {
	respondent := r.PathValue("respondent")
	if err := store.ValidateRespondent(respondent); err != nil {
		return "", badRequest(err.Error())
	}
	return respondent, nil
}

// promptBody is a prompt as the API shows it.
type promptBody struct {
	ID         string     `json:"id"`
	SurveyID   string     `json:"surveyId"`
	Respondent string     `json:"respondent"`
	CreatedAt  wire.Time  `json:"createdAt"`
	ExpiresAt  *wire.Time `json:"expiresAt"`
}

func promptOf(p store.Prompt) promptBody {
	return promptBody{p.ID, p.SurveyID, p.Respondent, wire.Time(p.CreatedAt), wire.TimePtr(p.ExpiresAt)}
}

// promptsOf is the store and the survey of a request about a survey's prompts.
func (h *Handler) promptsOf(r *http.Request, teamID string) (store.Targeter, store.Survey, error) {
	tg, err := h.targeter()
	if err != nil {
		return nil, store.Survey{}, err
	}
	sv, err := h.surveyFor(r, teamID, notDeleted)
	return tg, sv, err
}

// handlePromptPost serves "POST /v1/protected/surveys/{surveyId}/prompts".
func (h *Handler) handlePromptPost(w http.ResponseWriter, r *http.Request, teamID string) error {
	tg, sv, err := h.promptsOf(r, teamID)
	if err != nil {
		return err
	}
	body, err := readBody(w, r, 4096)
	if err != nil {
		return err
	}
	var who, expires *string
	jr := newJSONReader(body)
	err = jr.body(8, func(name string) error {
		switch name {
		case "respondent":
			who, err = jr.stringOrNull("respondent")
		case "expiresAt":
			expires, err = jr.stringOrNull("expiresAt")
		default:
			if err := exactName(name, "respondent", "expiresAt"); err != nil {
				return err
			}
			return unknownMember(name, "a prompt has respondent and expiresAt")
		}
		return err
	})
	if err != nil {
		return err
	}
	p, err := h.newPrompt(sv, teamID, who, expires)
	if err != nil {
		return err
	}
	if err := tg.AddPrompt(r.Context(), p); err != nil {
		return surveyNotFound(err)
	}
	w.Header().Set("Location", r.URL.Path+"/"+p.ID)
	h.writeJSON(w, http.StatusCreated, promptOf(p))
	return nil
}

// newPrompt checks what a prompt's body gave, and makes the prompt.
func (h *Handler) newPrompt(sv store.Survey, teamID string, who, expires *string) (store.Prompt, error) {
	if who == nil {
		return store.Prompt{}, badRequest("respondent is required")
	}
	if err := store.ValidateRespondent(*who); err != nil {
		return store.Prompt{}, badRequest(err.Error())
	}
	now := h.now().UTC()
	p := store.Prompt{ID: "prm_" + store.NewSurveyID(), TeamID: teamID, SurveyID: sv.ID, Respondent: *who, CreatedAt: now}
	if expires != nil {
		at, err := time.Parse(time.RFC3339Nano, *expires)
		if err != nil {
			return store.Prompt{}, badRequest(fmt.Sprintf("expiresAt must be a time such as 2026-12-01T00:00:00Z, not %q", wire.Truncate(*expires)))
		}
		if !at.After(now) {
			return store.Prompt{}, badRequest("expiresAt is in the past")
		}
		at = at.UTC()
		p.ExpiresAt = &at
	}
	return p, nil
}

// handlePromptsList serves "GET /v1/protected/surveys/{surveyId}/prompts": the survey's
// prompts not yet used up, oldest first.
func (h *Handler) handlePromptsList(w http.ResponseWriter, r *http.Request, teamID string) error {
	tg, sv, err := h.promptsOf(r, teamID)
	if err != nil {
		return err
	}
	limit := maxPromptsListed
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPromptsListed {
			return badRequest(fmt.Sprintf("limit must be from 1 to %d", maxPromptsListed))
		}
		limit = n
	}
	prompts, err := tg.Prompts(r.Context(), teamID, sv.ID, limit)
	if err != nil {
		return err
	}
	out := make([]promptBody, 0, len(prompts))
	for _, p := range prompts {
		out = append(out, promptOf(p))
	}
	h.writeJSON(w, http.StatusOK, struct {
		Data []promptBody `json:"data"`
	}{out})
	return nil
}

// handlePromptDelete serves "DELETE /v1/protected/surveys/{surveyId}/prompts/{promptId}".
func (h *Handler) handlePromptDelete(w http.ResponseWriter, r *http.Request, teamID string) error {
	tg, sv, err := h.promptsOf(r, teamID)
	if err != nil {
		return err
	}
	if err := tg.DeletePrompt(r.Context(), teamID, sv.ID, r.PathValue("promptId")); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return notFound("prompt not found")
		}
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
