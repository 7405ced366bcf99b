package console

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/svc-feedback/svc/internal/problem"
	"github.com/svc-feedback/svc/store"
)

// The console's changes (NewConsole; the results pages of NewResults make none): a survey made
// from a template, published, paused, duplicated and deleted, each an HTML form that works
// without script. The console has no login of its own: the app's login cookie authenticates
// it, so a page on another site could post to it (cross-site request forgery). Every change
// must therefore come from the console's own page: the browser's Sec-Fetch-Site says
// same-origin (or, from a browser that does not send it, Origin is the page's own), and the
// form carries the console's token, which another site cannot read.

var errUnknownTemplate = problem.BadRequest("there is no such template")

// maxForm bounds a change's form: the editor's carries a whole survey.
const maxForm = 1 << 20

// NewConsole returns the console of team teamID over s: the results pages and the changes
// above. key signs the forms' token; instances behind one load balancer need the same key (nil:
// a random one, for one instance).
func NewConsole(s store.Store, teamID string, cfg Config, key []byte) *Results {
	rs := NewResults(s, teamID, cfg)
	if len(key) == 0 {
		key = make([]byte, 32)
		_, _ = rand.Read(key)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("svc console form token\x00" + teamID))
	rs.token = hex.EncodeToString(mac.Sum(nil))
	rs.mux.HandleFunc("POST /surveys", rs.change(rs.create))
	rs.mux.HandleFunc("POST /surveys/{surveyId}/status", rs.change(rs.setStatus))
	rs.mux.HandleFunc("POST /surveys/{surveyId}/duplicate", rs.change(rs.duplicate))
	rs.mux.HandleFunc("GET /surveys/{surveyId}/delete", rs.confirmDelete)
	rs.mux.HandleFunc("POST /surveys/{surveyId}/delete", rs.change(rs.delete))
	rs.mux.HandleFunc("GET /surveys/{surveyId}/edit", rs.editPage)
	rs.mux.HandleFunc("GET /widget.js", rs.widgetScript)
	rs.mux.HandleFunc("GET /editor.js", rs.editorScript)
	rs.mux.HandleFunc("POST /surveys/{surveyId}/edit", rs.checked(rs.edit))
	rs.mux.HandleFunc("GET /surveys/{surveyId}/who-sees-it", rs.whoSeesPage)
	rs.mux.HandleFunc("POST /surveys/{surveyId}/who-sees-it", rs.checked(rs.whoSees))
	rs.mux.HandleFunc("GET /surveys/{surveyId}/translations", rs.translationsPage)
	rs.mux.HandleFunc("POST /surveys/{surveyId}/translations", rs.change(rs.addLanguage))
	rs.mux.HandleFunc("GET /surveys/{surveyId}/translations/{lang}", rs.translatePage)
	rs.mux.HandleFunc("POST /surveys/{surveyId}/translations/{lang}", rs.checked(rs.translate))
	rs.mux.HandleFunc("GET /surveys/{surveyId}/share", rs.sharePage)
	rs.mux.HandleFunc("POST /surveys/{surveyId}/share", rs.checkedList(rs.shareLinks))
	rs.mux.HandleFunc("POST /surveys/{surveyId}/share/anonymous", rs.change(rs.shareAnonymous))
	rs.mux.HandleFunc("POST /surveys/{surveyId}/share/links.csv", rs.checkedList(rs.shareCSV))
	rs.mux.HandleFunc("POST /surveys/{surveyId}/segments", rs.change(rs.declareSegment))
	rs.mux.HandleFunc("GET /share.js", rs.shareScript)
	rs.mux.HandleFunc("GET /share.css", rs.shareStyle)
	return rs
}

// checked serves a form's post once it is known to come from the console's own page, with the
// form read into r.PostForm.
func (rs *Results) checked(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := rs.sameOrigin(r); err != nil {
			rs.fail(w, r, err)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		if err := r.ParseForm(); err != nil {
			rs.fail(w, r, problem.BadRequest("the form could not be read, or is larger than the console takes"))
			return
		}
		if !hmac.Equal([]byte(r.PostForm.Get("csrf")), []byte(rs.token)) {
			rs.fail(w, r, problem.Forbidden("the form's token is missing or out of date."))
			return
		}
		h(w, r)
	}
}

