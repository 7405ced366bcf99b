package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The survey editor of the console: the survey's title and description, and each
// question's title, type, required, options and scale; questions added, moved and removed.
// Save goes through the management API's validation, whose message appears beside the question
// it names; a survey changed elsewhere since the form was opened is not overwritten; removing or
// retyping a question that has answers asks first.

type editView struct {
	Survey             store.Survey
	Title, Description string
	// The confirmation, and back navigation.
	ConfirmTitle, ConfirmText, ConfirmButton string
	Back                                     bool
	BackLabel                                string
	Version, Token                           string
	Questions                                []editQuestion
	Types                                    []struct{ Value, Label string }
	Notices                                  []string
	Error                                    string
	// Confirm lists the questions with answers that the save would remove or retype; the form
	// then offers "Save anyway".
	Confirm []string
	// Stale says the survey changed elsewhere since the form was opened.
	Stale bool
	// PreviewJSON is the survey's public view, shown in the widget beside the form.
	PreviewJSON string
	// Display is the survey's display rules (displayform.go).
	Display editDisplay
	// The webhook's URL and wait as typed, whether it has a secret, a secret made just now
	// (shown this once), and what is wrong with them.
	WebhookURL, WebhookWait string
	SecretSet               bool
	NewSecret, WebhookError string
	// Base is the survey as the form was first shown (merge.go), for a save on a stale version
	// to merge with what changed meanwhile; "" when too large to carry.
	Base string
	// Meanwhile are the other values of the fields both the form and someone else changed;
	// Conflict says the save was refused for them.
	Meanwhile []meanwhileNote
	Conflict  bool
	// Publishing says the form's Publish asked to save first: the confirmation then publishes.
	Publishing bool
	// Asked are the ids of the questions with answers whose removal or new type the person
	// agreed to in the page's dialog (the editor's script): Save does not ask again for them.
	Asked []string
	// Unsaved says the page shows a form posted, not the survey as stored: leaving it asks
	// first (the editor's script).
	Unsaved bool
}

func (rs *Results) editPage(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	v := rs.newEditView(sv)
	v.fill(sv)
	rs.renderEdit(w, r, v)
}

// fill sets the form's fields to a survey's (the stored one, or one merged on a stale save).
func (v *editView) fill(sv store.Survey) {
	if v.Title, v.Description = sv.Title, ""; sv.Description != nil {
		v.Description = *sv.Description
	}
	v.ConfirmTitle, v.ConfirmText, v.ConfirmButton = sv.Confirmation.Title, sv.Confirmation.Description, sv.Confirmation.ButtonText
	v.Back, v.BackLabel = sv.IsBackNavigationAllowed, sv.BackButtonLabel
	v.Display, v.WebhookURL, v.WebhookWait = viewDisplay(sv.Display), sv.WebhookURL, strconv.Itoa(sv.WebhookWaitSeconds)
	idAt := make(map[int]string, len(sv.Questions))
	for _, q := range sv.Questions {
		idAt[q.Position] = q.ID
	}
	v.Questions = v.Questions[:0:0]
	for _, q := range sv.Questions {
		v.Questions = append(v.Questions, viewQuestion(q, idAt))
	}
}

func (rs *Results) newEditView(sv store.Survey) editView {
	return editView{Survey: sv, Version: versionOf(sv), Base: encodeBase(sv), Token: rs.token, Types: questionTypes, SecretSet: sv.WebhookSecret != ""}
}

// versionOf is the survey's version as a form carries it, to refuse overwriting a change made
// since the form was opened.
func versionOf(sv store.Survey) string { return sv.UpdatedAt.UTC().Format(time.RFC3339Nano) }

