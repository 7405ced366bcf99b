package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/svc-feedback/svc/internal/wire"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The management API (docs/api.md): surveys created, changed and deleted over HTTP,
// each change scoped to the secret key's team and, for PATCH and DELETE, to the If-Match the
// client read.

// maxSurveyBody bounds a survey sent to create or change one: a survey of the largest size the
// definition allows is well under it.
const maxSurveyBody = 1 << 20

// surveyMembers are the top-level members a survey body may hold, as the fixture names them.
var surveyMembers = []string{"id", "status", "title", "description", "questions", "confirmation",
	"isBackNavigationAllowed", "backButtonLabel", "display", "languages", "link", "webhookUrl", "webhookSecret", "webhookWaitSeconds"}

// surveyInput is a survey as POST and PATCH take it: the fixture's survey object without its
// history.
type surveyInput struct {
	ID     string       `json:"id"`
	Status store.Status `json:"status"`
	survey.Definition
	WebhookURL         string `json:"webhookUrl"`
	WebhookSecret      string `json:"webhookSecret"`
	WebhookWaitSeconds int    `json:"webhookWaitSeconds"`
}

// readSurveyMembers reads a survey body's top-level members, each kept as its JSON: names must
// be known, exact and distinct.
func readSurveyMembers(w http.ResponseWriter, r *http.Request) (map[string]json.RawMessage, error) {
	body, err := readBody(w, r, maxSurveyBody)
	if err != nil {
		return nil, err
	}
	if err := survey.CheckMembers(body); err != nil {
		return nil, definitionProblem(err)
	}
	jr := newJSONReader(body)
	members := make(map[string]json.RawMessage)
	_, err = jr.object(len(surveyMembers), func(name string) error {
		known := false
		for _, k := range surveyMembers {
			known = known || k == name
		}
		if !known {
			if err := exactName(name, surveyMembers...); err != nil {
				return err
			}
			return badRequest(fmt.Sprintf("unknown member %q; a survey has %s", wire.Truncate(name), strings.Join(surveyMembers, ", ")))
		}
		raw, err := jr.raw()
		members[name] = raw
		return err
	})
	if err == errNotObject {
		return nil, badRequest("the body must be a JSON object: a survey")
	}
	if err != nil {
		return nil, err
	}
	if err := jr.end(); err != nil {
		return nil, badRequest("malformed JSON: data after the survey object")
	}
	return members, nil
}

// definitionProblem is the 400 of a definition the survey package refused: its message, without
// the sentinel's words, which say nothing a caller can act on.
func definitionProblem(err error) *Error {
	return badRequest(strings.TrimPrefix(err.Error(), survey.ErrInvalidDefinition.Error()+": "))
}

// decodeSurvey turns members into a survey of the team, checked as fixture import checks it,
// with the defaults of survey.FillDefaults for what it leaves out.
func decodeSurvey(members map[string]json.RawMessage) (surveyInput, error) {
	if err := survey.CheckSurvey(members, "id", "status", "webhookUrl", "webhookSecret", "webhookWaitSeconds"); err != nil {
		return surveyInput{}, definitionProblem(err)
	}
	if err := survey.FillDefaults(members); err != nil {
		return surveyInput{}, err
	}
	b, err := json.Marshal(members)
	if err != nil {
		return surveyInput{}, err
	}
	var in surveyInput
	if err := json.Unmarshal(b, &in); err != nil {
		return surveyInput{}, badRequest("invalid survey: " + describeJSONError(err))
	}
	in.Definition.Normalize()
	return in, nil
}

// handleSurveyCreate serves "POST /v1/protected/surveys".
func (h *Handler) handleSurveyCreate(w http.ResponseWriter, r *http.Request, teamID string) error {
	members, err := readSurveyMembers(w, r)
	if err != nil {
		return err
	}
	in, err := decodeSurvey(members)
	if err != nil {
		return err
	}
	now := h.now().UTC()
	sv := store.Survey{ID: in.ID, TeamID: teamID, Status: in.Status, Definition: in.Definition,
		WebhookURL: in.WebhookURL, WebhookSecret: in.WebhookSecret, WebhookWaitSeconds: in.WebhookWaitSeconds, CreatedAt: now, UpdatedAt: now}
	if sv.ID == "" {
		sv.ID = store.NewSurveyID()
	}
	if sv.Status == "" {
		sv.Status = store.StatusInactive
	}
	if sv.Status == store.StatusDeleted {
		return badRequest(`a new survey's status is "active" or "inactive"`)
	}
	if err := sv.Validate(); err != nil {
		return err
	}
	if err := h.store.CreateSurvey(r.Context(), sv); err != nil {
		return err
	}
	w.Header().Set("Location", h.selfURL(r, sv.ID))
	h.dropRules(teamID)
	return h.writeSurvey(w, http.StatusCreated, sv)
}

// selfURL is where the survey just created is: under BaseURL when set, else beside the path
// the request came to (a mount prefix included).
func (h *Handler) selfURL(r *http.Request, id string) string {
	return strings.TrimRight(h.requestPath(r), "/") + "/" + id
}

