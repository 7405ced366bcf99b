package api

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/internal/hostguard"
	"github.com/svc-feedback/svc/internal/linkauth"
	"github.com/svc-feedback/svc/internal/linkpage"
	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The link page, "GET /s/{surveyId}" (docs/languages-and-links.md): a survey for a link in an
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

// pageWords are the words of a link page: in one of the languages the pages speak, the closest
// to the survey's (when known) or the browser's.
type pageWords struct{ lang string }

func wordsFor(accepted []string, surveyLang string) pageWords {
	asked := accepted
	if surveyLang != "" {
		asked = append([]string{surveyLang}, accepted...)
	}
	for _, tag := range asked {
		for _, t := range survey.LanguageChain(tag) {
			if slices.Contains(linkpage.Languages, t) {
				return pageWords{t}
			}
		}
	}
	return pageWords{"en"}
}

// page is a page that shows no survey: kind's title and message, and detail after it.
func (pw pageWords) page(status int, kind, detail string) linkpage.Page {
	title, msg := linkpage.Text(pw.lang, kind)
	if detail != "" {
		msg = strings.TrimSpace(msg + " " + detail)
	}
	return linkpage.Page{Status: status, Lang: pw.lang, RightToLeft: survey.RightToLeft(pw.lang), Title: title, Message: msg}
}

// linkPage decides the page for r.
func (h *Handler) linkPage(r *http.Request) linkpage.Page {
	accepted := acceptLanguages(headerValue(r.Header, "Accept-Language"))
	pw := wordsFor(accepted, "")
	if !hostguard.ValidHost(r.Host) {
		return pw.page(http.StatusBadRequest, linkpage.BadRequest, "Its address names a port that is not a number.")
	}
	ln, err := h.linker()
	if err != nil {
		return pw.page(http.StatusNotImplemented, linkpage.NoLinks, "")
	}
	ctx, id := r.Context(), r.PathValue("surveyId")
	if !store.ValidSurveyID(id) {
		return pw.page(http.StatusNotFound, linkpage.NotFound, "")
	}
	// Limited as the widget's calls are, per survey and client: a page reads, and may write.
	if h.limiter != nil {
		if ok, wait := h.limiter.allow(r, "link:"+id); !ok {
			p := pw.page(http.StatusTooManyRequests, linkpage.Busy, "")
			p.RetryAfter = retryAfterSeconds(wait)
			return p
		}
	}
	sv, err := ln.LinkSurvey(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && sv.Status == store.StatusDeleted:
		return pw.page(http.StatusNotFound, linkpage.NotFound, "")
	case err != nil:
		return h.pageFailed(r, pw, err)
	}
	lang, err := surveyLanguage(r, &sv)
	if err != nil {
		return pw.page(http.StatusBadRequest, linkpage.BadRequest, "Its language (lang) is not one svc knows.")
	}
	if pw = wordsFor(accepted, lang); sv.Status != store.StatusActive {
		return pw.page(http.StatusNotFound, linkpage.Closed, "")
	}
	g, page := h.linkGrant(r, ln, &sv, pw)
	if page != nil {
		return *page
	}
	prefill, problem := prefillAnswers(r.URL.Query(), &sv.Definition)
	if problem != "" {
		return pw.page(http.StatusBadRequest, linkpage.BadRequest, problem)
	}
	answers, responseID := prefill, ""
	if !g.Anonymous() {
		responseID = linkauth.ResponseID(sv.ID, g.Respondent)
		var done bool
		if answers, done, err = h.linkResponse(r, &sv, g.Respondent, responseID, lang, prefill); errors.Is(err, store.ErrInvalid) {
			return pw.page(http.StatusBadRequest, linkpage.BadRequest, "Its answers cannot be saved: "+err.Error())
		} else if err != nil {
			return h.pageFailed(r, pw, err)
		}
		if done {
			return pw.page(http.StatusOK, linkpage.Answered, "")
		}
	}
	raw, _ := json.Marshal(answers)
	pageLang := cmp.Or(lang, "en")
	_, thanks := linkpage.Text(pw.lang, linkpage.Thanks)
	_, closed := linkpage.Text(pw.lang, linkpage.Dismissed)
	return linkpage.Page{Status: http.StatusOK, Lang: pageLang, RightToLeft: survey.RightToLeft(pageLang), Title: sv.Definition.Localize(lang).Title,
		Survey: &linkpage.Survey{ID: sv.ID, Key: g.Token(), Respondent: g.Respondent, ResponseID: responseID, Language: lang, Answers: raw,
			Thanks: thanks, Dismissed: closed}}
}

// linkGrant checks the link's signature, or that the survey takes anonymous answers; a page
// says why not.
func (h *Handler) linkGrant(r *http.Request, ln store.Linker, sv *store.Survey, pw pageWords) (linkauth.Grant, *linkpage.Page) {
	q := r.URL.Query()
	if !q.Has("r") && !q.Has("exp") && !q.Has("sig") {
		if sv.Link == nil || !sv.Link.Anonymous {
			p := pw.page(http.StatusForbidden, linkpage.Personal, "")
			return linkauth.Grant{}, &p
		}
		return linkauth.Grant{SurveyID: sv.ID}, nil
	}
	var parts [3]string
	for i, name := range []string{"r", "exp", "sig"} {
		v, err := wire.Query(q, name)
		if err != nil || v == "" {
			p := pw.page(http.StatusForbidden, linkpage.BadLink, "")
			return linkauth.Grant{}, &p
		}
		parts[i] = v
	}
	var p linkpage.Page
	switch err := h.checkLink(r.Context(), ln, sv, parts[0], parts[1], parts[2]); {
	case errors.Is(err, linkauth.ErrExpired):
		p = pw.page(http.StatusForbidden, linkpage.Expired, "")
	case errors.Is(err, linkauth.ErrBadSignature):
		p = pw.page(http.StatusForbidden, linkpage.BadLink, "")
	case err != nil:
		p = h.pageFailed(r, pw, err)
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
// value, several values for a multi-select (or a ranking, in order), text (a date, a call to
// action's "clicked"); each checked as a PUT's answer is. A matrix, consent or contact answer is
// given in the page, not the link. problem
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
			n, ok := decimalScore(values[0])
			if !ok || len(values) > 1 {
				return nil, fmt.Sprintf("The link's answer to %q is not a score: a whole number in digits, such as 9.", qu.ID)
			}
			a = survey.Number(n)
		case survey.TypeMultiSelect, survey.TypeRanking:
			a = survey.Choices(values) // a ranking's in the link's order
		case survey.TypeSingleSelect, survey.TypeOpenEnded, survey.TypeDate, survey.TypeCTA:
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

// decimalScore reads a link's score: a whole number written in decimal digits, such as 9 or 0,
// and nothing else (no sign, space, point, exponent or hexadecimal form, which a number parser
// would take): a link is written by a program, and one spelling for each score keeps what it
// means plain.
func decimalScore(v string) (int, bool) {
	if v == "" || len(v) > 9 || strings.Trim(v, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

// pageFailed logs a failure the person cannot mend, and says to try again.
func (h *Handler) pageFailed(r *http.Request, pw pageWords, err error) linkpage.Page {
	h.log.ErrorContext(r.Context(), "link page", "path", r.URL.Path, "err", err)
	return pw.page(http.StatusServiceUnavailable, linkpage.Down, "")
}