// edit takes the editor's form: an action on its questions, or a save.
func (rs *Results) edit(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	f := r.PostForm
	v := rs.newEditView(sv)
	v.Version, v.Title, v.Description, v.Questions = f.Get("version"), f.Get("title"), f.Get("description"), formQuestions(f)
	v.Base = f.Get("base") // as the form was first shown: none, and a stale save is refused
	v.Asked = f["asked"][:min(len(f["asked"]), survey.MaxQuestions)]
	v.ConfirmTitle, v.ConfirmText, v.ConfirmButton = f.Get("confirmTitle"), f.Get("confirmText"), f.Get("confirmButton")
	v.Back, v.BackLabel = f.Get("back") == "on", f.Get("backLabel")
	v.Display, v.WebhookURL, v.WebhookWait = formDisplay(f), strings.TrimSpace(f.Get("webhookUrl")), f.Get("webhookWait")
	action, arg, _ := strings.Cut(f.Get("action"), ":")
	i, _ := strconv.Atoi(arg)
	inRange := i >= 0 && i < len(v.Questions)
	switch {
	case action == "add":
		id := fmt.Sprintf("q%d", time.Now().UnixNano()%1e9)
		v.Questions = append(v.Questions, editQuestion{ID: id, JSON: newQuestionJSON(id, survey.TypeOpenEnded), Type: survey.TypeOpenEnded})
		v.Notices = append(v.Notices, fmt.Sprintf("Question %d added: give it a title, and save to keep it.", len(v.Questions)))
	case action == "remove" && inRange:
		v.Notices = append(v.Notices, fmt.Sprintf("Question %d (“%s”) removed: save to keep the change.", i+1, v.Questions[i].Title))
		v.Questions = append(v.Questions[:i], v.Questions[i+1:]...)
	case action == "up" && inRange && i > 0:
		v.Questions[i-1], v.Questions[i] = v.Questions[i], v.Questions[i-1]
	case action == "down" && inRange && i < len(v.Questions)-1:
		v.Questions[i+1], v.Questions[i] = v.Questions[i], v.Questions[i+1]
	case action == "rule" || action == "unrule":
		ruleAction(v.Questions, action, arg) // routingform.go
	case strings.HasPrefix(action, "opt-"): // a question's option rows (editform.go)
		if notice := optionAction(v.Questions, action, arg); notice != "" {
			v.Notices = append(v.Notices, notice)
		}
	case strings.HasPrefix(action, "d-"): // the display rules' rows (displayform.go)
		if notice := v.Display.rowAction(action, arg); notice != "" {
			v.Notices = append(v.Notices, notice)
		}
	case action == "preview":
		rs.preview(sv, &v)
	case action == "rotate-secret":
		if rs.rotateSecret(w, r, &v) {
			return
		}
	case action == "save" || action == "save-anyway":
		if done := rs.save(w, r, sv, &v, action == "save-anyway", ""); done {
			return
		}
	case action == "publish" || action == "publish-anyway": // lifecycle.go
		if done := rs.publish(w, r, sv, &v, action == "publish-anyway"); done {
			return
		}
	case action == "pause":
		if done := rs.pause(w, r, &v); done {
			return
		}
	}
	rs.renderEdit(w, r, v)
}

// save validates and stores the form's survey, with the status given ("" to keep it), and
// reports whether it answered the request (a redirect on success); otherwise v says why, for the
// form to be shown again. A form opened before a change made elsewhere is merged with it
// (merge.go).
func (rs *Results) save(w http.ResponseWriter, r *http.Request, sv store.Survey, v *editView, anyway bool, status store.Status) bool {
	notices := len(v.Notices)
	for try := 0; ; try++ {
		v.Notices = v.Notices[:notices]
		def, wait, merged, ok := rs.saving(r, sv, v, anyway)
		if !ok {
			return false
		}
		version := versionOf(sv)
		_, err := store.ModifySurvey(r.Context(), rs.store, rs.teamID, sv.ID, func(cur *store.Survey) error {
			if versionOf(*cur) != version {
				return errStale
			}
			cur.Definition, cur.UpdatedAt = def, rs.now().UTC()
			cur.WebhookURL, cur.WebhookWaitSeconds = v.WebhookURL, wait
			if status != "" {
				return applyStatus(cur, status)
			}
			return nil
		})
		if errors.Is(err, errStale) && try < 2 && v.Base != "" {
			// Changed between the read and the write: merged again with that change.
			if sv, err = rs.surveyOf(r); err == nil {
				continue
			}
		}
		switch {
		case errors.Is(err, errStale):
			v.Stale = true
			return false
		case err != nil:
			rs.fail(w, r, err)
			return true
		}
		next := url.Values{"saved": {"1"}}
		if merged {
			next.Set("saved", "merged")
		}
		if status == store.StatusActive {
			next.Set("published", "1")
		}
		w.Header().Set("Location", "edit?"+next.Encode()) // from …/surveys/{id}/edit, the editor again
		w.WriteHeader(http.StatusSeeOther)
		return true
	}
}