// handleSurveyPatch serves "PATCH /v1/protected/surveys/{surveyId}": a JSON merge patch
// (RFC 7396) of the survey's top-level members.
func (h *Handler) handleSurveyPatch(w http.ResponseWriter, r *http.Request, teamID string) error {
	patch, err := readSurveyMembers(w, r)
	if err != nil {
		return err
	}
	if _, ok := patch["webhookSecret"]; ok {
		return badRequest("webhookSecret cannot be patched: POST .../webhook-secret makes a new one, and the old one keeps signing for 24 hours")
	}
	sv, err := h.changeSurvey(r, teamID, func(sv *store.Survey) error { return h.applyPatch(sv, patch) })
	if err != nil {
		return err
	}
	return h.writeSurvey(w, http.StatusOK, sv)
}

// applyPatch applies a merge patch's members to sv.
func (h *Handler) applyPatch(sv *store.Survey, patch map[string]json.RawMessage) error {
	members, err := surveyAsMembers(*sv)
	if err != nil {
		return err
	}
	before, err := json.Marshal(sv.Definition)
	if err != nil {
		return err
	}
	for name, v := range patch {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			delete(members, name)
		} else {
			members[name] = v
		}
	}
	in, err := decodeSurvey(members)
	if err != nil {
		return err
	}
	if in.ID != sv.ID {
		return badRequest("a survey's id cannot change")
	}
	switch in.Status {
	case "":
		return badRequest(`status cannot be removed: it is "active" or "inactive"`)
	case store.StatusDeleted:
		return badRequest("DELETE the survey to delete it")
	}
	sv.Status, sv.Definition, sv.WebhookURL, sv.WebhookWaitSeconds, sv.UpdatedAt = in.Status, in.Definition, in.WebhookURL, in.WebhookWaitSeconds, h.now().UTC()
	return sv.ValidateChange(before)
}

// surveyAsMembers is the survey as the members a body would give it.
func surveyAsMembers(sv store.Survey) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(surveyInput{ID: sv.ID, Status: sv.Status, Definition: sv.Definition, WebhookURL: sv.WebhookURL, WebhookWaitSeconds: sv.WebhookWaitSeconds})
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	delete(m, "webhookSecret")
	if sv.WebhookURL == "" {
		delete(m, "webhookUrl")
	}
	return m, nil
}

// handleSurveyDelete serves "DELETE /v1/protected/surveys/{surveyId}": a soft delete.
func (h *Handler) handleSurveyDelete(w http.ResponseWriter, r *http.Request, teamID string) error {
	_, err := h.changeSurvey(r, teamID, func(sv *store.Survey) error {
		sv.Status, sv.UpdatedAt = store.StatusDeleted, h.now().UTC()
		return nil
	})
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleWebhookSecretPost serves "POST /v1/protected/surveys/{surveyId}/webhook-secret".
func (h *Handler) handleWebhookSecretPost(w http.ResponseWriter, r *http.Request, teamID string) error {
	secret := store.NewWebhookSecret()
	_, err := h.changeSurvey(r, teamID, func(sv *store.Survey) error {
		sv.RotateWebhookSecret(secret, store.SecretOverlap, h.now().UTC())
		return nil
	})
	if err != nil {
		return err
	}
	h.writeSecret(w, secret)
	return nil
}

// writeSecret answers a secret made just now, {"data":{"secret"}}: shown this once, so kept by
// no cache.
func (h *Handler) writeSecret(w http.ResponseWriter, secret string) {
	w.Header().Set("Cache-Control", "no-store")
	type shown struct {
		Secret string `json:"secret"`
	}
	h.writeJSON(w, http.StatusOK, struct {
		Data shown `json:"data"`
	}{shown{secret}})
}

// changeSurvey changes the request's survey with fn, after checking that it is not deleted and
// that the request's If-Match holds, against the survey as stored and atomically with the
// change (see store.SurveyModifier), so that two instances changing one survey at once do not
// both pass. It returns the survey stored.
func (h *Handler) changeSurvey(r *http.Request, teamID string, fn func(*store.Survey) error) (store.Survey, error) {
	id := r.PathValue("surveyId")
	if !store.ValidSurveyID(id) {
		return store.Survey{}, badRequest(fmt.Sprintf("surveyId %q is not a cuid2", wire.Truncate(id)))
	}
	// For a Store without store.SurveyModifier, this handler's own changes at least take turns.
	h.manageMu.Lock()
	defer h.manageMu.Unlock()
	sv, err := store.ModifySurvey(r.Context(), h.store, teamID, id, func(sv *store.Survey) error {
		if sv.Status == store.StatusDeleted {
			return notFound("survey not found")
		}
		if match := headerValue(r.Header, "If-Match"); match != "" && !ifMatchHolds(match, surveyETag(*sv)) {
			return &Error{Status: http.StatusPreconditionFailed, Code: CodePrecondition,
				Message: "the survey changed since its ETag was read (If-Match does not match): read it again"}
		}
		return fn(sv)
	})
	if err != nil {
		return store.Survey{}, surveyNotFound(err)
	}
	h.dropRules(teamID)
	return sv, nil
}

// ifMatchHolds applies If-Match's strong comparison: tag listed as it is (a weak tag never
// matches), or "*".
func ifMatchHolds(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}
