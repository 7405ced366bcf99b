package console

import (
	"errors"
	"net/http"

	"github.com/svc-feedback/svc/internal/problem"
	"github.com/svc-feedback/svc/store"
)

// Publish and Pause in the editor, as in the list. Publish saves the form first, through Save's
// checks and merge, and publishes the survey in the same change: what the person sees in the
// form is what goes live, and nothing is published when it cannot be saved (the form then says
// why, as Save does). Pause pauses at once, whatever the form holds, as the list's Pause does
// (a survey is paused in a hurry), and keeps the form's edits, unsaved, on the page.

// applyStatus publishes (active) or pauses (inactive) a survey being changed: the list's Publish
// and Pause (setStatus) and the editor's.
func applyStatus(sv *store.Survey, status store.Status) error {
	if status != store.StatusActive && status != store.StatusInactive {
		return problem.BadRequest("a survey is published (active) or paused (inactive)")
	}
	sv.Status = status
	return nil
}

// publish saves the form and publishes the survey; it reports whether it answered the request.
func (rs *Results) publish(w http.ResponseWriter, r *http.Request, sv store.Survey, v *editView, anyway bool) bool {
	if rs.save(w, r, sv, v, anyway, store.StatusActive) {
		return true
	}
	v.Publishing = true
	if v.Error != "" {
		v.Error = "Not published: " + v.Error
	} else if v.Conflict || v.Stale {
		v.Notices = append(v.Notices, "Not published: the survey was not saved.")
	}
	return false
}

// pause pauses the survey, keeping the form as it is; it reports whether it answered the
// request (with an error). The form's version moves on with the pause unless the survey had
// changed elsewhere already, which its save then merges.
func (rs *Results) pause(w http.ResponseWriter, r *http.Request, v *editView) bool {
	current := false
	paused, err := store.ModifySurvey(r.Context(), rs.store, rs.teamID, v.Survey.ID, func(sv *store.Survey) error {
		if sv.Status == store.StatusDeleted {
			return store.ErrNotFound
		}
		current = versionOf(*sv) == v.Version
		sv.UpdatedAt = rs.now().UTC()
		return applyStatus(sv, store.StatusInactive)
	})
	if errors.Is(err, store.ErrNotFound) {
		err = problem.NotFound("survey not found")
	}
	if err != nil {
		rs.fail(w, r, err)
		return true
	}
	if current {
		v.Version = versionOf(paused)
	}
	v.Survey.Status = store.StatusInactive
	v.Notices = append(v.Notices, "Paused: svc no longer shows it, and its link page is closed. Your edits here are not saved yet: Save keeps them.")
	return false
}

// savedNotices are what the editor says after a redirect from a save or a Publish.
func (rs *Results) savedNotices(r *http.Request, sv store.Survey) []string {
	q := r.URL.Query()
	var out []string
	switch q.Get("saved") {
	case "1":
		out = append(out, "Saved.")
	case "merged":
		out = append(out, "Saved, with the changes made meanwhile by someone else kept.")
	}
	if q.Get("published") == "1" && sv.Status == store.StatusActive {
		links, err := rs.teamLinks(r.Context())
		if err != nil {
			rs.log.ErrorContext(r.Context(), "console: link secrets", "err", err)
		}
		out = append(out, "Published. "+shownSentence(shownAs(&sv.Definition, links)))
	}
	return out
}
