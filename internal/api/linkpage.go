package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/internal/linkauth"
	"github.com/svc-feedback/svc/internal/linkpage"
	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The link page, "GET /s/{surveyId}" (extensions.md section 10): a survey for a link in an
// e-mail or a chat, answered with no publishable key. A signed link is one person's, with one
// response; a survey with link.anonymous is answered unsigned too. Every page that shows no
// survey says why, in words for the person who opened the link.

// handleLinkPage serves "GET /s/{surveyId}".
func (h *Handler) handleLinkPage(w http.ResponseWriter, r *http.Request) {
	linkpage.Write(endpointWriter(w), h.log, h.linkPage(r))
}

// handleLinkFile serves the link page's stylesheet and script.
func (h *Handler) handleLinkFile(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path[strings.LastIndexByte(r.URL.Path, '/'):], "/")
	if w = endpointWriter(w); !linkpage.ServeFile(w, r, name) {
		h.writeError(endpointWriter(w), r, notFound("no such file"))
	}
}

func message(status int, title, text string) linkpage.Page {
	return linkpage.Page{Status: status, Lang: "en", Title: title, Message: text}
}

// The pages that show no survey. They are values, copied wherever they are returned.
var (
	pageNotFound = message(http.StatusNotFound, "Survey not found", "There is no survey at this address. Check that the link is the one you were sent.")
	pageClosed   = message(http.StatusNotFound, "This survey is closed", "It no longer takes answers. Thank you for your time.")
	pageBadLink  = message(http.StatusForbidden, "This link is not valid", "It may have been changed or cut short. Open the link exactly as you were sent it.")
	pageExpired  = message(http.StatusForbidden, "This link has expired", "Ask whoever sent it to you for a new one.")
	pagePersonal = message(http.StatusForbidden, "This survey needs a personal link", "Open the link you were sent to answer it.")
	pageAnswered = message(http.StatusOK, "Thank you", "You have answered this survey already.")
	pageDown     = message(http.StatusServiceUnavailable, "The survey cannot be shown right now", "Please try again in a minute.")
	pageNoLinks  = message(http.StatusNotImplemented, "Link surveys are not available here", "This server keeps no link surveys.")
	pageBusy     = message(http.StatusTooManyRequests, "Too many requests", "This survey was opened too often from here just now. Please try again in a minute.")
)

func pageBadRequest(text string) linkpage.Page {
	return message(http.StatusBadRequest, "This link cannot be answered", text)
}

// linkPage decides the page for r.
func (h *Handler) linkPage(r *http.Request) linkpage.Page {
	ln, err := h.linker()
	if err != nil {
		return pageNoLinks
	}
	ctx, id := r.Context(), r.PathValue("surveyId")
	if !store.ValidSurveyID(id) {
		return pageNotFound
	}
	// Limited as the widget's calls are, per survey and client: a page reads, and may write.
	if h.limiter != nil {
		if ok, _ := h.limiter.allow(r, "link:"+id); !ok {
			return pageBusy
		}
	}
	sv, err := ln.LinkSurvey(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && sv.Status == store.StatusDeleted:
		return pageNotFound
	case err != nil:
		return h.pageFailed(r, err)
	case sv.Status != store.StatusActive:
		return pageClosed
	}
	lang, err := surveyLanguage(r, &sv)
	if err != nil {
		return pageBadRequest("Its language (lang) is not one svc knows.")
	}
	g, page := h.linkGrant(r, ln, &sv)
	if page != nil {
		return *page
	}
	prefill, problem := prefillAnswers(r.URL.Query(), &sv.Definition)
	if problem != "" {
		return pageBadRequest(problem)
	}
	answers, responseID := prefill, ""
	if !g.Anonymous() {
		responseID = linkauth.ResponseID(sv.ID, g.Respondent)
		var done bool
		if answers, done, err = h.linkResponse(r, &sv, g.Respondent, responseID, lang, prefill); errors.Is(err, store.ErrInvalid) {
			return pageBadRequest("Its answers cannot be saved: " + err.Error())
		} else if err != nil {
			return h.pageFailed(r, err)
		}
		if done {
			return pageAnswered
		}
	}
	raw, _ := json.Marshal(answers)
	pageLang := lang
	if pageLang == "" {
		pageLang = "en"
	}
	return linkpage.Page{Status: http.StatusOK, Lang: pageLang, RightToLeft: survey.RightToLeft(pageLang), Title: sv.Definition.Localize(lang).Title,
		Survey: &linkpage.Survey{ID: sv.ID, Key: g.Token(), Respondent: g.Respondent, ResponseID: responseID, Language: lang, Answers: raw}}
}