// change makes a change, checked as checked does; fn returns where to go next, relative to
// the request's path.
func (rs *Results) change(fn func(r *http.Request) (string, error)) http.HandlerFunc {
	return rs.checked(func(w http.ResponseWriter, r *http.Request) {
		next, err := fn(r)
		if err != nil {
			rs.fail(w, r, err)
			return
		}
		// A relative reference, resolved by the browser against the address it posted to:
		// http.Redirect would resolve it against the path after the app's StripPrefix.
		w.Header().Set("Location", next)
		w.WriteHeader(http.StatusSeeOther)
	})
}

// sameOrigin refuses a request another site's page made.
func (rs *Results) sameOrigin(r *http.Request) error {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		if site != "same-origin" {
			return problem.Forbidden("it came from another site's page.")
		}
		return nil
	}
	origin := r.Header.Get("Origin")
	u, err := url.Parse(origin)
	if origin == "" || err != nil || u.Host != r.Host || (u.Scheme != "http" && u.Scheme != "https") {
		return problem.Forbidden("it did not say it came from the console's own page.")
	}
	return nil
}

// create makes an inactive survey from the template the form names.
func (rs *Results) create(r *http.Request) (string, error) {
	def, err := templateDefinition(r.PostForm.Get("template"))
	if err != nil {
		return "", err
	}
	now := rs.now().UTC()
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: rs.teamID, Status: store.StatusInactive, Definition: def, CreatedAt: now, UpdatedAt: now}
	if err := rs.store.CreateSurvey(r.Context(), sv); err != nil {
		return "", fmt.Errorf("create survey: %w", err)
	}
	return "surveys/" + sv.ID + "/edit", nil // from …/surveys, the new survey's editor
}

// setStatus publishes (active) or pauses (inactive) a survey.
func (rs *Results) setStatus(r *http.Request) (string, error) {
	status := store.Status(r.PostForm.Get("status"))
	if err := applyStatus(&store.Survey{}, status); err != nil {
		return "", err
	}
	err := rs.modify(r, func(sv *store.Survey) error {
		return applyStatus(sv, status) // as the editor's Publish and Pause (lifecycle.go)
	})
	return "../../", err // from …/surveys/{id}/status, the list
}

// duplicate makes an inactive copy of a survey's definition (not its webhook), and goes to it.
func (rs *Results) duplicate(r *http.Request) (string, error) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		return "", err
	}
	now := rs.now().UTC()
	def := sv.Definition
	def.Title += " (copy)"
	cp := store.Survey{ID: store.NewSurveyID(), TeamID: rs.teamID, Status: store.StatusInactive, Definition: def, CreatedAt: now, UpdatedAt: now}
	if err := rs.store.CreateSurvey(r.Context(), cp); err != nil {
		return "", fmt.Errorf("duplicate survey: %w", err)
	}
	return "../" + cp.ID, nil
}

// delete deletes a survey, after its confirmation page.
func (rs *Results) delete(r *http.Request) (string, error) {
	err := rs.modify(r, func(sv *store.Survey) error {
		sv.Status = store.StatusDeleted
		return nil
	})
	return "../../", err
}

// confirmDelete asks before a survey is deleted.
func (rs *Results) confirmDelete(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	rs.render(w, r, "delete.html", struct {
		Survey store.Survey
		Token  string
	}{sv, rs.token})
}

// modify changes the request's survey, moving its version forward.
func (rs *Results) modify(r *http.Request, fn func(sv *store.Survey) error) error {
	id, err := surveyIDOf(r)
	if err != nil {
		return err
	}
	// The survey is read once, by the change itself: a deleted one is not found.
	_, err = store.ModifySurvey(r.Context(), rs.store, rs.teamID, id, func(sv *store.Survey) error {
		if sv.Status == store.StatusDeleted {
			return store.ErrNotFound
		}
		sv.UpdatedAt = rs.now().UTC()
		return fn(sv)
	})
	if errors.Is(err, store.ErrNotFound) {
		return problem.NotFound("survey not found")
	}
	return err
}
