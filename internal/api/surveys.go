package api

import (
	"fmt"
	"net/http"

	"github.com/svc-feedback/svc/internal/wire"

	"github.com/svc-feedback/svc/store"
)

// surveyFor loads the request's {surveyId} for the team: 400 for an id that is not a cuid2,
// 404 for a survey the team does not hold or whose status visible does not allow.
func (h *Handler) surveyFor(r *http.Request, teamID string, visible func(store.Status) bool) (store.Survey, error) {
	id := r.PathValue("surveyId")
	if !store.ValidSurveyID(id) {
		return store.Survey{}, badRequest(fmt.Sprintf("surveyId %q is not a cuid2 (a lowercase letter, then 1 to 31 lowercase letters or digits)", wire.Truncate(id)))
	}
	var (
		sv  store.Survey
		err error
	)
	// The handler only reads the survey, so it may share the store's own.
	if shared, ok := h.store.(store.SharedSurveyReader); ok {
		sv, err = shared.SharedSurvey(r.Context(), teamID, id)
	} else {
		sv, err = h.store.Survey(r.Context(), teamID, id)
	}
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

// isActive is the visibility of the widget endpoints: active surveys only.
func isActive(s store.Status) bool { return s == store.StatusActive }

// notDeleted is the visibility of the protected endpoints: every survey not deleted.
func notDeleted(s store.Status) bool { return s != store.StatusDeleted }