// saving is the survey a save stores, checked as Save checks it, and its webhook's wait. When
// the form's version is stale, the form's changes since its base are merged with the stored
// survey (merged); the form then stands for the merged survey over the stored one, so that a
// refusal shows it, and saving again saves it. ok is false when v says why it cannot be saved.
func (rs *Results) saving(r *http.Request, sv store.Survey, v *editView, anyway bool) (def survey.Definition, wait int, merged, ok bool) {
	stale := v.Version != versionOf(sv)
	over := sv // what the form's fields are laid over: its base
	var base surveyDoc
	if stale {
		var err error
		if base, err = decodeBase(v.Base); err != nil {
			v.Stale = true
			return def, 0, false, false
		}
		over.Definition, over.WebhookURL, over.WebhookWaitSeconds = base.Definition, base.WebhookURL, base.WebhookWait
	}
	def, err := v.definition(over)
	if err == nil {
		err = def.Validate()
	}
	if err != nil {
		rs.placeError(v, err)
		return def, 0, false, false
	}
	if wait, err = v.webhook(); err != nil {
		v.WebhookError, v.Error = err.Error(), "The webhook cannot be saved as it is: see beside it."
		return def, 0, false, false
	}
	if stale {
		theirs := docOfSurvey(sv)
		m, conflicts, notices, err := mergeSurveys(base, theirs, surveyDoc{def, v.WebhookURL, wait})
		if err != nil {
			rs.placeError(v, err)
			return def, 0, false, false
		}
		// From here on the form is the merged survey, over the one stored now.
		def, wait, merged = m.Definition, m.WebhookWait, true
		shown := sv
		shown.Definition, shown.WebhookURL, shown.WebhookWaitSeconds = m.Definition, m.WebhookURL, m.WebhookWait
		v.fill(shown)
		v.Version, v.Base = versionOf(sv), encodeBase(sv)
		v.Notices = append(v.Notices, notices...)
		if len(conflicts) > 0 {
			v.Conflict, v.Meanwhile = true, meanwhileNotes(conflicts, theirs)
			return def, 0, false, false
		}
		if err := def.Validate(); err != nil {
			rs.placeError(v, err)
			return def, 0, false, false
		}
		if _, err := v.webhook(); err != nil {
			v.WebhookError, v.Error = err.Error(), "The webhook cannot be saved as it is: see beside it."
			return def, 0, false, false
		}
		v.Notices = append(v.Notices, "Someone else changed this survey meanwhile: their changes are merged into yours here.")
	}
	if !anyway {
		if v.Confirm = rs.losesAnswers(r.Context(), sv, def, v.Asked); len(v.Confirm) > 0 {
			return def, 0, false, false
		}
	}
	return def, wait, merged, true
}

var errStale = errors.New("console: the survey changed since the form was opened")

// definition is the survey the form stands for, over the stored one; notices of jumps that
// moved to the next question are added to v.
func (v *editView) definition(sv store.Survey) (survey.Definition, error) {
	def := sv.Definition
	def.Title = v.Title
	def.Description = nil
	if d := strings.TrimSpace(v.Description); d != "" {
		def.Description = &d
	}
	def.Confirmation = survey.Confirmation{Title: v.ConfirmTitle, Description: v.ConfirmText, ButtonText: v.ConfirmButton}
	def.IsBackNavigationAllowed, def.BackButtonLabel = v.Back, v.BackLabel
	display, err := v.Display.display()
	if err != nil {
		return survey.Definition{}, fmt.Errorf("%w: display: %w", survey.ErrInvalidDefinition, err)
	}
	def.Display = display
	def.Questions = def.Questions[:0:0]
	pos := make(map[string]int, len(v.Questions))
	for n, e := range v.Questions {
		pos[e.ID] = n
	}
	for n, e := range v.Questions {
		e.N = n + 1
		q, err := e.question()
		if err != nil {
			return survey.Definition{}, err
		}
		var notices []string
		q.Position = n
		q.RoutingLogic, notices = e.routing(n, pos)
		v.Notices = append(v.Notices, notices...)
		def.Questions = append(def.Questions, q)
	}
	return def, nil
}

// placeError puts a validation error beside the question it names, or at the form's head.
func (rs *Results) placeError(v *editView, err error) {
	msg := strings.TrimPrefix(err.Error(), survey.ErrInvalidDefinition.Error()+": ")
	if strings.HasPrefix(msg, "display") {
		v.Display.Error = msg
		v.Error = "The display rules cannot be saved as they are: see beside them."
		return
	}
	if i, j, rest := ruleOfError(msg); i >= 0 && i < len(v.Questions) && j < len(v.Questions[i].Rules) {
		// Beside the rule, where the person can mend it.
		if strings.HasPrefix(rest, "value") || strings.HasPrefix(rest, "operator") || strings.HasPrefix(rest, "target") {
			rest = "its " + rest
		}
		v.Questions[i].Rules[j].Error = "This rule cannot be saved: " + rest
		v.Error = fmt.Sprintf("Rule %d of question %d cannot be saved as it is: see beside it.", j+1, i+1)
		return
	}
	if i := questionOfError(err); i >= 0 && i < len(v.Questions) {
		v.Questions[i].Error = msg
		v.Error = fmt.Sprintf("Question %d cannot be saved as it is: see beside it.", i+1)
		return
	}
	v.Error = msg
}

