package console

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
	"github.com/svc-feedback/svc/widget"
)

// What the editor's page gives its script (the widget's editor.js, served here): the survey as
// the preview shows it from the start, each question's answers, and whether the form holds
// changes not saved.

// answersCount says n answers in words: "1 answer", "12 answers".
func answersCount(n int) string {
	if n == 1 {
		return "1 answer"
	}
	return strconv.Itoa(n) + " answers"
}

// answerCounts are the answers stored for each of the survey's stored questions, by id.
func (rs *Results) answerCounts(ctx context.Context, sv store.Survey) (map[string]int, error) {
	counts, err := rs.store.Counts(ctx, sv.ID, []string{store.AnsweredKey}, sv.CreatedAt, rs.now().Add(time.Hour))
	if err != nil {
		return nil, fmt.Errorf("console: answers of survey %s: %w", sv.ID, err)
	}
	out := make(map[string]int, len(sv.Questions))
	for _, q := range sv.Questions {
		out[q.ID] = int(counts[store.AnsweredKey][q.Position])
	}
	return out, nil
}

// preview shows the form's survey, unsaved, in the real widget beside the form: v says why
// not when the survey is not valid.
func (rs *Results) preview(sv store.Survey, v *editView) {
	def, err := v.definition(sv)
	if err == nil {
		err = def.Validate()
	}
	if err != nil {
		rs.placeError(v, err)
		return
	}
	def.Display = nil // as the public view leaves the team's rules out
	b, err := json.Marshal(def)
	if err != nil {
		v.Error = err.Error()
		return
	}
	v.PreviewJSON = string(b)
}

// previewJSON is the form's survey as the preview shows it, or "" when it is not valid (Preview
// then says why): shown on every page of the editor, without the notices and errors of a save.
func (v editView) previewJSON() string {
	def, err := v.formDefinition()
	if err != nil || def.Validate() != nil {
		return ""
	}
	def.Display = nil
	b, err := json.Marshal(def)
	if err != nil {
		return ""
	}
	return string(b)
}

// formDefinition is the survey the form stands for, over the stored one, leaving v as it is.
func (v editView) formDefinition() (survey.Definition, error) {
	c := v
	c.Notices, c.Questions = nil, slices.Clone(v.Questions)
	return c.definition(v.Survey)
}

// unsaved reports whether the form stands for another survey than the one stored (or for none
// that can be saved), for the page's script to ask before the person leaves it.
func (v editView) unsaved() bool {
	def, err := v.formDefinition()
	if err != nil {
		return true
	}
	wait, err := v.webhook()
	if err != nil || v.WebhookURL != v.Survey.WebhookURL || wait != v.Survey.WebhookWaitSeconds {
		return true
	}
	mine, err1 := json.Marshal(def)
	stored, err2 := json.Marshal(v.Survey.Definition)
	return err1 != nil || err2 != nil || !bytes.Equal(mine, stored)
}

func (rs *Results) widgetScript(w http.ResponseWriter, r *http.Request) {
	files, err := widget.Files()
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	f := files[widget.Script]
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("ETag", f.ETag)
	http.ServeContent(w, r, widget.Script, time.Time{}, bytes.NewReader(f.Content))
}

// editorScript serves the editor's own script (widget.EditorScript): the form's buttons and
// type changes in place, the preview following the form as it is typed, the times in the
// browser's zone, asking before answers are lost and before unsaved changes are left. The
// editor works without it.
func (rs *Results) editorScript(w http.ResponseWriter, r *http.Request) {
	f, err := widget.EditorScript()
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("ETag", f.ETag)
	http.ServeContent(w, r, widget.Editor, time.Time{}, bytes.NewReader(f.Content))
}