// linkGrant checks the link's signature, or that the survey takes anonymous answers; a page
// says why not.
func (h *Handler) linkGrant(r *http.Request, ln store.Linker, sv *store.Survey) (linkauth.Grant, *linkpage.Page) {
	q := r.URL.Query()
	if !q.Has("r") && !q.Has("exp") && !q.Has("sig") {
		if sv.Link == nil || !sv.Link.Anonymous {
			p := pagePersonal
			return linkauth.Grant{}, &p
		}
		return linkauth.Grant{SurveyID: sv.ID}, nil
	}
	var parts [3]string
	for i, name := range []string{"r", "exp", "sig"} {
		v, err := wire.Query(q, name)
		if err != nil || v == "" {
			p := pageBadLink
			return linkauth.Grant{}, &p
		}
		parts[i] = v
	}
	var p linkpage.Page
	switch err := h.checkLink(r.Context(), ln, sv, parts[0], parts[1], parts[2]); {
	case errors.Is(err, linkauth.ErrExpired):
		p = pageExpired
	case errors.Is(err, linkauth.ErrBadSignature):
		p = pageBadLink
	case err != nil:
		p = h.pageFailed(r, err)
	default:
		return linkauth.Grant{SurveyID: sv.ID, Respondent: parts[0], Exp: parts[1], Sig: parts[2]}, nil
	}
	return linkauth.Grant{}, &p
}

// linkResponse reads the signed link's response, and saves the link's prefilled answers into
// it: done when it is finished (and then left as it is), else the answers it holds.
func (h *Handler) linkResponse(r *http.Request, sv *store.Survey, respondent, id, lang string, prefill survey.Answers) (survey.Answers, bool, error) {
	answers := survey.Answers{}
	meta := map[string]string{"channel": "link"}
	old, err := h.store.Response(r.Context(), sv.ID, id)
	switch {
	case err == nil && old.Finished:
		return nil, true, nil
	case err == nil:
		if answers, err = old.Answers(); err != nil {
			return nil, false, fmt.Errorf("link response %s: %w", id, err)
		}
		_ = json.Unmarshal(old.Metadata, &meta)
	case !errors.Is(err, store.ErrNotFound):
		return nil, false, err
	}
	// A HEAD (a mail scanner's look at a link) answers nothing.
	if len(prefill) == 0 || r.Method == http.MethodHead {
		return answers, false, nil
	}
	for qid, a := range prefill {
		answers[qid] = a
	}
	write := store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: respondent, Data: answers, Metadata: meta,
		Language: lang, Finished: routeAnswered(&sv.Definition, answers), At: h.now().UTC()}
	if err := write.Validate(); err != nil {
		return nil, false, err
	}
	resp, created, err := h.store.PutResponse(r.Context(), write)
	if err != nil {
		return nil, false, err
	}
	if created && sv.WebhookURL != "" {
		h.deliveryScheduled()
	}
	return answers, resp.Finished, nil
}

// routeAnswered reports whether answers answer every question on their route but statements:
// a one-click answer to a one-question survey finishes it.
func routeAnswered(d *survey.Definition, answers survey.Answers) bool {
	for _, i := range d.Route(answers) {
		q := &d.Questions[i]
		if _, ok := answers[q.ID]; !ok && q.Type() != survey.TypeStatement {
			return false
		}
	}
	return true
}

// prefillAnswers reads a link's a.{questionId}=value answers: a rating's score, a choice's
// value, several values for a multi-select, text; each checked as a PUT's answer is. problem
// says, to the person who opened the link, why one cannot be taken.
func prefillAnswers(q url.Values, d *survey.Definition) (answers survey.Answers, problem string) {
	answers = survey.Answers{}
	for key, values := range q {
		qid, ok := strings.CutPrefix(key, "a.")
		if !ok {
			continue
		}
		qu, ok := d.Question(qid)
		if !ok {
			return nil, fmt.Sprintf("The survey has no question %q to answer from the link.", wire.Truncate(qid))
		}
		var a survey.Answer
		switch qu.Type() {
		case survey.TypeRating:
			n, err := strconv.ParseFloat(values[0], 64)
			if err != nil || len(values) > 1 {
				return nil, fmt.Sprintf("The link's answer to %q is not a score.", qu.ID)
			}
			a = survey.Number(n)
		case survey.TypeMultiSelect:
			a = survey.Choices(values)
		case survey.TypeSingleSelect, survey.TypeOpenEnded:
			if len(values) > 1 {
				return nil, fmt.Sprintf("The link answers %q more than once.", qu.ID)
			}
			a = survey.Text(values[0])
		default:
			return nil, fmt.Sprintf("A %s question is not answered from a link.", qu.Type())
		}
		if err := qu.ValidateAnswer(a); err != nil {
			return nil, fmt.Sprintf("The link's answer to %q is not one it takes: %v.", qu.ID, strings.TrimPrefix(err.Error(), survey.ErrInvalidAnswer.Error()+": "))
		}
		answers[qu.ID] = a
	}
	return answers, ""
}

// pageFailed logs a failure the person cannot mend, and says to try again.
func (h *Handler) pageFailed(r *http.Request, err error) linkpage.Page {
	h.log.ErrorContext(r.Context(), "link page", "path", r.URL.Path, "err", err)
	return pageDown
}