// losesAnswers names the stored questions with answers that def removes or gives another type,
// but those the person was asked about already (asked, their ids).
func (rs *Results) losesAnswers(ctx context.Context, sv store.Survey, def survey.Definition, asked []string) []string {
	counts, err := rs.answerCounts(ctx, sv)
	if err != nil {
		return nil // the save goes on; the question was asked in good faith
	}
	var out []string
	for _, old := range sv.Questions {
		n := counts[old.ID]
		if n == 0 || slices.Contains(asked, old.ID) {
			continue
		}
		i := slices.IndexFunc(def.Questions, func(q survey.Question) bool { return q.ID == old.ID })
		switch {
		case i < 0:
			out = append(out, fmt.Sprintf("“%s” has %s and would be removed.", old.Title, answersCount(n)))
		case def.Questions[i].Type() != old.Type():
			out = append(out, fmt.Sprintf("“%s” has %s and would become another type of question.", old.Title, answersCount(n)))
		}
	}
	return out
}

func (rs *Results) renderEdit(w http.ResponseWriter, r *http.Request, v editView) {
	if v.PreviewJSON == "" {
		v.PreviewJSON = v.previewJSON() // beside the form from the start, when it can be shown
	}
	// Each question's answers, for the page's script to ask before removing or retyping one
	// that has some; without them (the store failing) it does not ask, and Save still does.
	counts, err := rs.answerCounts(r.Context(), v.Survey)
	if err != nil {
		rs.log.WarnContext(r.Context(), "console: the editor cannot count answers", "err", err)
	}
	for i := range v.Questions {
		v.Questions[i].N, v.Questions[i].First, v.Questions[i].Last = i+1, i == 0, i == len(v.Questions)-1
		v.Questions[i].Answers = counts[v.Questions[i].ID]
		routingChoices(v.Questions, i)
		v.Questions[i].Displays = choicesOf(ratingDisplays, v.Questions[i].Display)
	}
	v.Unsaved = r.Method == http.MethodPost && v.unsaved()
	v.Display.Recontacts = choicesOf(recontacts, v.Display.Recontact)
	if r.Method == http.MethodGet {
		v.Notices = append(v.Notices, rs.savedNotices(r, v.Survey)...) // lifecycle.go
	}
	status := http.StatusOK
	if v.NewSecret != "" {
		w.Header().Set("Cache-Control", "no-store") // a secret shown once is kept by no cache
	}
	if v.Stale || v.Conflict || v.Error != "" || len(v.Confirm) > 0 {
		status = http.StatusUnprocessableEntity
	}
	w.Header().Set("Content-Security-Policy", previewCSP) // the editor's own script, and the widget's
	rs.renderStatus(w, r, status, "edit.html", v)
}

// webhook checks the form's webhook URL and wait, and returns the wait.
func (v *editView) webhook() (int, error) {
	wait := 0
	if s := strings.TrimSpace(v.WebhookWait); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > store.MaxWebhookWaitSeconds {
			return 0, fmt.Errorf("the wait is a whole number of seconds from 0 to %d", store.MaxWebhookWaitSeconds)
		}
		wait = n
	}
	if v.WebhookURL != "" {
		if err := store.ValidateWebhookURL(v.WebhookURL); err != nil {
			return 0, fmt.Errorf("the webhook URL must be an absolute http or https address, such as https://hooks.example.com/svc")
		}
	}
	return wait, nil
}

// rotateSecret gives the survey a new webhook secret, shown once in the form; the previous one
// keeps signing for a day, as the management API's rotation does. It reports whether it
// answered the request.
func (rs *Results) rotateSecret(w http.ResponseWriter, r *http.Request, v *editView) bool {
	secret := store.NewWebhookSecret()
	current := false
	sv, err := store.ModifySurvey(r.Context(), rs.store, rs.teamID, v.Survey.ID, func(cur *store.Survey) error {
		if cur.Status == store.StatusDeleted {
			return store.ErrNotFound
		}
		current = versionOf(*cur) == v.Version
		cur.RotateWebhookSecret(secret, store.SecretOverlap, rs.now().UTC())
		cur.UpdatedAt = rs.now().UTC()
		return nil
	})
	if err != nil {
		rs.fail(w, r, err)
		return true
	}
	// The form keeps what was typed; its version moves on with the rotation, unless the survey
	// had changed elsewhere already, which the save will then say.
	v.NewSecret, v.SecretSet = secret, true
	if current {
		v.Version = versionOf(sv)
	}
	v.Notices = append(v.Notices, "A new webhook secret was made. Copy it now: it is not shown again. The previous one keeps signing for 24 hours.")
	return false
}
