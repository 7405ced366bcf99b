package console

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/svc-feedback/svc/internal/linkauth"
	"github.com/svc-feedback/svc/internal/problem"
	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// Share, linked from the editor and the results page: the ways people reach a survey outside
// the app's pages, each with a Copy button (pages/share.js; without script the text is in a
// readonly field to select).
//
//   - Its anonymous link, /s/{surveyId}, and the survey's link.anonymous turned on and off, saved
//     with the survey's validation as the console's other changes are.
//   - Personal links for a pasted list of respondents (up to maxShareRespondents, each checked as
//     the API checks a respondent), signed here with the team's link secret by package linkauth,
//     which the link pages check them with; the team's first secret is made on first use. They
//     are shown as a table, and "Download as CSV" posts the same list again to be signed again
//     and streamed: nothing is kept between requests. A link is the same for the same person,
//     expiry and secret, so the CSV is the table.
//   - The snippet that embeds the widget in the app's pages.
//
// The addresses start with Config.BaseURL, where svc's handler is served; without it, with the
// root of the host the console is reached at, which the page then says it assumed.

// maxShareRespondents bounds the lines of a list of respondents: 10,000 signatures take a few
// milliseconds, and the table and the CSV stay a few megabytes.
const maxShareRespondents = 10_000

// maxShareForm bounds the form of a list: 10,000 ids of a hundred characters, percent-encoded,
// with room to spare (the console's other forms take maxForm).
const maxShareForm = 8 << 20

// defaultLinkDays is how long personal links work unless the form says otherwise.
const defaultLinkDays = 30

// shareView is what the Share page shows.
type shareView struct {
	Survey store.Survey
	Token  string
	// Base is where svc's handler is served; Guessed says it is the request's host, as
	// Config.BaseURL is not set.
	Base    string
	Guessed bool
	// AnonymousURL is the survey's link page; Anonymous says link.anonymous is on.
	AnonymousURL string
	Anonymous    bool
	Notices      []string
	// Links says the store keeps link surveys (store.Linker).
	Links bool
	// The form of personal links, as typed, and what is wrong with it, beside its fields.
	Respondents, Expires, MinExpires string
	RespondentsError, ExpiresError   string
	// Made are the links made, until the end of Until (UTC); MadeList is their respondents, one
	// a line, for the CSV's form (with Expires); SecretMade says the team's secret was made for
	// them.
	Made       []personalLink
	Until      string
	MadeList   string
	SecretMade bool
	Snippet    string
	Team       string
}

// personalLink is one row of the table of personal links.
type personalLink struct{ Respondent, URL string }

func (rs *Results) sharePage(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	v := rs.shareView(r, sv)
	switch r.URL.Query().Get("anonymous") {
	case "on":
		v.Notices = append(v.Notices, "The anonymous link is on: anyone who has it can answer the survey.")
	case "off":
		v.Notices = append(v.Notices, "The anonymous link is off: it now opens a page saying the survey needs a personal link. Personal links keep working.")
	}
	rs.renderShare(w, r, http.StatusOK, v)
}

// shareView is the page over sv, its form empty.
func (rs *Results) shareView(r *http.Request, sv store.Survey) shareView {
	base, guessed := rs.publicBase(r)
	_, links := rs.store.(store.Linker)
	today := rs.now().UTC().Truncate(24 * time.Hour)
	return shareView{Survey: sv, Token: rs.token, Base: base, Guessed: guessed,
		AnonymousURL: base + "/s/" + url.PathEscape(sv.ID), Anonymous: sv.Link != nil && sv.Link.Anonymous, Links: links,
		Expires: today.AddDate(0, 0, defaultLinkDays).Format(time.DateOnly), MinExpires: today.Format(time.DateOnly),
		Snippet: widgetSnippet(base, sv.ID), Team: rs.teamID}
}

func (rs *Results) renderShare(w http.ResponseWriter, r *http.Request, status int, v shareView) {
	w.Header().Set("Content-Security-Policy", previewCSP) // its own script: pages/share.js
	rs.renderStatus(w, r, status, "share.html", v)
}

// publicBase is where svc's handler is served, as the Share page's addresses start: Config.BaseURL,
// else (guessed) the root of the host the console is reached at, over TLS when the request was.
func (rs *Results) publicBase(r *http.Request) (base string, guessed bool) {
	if rs.baseURL != "" {
		return rs.baseURL, false
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host, true
}

// shareAnonymous turns the survey's anonymous link on or off, as the form says.
func (rs *Results) shareAnonymous(r *http.Request) (string, error) {
	state := r.PostForm.Get("anonymous")
	if state != "on" && state != "off" {
		return "", problem.BadRequest("the anonymous link is turned on or off")
	}
	err := rs.modify(r, func(sv *store.Survey) error {
		var l survey.Link
		if sv.Link != nil {
			l = *sv.Link
		}
		if l.Anonymous = state == "on"; l == (survey.Link{}) {
			sv.Link = nil
		} else {
			sv.Link = &l
		}
		if err := sv.Definition.Validate(); err != nil {
			return problem.BadRequest("the survey cannot be saved as it is: " + err.Error())
		}
		return nil
	})
	return "../share?anonymous=" + state, err // from …/share/anonymous, the page
}

// shareLinks makes the personal links of the form's list, shown in a table.
func (rs *Results) shareLinks(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	v := rs.shareView(r, sv)
	v.Respondents, v.Expires = r.PostForm.Get("respondents"), r.PostForm.Get("expires")
	list, exp, ok := rs.shareForm(&v)
	if !ok {
		rs.renderShare(w, r, http.StatusUnprocessableEntity, v)
		return
	}
	secret, made, err := rs.linkSecret(r.Context())
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	v.Made = make([]personalLink, len(list))
	for i, who := range list {
		v.Made[i] = personalLink{who, linkauth.Link(secret, v.Base, sv.ID, who, exp)}
	}
	v.MadeList, v.SecretMade = strings.Join(list, "\n"), made
	v.Until = time.Unix(exp, 0).UTC().AddDate(0, 0, -1).Format("2 Jan 2006")
	rs.renderShare(w, r, http.StatusOK, v)
}

// shareCSV signs the form's list again and streams it as a CSV: respondent,link.
func (rs *Results) shareCSV(w http.ResponseWriter, r *http.Request) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	v := shareView{Respondents: r.PostForm.Get("respondents"), Expires: r.PostForm.Get("expires")}
	list, exp, ok := rs.shareForm(&v)
	if !ok {
		rs.fail(w, r, problem.BadRequest(strings.TrimSpace(v.RespondentsError+" "+v.ExpiresError)))
		return
	}
	secret, _, err := rs.linkSecret(r.Context())
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	base, _ := rs.publicBase(r)
	hd := w.Header()
	hd.Set("Content-Type", "text/csv; charset=utf-8")
	hd.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-links.csv"`, sv.ID))
	cw := csv.NewWriter(w) // buffered: written out as its buffer fills
	row := []string{"respondent", "link"}
	for i := -1; i < len(list); i++ {
		if i >= 0 {
			row = append(row[:0], list[i], linkauth.Link(secret, base, sv.ID, list[i], exp))
		}
		if err := cw.Write(report.SafeCells(row)); err != nil {
			rs.log.WarnContext(r.Context(), "console: links CSV cut short", "survey", sv.ID, "err", err)
			return
		}
	}
	if cw.Flush(); cw.Error() != nil {
		rs.log.WarnContext(r.Context(), "console: links CSV cut short", "survey", sv.ID, "err", cw.Error())
	}
}

// shareForm reads the form of personal links in v: its respondents, once each in the order
// given, and the links' expiry in Unix seconds (the end of the day given, UTC). What is wrong
// is set beside its field, and ok is false.
func (rs *Results) shareForm(v *shareView) (list []string, exp int64, ok bool) {
	list, v.RespondentsError = respondentList(v.Respondents)
	exp, v.ExpiresError = linkExpiry(v.Expires, rs.now())
	return list, exp, v.RespondentsError == "" && v.ExpiresError == ""
}

// respondentList reads a pasted list of respondents, one a line (spaces around a line and empty
// lines left out), each checked as the API checks a respondent; a line repeated counts once.
// problem names the first line that is not one, in words for the person.
func respondentList(text string) (list []string, problem string) {
	seen := map[string]bool{}
	n, lines := 0, 0
	for line := range strings.Lines(text) {
		lines++
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if n++; n > maxShareRespondents {
			return nil, fmt.Sprintf("Line %s is one too many: links are made for up to %s respondents at a time. Make the rest in another list.",
				thousands(lines), thousands(maxShareRespondents))
		}
		if err := store.ValidateRespondent(line); err != nil {
			return nil, fmt.Sprintf("Line %s, “%s”, is not a respondent: %s. Correct it or leave it out.", thousands(lines), shortText(line), respondentProblem(line))
		}
		if !seen[line] {
			seen[line] = true
			list = append(list, line)
		}
	}
	if len(list) == 0 {
		return nil, "Paste the respondents: your app’s id for each person, one a line."
	}
	return list, ""
}

// respondentProblem says why store.ValidateRespondent refused s.
func respondentProblem(s string) string {
	switch {
	case !utf8.ValidString(s):
		return "it is not valid text (UTF-8)"
	case utf8.RuneCountInString(s) > store.MaxRespondentChars:
		return fmt.Sprintf("a respondent has at most %d characters, and it has %d", store.MaxRespondentChars, utf8.RuneCountInString(s))
	case strings.IndexByte(s, 0) >= 0:
		return "it holds the character U+0000"
	}
	return "“.” and “..” cannot be respondents"
}

// shortText is s as a message quotes it: at most 40 characters.
func shortText(s string) string {
	s = strings.ToValidUTF8(s, "�")
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:40]) + "…"
}

// thousands writes n with a comma between thousands: 10,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// linkExpiry reads the form's Expires, a day (as a date input sends it): links work until the
// end of it, UTC, so it is today or later.
func linkExpiry(day string, now time.Time) (exp int64, problem string) {
	d, err := time.Parse(time.DateOnly, strings.TrimSpace(day))
	if err != nil {
		return 0, "Give the day the links expire, as year, month and day."
	}
	end := d.AddDate(0, 0, 1)
	if !end.After(now) {
		return 0, "That day has passed: the links would open no survey. Give today or a later day."
	}
	return end.Unix(), ""
}

// firstLinkSecret keeps two first uses in this process from each making the team a secret, the
// second retiring the first's after a day.
var firstLinkSecret sync.Mutex

// linkSecret is the team's current link secret, made now when it has none (made), as POST
// /v1/protected/settings/link-secret makes one.
func (rs *Results) linkSecret(ctx context.Context) (secret string, made bool, err error) {
	ln, ok := rs.store.(store.Linker)
	if !ok {
		return "", false, problem.BadRequest("this server's store keeps no link surveys (store.Linker)")
	}
	ls, err := ln.LinkSecrets(ctx, rs.teamID)
	if err != nil || ls.Secret != "" {
		return ls.Secret, false, err
	}
	firstLinkSecret.Lock()
	defer firstLinkSecret.Unlock()
	if ls, err = ln.LinkSecrets(ctx, rs.teamID); err != nil || ls.Secret != "" {
		return ls.Secret, false, err
	}
	ls, err = ln.RotateLinkSecret(ctx, rs.teamID, store.NewLinkSecret(), rs.now().Add(store.SecretOverlap))
	if errors.Is(err, store.ErrNotFound) {
		return "", false, problem.BadRequest("the console's team is not in the store: no link secret can be made for it")
	} else if err != nil {
		return "", false, err
	}
	rs.log.InfoContext(ctx, "console: made the team's link secret on first use", "team", rs.teamID) // never the secret
	return ls.Secret, true, nil
}

// widgetSnippet is what an app pastes in its layout to ask people in its pages, as README.md's
// "The widget" gives it, from base.
func widgetSnippet(base, surveyID string) string {
	return `<script src="` + base + `/v1/svc/widget.js" defer></script>
<script>
  addEventListener("DOMContentLoaded", () => {
    // window.Svc?.: a page whose widget.js could not load goes on without surveys.
    window.Svc?.init({
      publishableKey: "svc_pk_...", // your team's publishable key
      respondent: "user-42",        // your id for this person
    });
    // To show this survey yourself, from a button say:
    // window.Svc?.show({ surveyId: "` + surveyID + `", publishableKey: "svc_pk_...", respondent: "user-42" });
  });
</script>
`
}

// checkedList serves a form that carries a list of respondents, larger than maxForm, checked as
// checked does: its origin first, then its body read up to maxShareForm (ParseForm reads it
// once: checked's own read then finds it read), then its token.
func (rs *Results) checkedList(h http.HandlerFunc) http.HandlerFunc {
	next := rs.checked(h)
	return func(w http.ResponseWriter, r *http.Request) {
		if err := rs.sameOrigin(r); err != nil {
			rs.fail(w, r, err)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxShareForm)
		if err := r.ParseForm(); err != nil {
			rs.fail(w, r, problem.BadRequest(fmt.Sprintf("the list could not be read, or is larger than the console takes (%d MB): make the links in parts", maxShareForm>>20)))
			return
		}
		next(w, r)
	}
}

func (rs *Results) shareScript(w http.ResponseWriter, r *http.Request) {
	b, _ := resultsFiles.ReadFile("pages/share.js")
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Write(b)
}

func (rs *Results) shareStyle(w http.ResponseWriter, r *http.Request) {
	b, _ := resultsFiles.ReadFile("pages/share.css")
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Write(b)
}
