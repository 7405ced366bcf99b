package console_test

import (
	"encoding/csv"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/internal/linkauth"
)

// shareClient drives a console's forms as its own page does: same origin, with its token.
type shareClient struct {
	t     *testing.T
	h     http.Handler
	token string
}

func newShareClient(t *testing.T, e *env, cfg console.Config) *shareClient {
	t.Helper()
	cfg.Now = e.clock.Now
	c := &shareClient{t: t, h: console.NewConsole(e.store, "a", cfg, []byte("a key of the test's own, 32 bytes"))}
	m := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(c.get("/").Body.String())
	if m == nil {
		t.Fatal("the list has no form token")
	}
	c.token = m[1]
	return c
}

func (c *shareClient) do(method, path string, form url.Values, headers map[string]string) *httptest.ResponseRecorder {
	c.t.Helper()
	return send(c.h, method, path, form, headers)
}

func (c *shareClient) get(path string) *httptest.ResponseRecorder { return c.do("GET", path, nil, nil) }

func (c *shareClient) post(path string, form url.Values) *httptest.ResponseRecorder {
	c.t.Helper()
	form.Set("csrf", c.token)
	return c.do("POST", path, form, map[string]string{"Sec-Fetch-Site": "same-origin"})
}

// TestShareAnonymousLink: the Share page, linked from the editor and the results page, gives the
// survey's link page at the host's root (or at Config.BaseURL), and its buttons turn
// link.anonymous on and off in the store.
func TestShareAnonymousLink(t *testing.T) {
	e := setup(t)
	c := newShareClient(t, e, console.Config{})
	id := e.survA.ID
	for _, from := range []string{"/surveys/" + id + "/edit", "/surveys/" + id} {
		if page := c.get(from).Body.String(); !regexp.MustCompile(`<a href="(` + id + `/)?share">Share</a>`).MatchString(page) {
			t.Errorf("%s has no link named Share", from)
		}
	}
	rec := c.get("/surveys/" + id + "/share")
	page := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(page, "<h1>Share</h1>") || !strings.Contains(page, `value="http://localhost:8080/s/`+id+`"`) ||
		!strings.Contains(page, "assume svc is served at the root of this site") || !strings.Contains(page, ">Turn on the anonymous link</button>") {
		t.Fatalf("the Share page: %d\n%s", rec.Code, page)
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP %q", csp)
	}
	anonymous := func() bool {
		sv, err := e.store.Survey(t.Context(), "a", id)
		if err != nil {
			t.Fatal(err)
		}
		return sv.Link != nil && sv.Link.Anonymous
	}

	rec = c.post("/surveys/"+id+"/share/anonymous", url.Values{"anonymous": {"on"}})
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "../share?anonymous=on" || !anonymous() {
		t.Fatalf("turned on: %d %q, anonymous %v", rec.Code, rec.Header().Get("Location"), anonymous())
	}
	if page := c.get("/surveys/" + id + "/share?anonymous=on").Body.String(); !strings.Contains(page, ">Turn off the anonymous link</button>") ||
		!strings.Contains(page, "The anonymous link is on") {
		t.Errorf("the page once on:\n%s", page)
	}
	if rec := c.post("/surveys/"+id+"/share/anonymous", url.Values{"anonymous": {"off"}}); rec.Code != http.StatusSeeOther || anonymous() {
		t.Errorf("turned off: %d, anonymous %v", rec.Code, anonymous())
	}
	if sv, _ := e.store.Survey(t.Context(), "a", id); sv.Link != nil {
		t.Errorf("off leaves link %+v, want none", sv.Link)
	}
	// Refused: no token, another site's page, a state that is neither, another team's survey.
	for name, rec := range map[string]*httptest.ResponseRecorder{
		"no token":   c.do("POST", "/surveys/"+id+"/share/anonymous", url.Values{"anonymous": {"on"}}, map[string]string{"Sec-Fetch-Site": "same-origin"}),
		"cross-site": c.do("POST", "/surveys/"+id+"/share/anonymous", url.Values{"anonymous": {"on"}, "csrf": {c.token}}, map[string]string{"Sec-Fetch-Site": "cross-site"}),
		"toggle":     c.post("/surveys/"+id+"/share/anonymous", url.Values{"anonymous": {"toggle"}}),
		"other team": c.post("/surveys/"+e.survB.ID+"/share/anonymous", url.Values{"anonymous": {"on"}}),
	} {
		if rec.Code < 400 || anonymous() {
			t.Errorf("%s: %d, anonymous %v", name, rec.Code, anonymous())
		}
	}
	if sv, _ := e.store.Survey(t.Context(), "b", e.survB.ID); sv.Link != nil {
		t.Error("another team's survey was changed")
	}

	// With the handler's address given, the links start with it, and the page assumes nothing.
	based := newShareClient(t, e, console.Config{BaseURL: "https://app.example.com/feedback/"})
	page = based.get("/surveys/" + id + "/share").Body.String()
	if !strings.Contains(page, `value="https://app.example.com/feedback/s/`+id+`"`) || strings.Contains(page, "assume svc is served") ||
		!strings.Contains(page, `&lt;script src=&#34;https://app.example.com/feedback/v1/svc/widget.js&#34; defer&gt;&lt;/script&gt;`) ||
		!strings.Contains(page, "Svc?.init({") || !strings.Contains(page, `surveyId: &#34;`+id+`&#34;`) || !strings.Contains(page, "svc_pk_...") {
		t.Errorf("the page with BaseURL:\n%s", page)
	}
	// The Copy buttons show once their script runs: without it, the text is in readonly fields.
	if !strings.Contains(page, `aria-label="Copy the anonymous link" hidden>Copy</button>`) || !strings.Contains(page, `aria-label="Copy the snippet" hidden>Copy</button>`) ||
		!strings.Contains(page, `<script src="../../share.js"></script>`) || !strings.Contains(page, `<textarea id="snippet" rows="12" readonly`) {
		t.Error("the page has no copy buttons hidden until their script shows them, or no script, or no readonly snippet")
	}
	if js := c.get("/share.js"); js.Code != 200 || !strings.Contains(js.Body.String(), "navigator.clipboard.writeText") || !strings.HasPrefix(js.Header().Get("Content-Type"), "text/javascript") {
		t.Errorf("share.js: %d %q", js.Code, js.Header().Get("Content-Type"))
	}
	if css := c.get("/share.css"); css.Code != 200 || !strings.HasPrefix(css.Header().Get("Content-Type"), "text/css") {
		t.Errorf("share.css: %d", css.Code)
	}
}

// linkRow is a row of the table of personal links.
var linkRow = regexp.MustCompile(`<tr><th scope="row">([^<]*)</th><td class="link">([^<]*)</td></tr>`)

// madeLinks are the table's rows: respondent, link.
func madeLinks(page string) [][2]string {
	var out [][2]string
	for _, m := range linkRow.FindAllStringSubmatch(page, -1) {
		out = append(out, [2]string{html.UnescapeString(m[1]), html.UnescapeString(m[2])})
	}
	return out
}

// TestSharePersonalLinks: links for a pasted list, each respondent once, signed with the team's
// link secret, made on first use and kept after; each verifies as the link pages verify it, opens
// the survey through the API's link page, and is refused once expired.
func TestSharePersonalLinks(t *testing.T) {
	e := setup(t)
	c := newShareClient(t, e, console.Config{})
	id := e.survA.ID
	if ls, _ := e.store.LinkSecrets(t.Context(), "a"); ls.Secret != "" {
		t.Fatal("team a has a link secret already")
	}
	page := c.get("/surveys/" + id + "/share").Body.String()
	if !strings.Contains(page, `<textarea id="respondents" name="respondents"`) || !strings.Contains(page, `<label for="respondents">Respondents, one a line</label>`) ||
		!strings.Contains(page, `type="date" value="2026-12-21" min="2026-11-21"`) {
		t.Fatalf("the form of personal links, its expiry 30 days on:\n%s", page)
	}
	list := "ann@example.com\n  bob \r\n\nann@example.com\n=HYPERLINK(\"x\")\nzoë/ü ?&x=1\n"
	rec := c.post("/surveys/"+id+"/share", url.Values{"respondents": {list}, "expires": {"2026-11-28"}})
	page = rec.Body.String()
	rows := madeLinks(page)
	if rec.Code != 200 || len(rows) != 4 || !strings.Contains(page, "Made 4 personal links, which work until the end of 28 Nov 2026, UTC.") ||
		!strings.Contains(page, "The team had no link secret: one was made now") {
		t.Fatalf("links: %d, rows %q\n%s", rec.Code, rows, page)
	}
	ls, err := e.store.LinkSecrets(t.Context(), "a")
	if err != nil || ls.Secret == "" {
		t.Fatalf("the secret made on first use: %+v, %v", ls, err)
	}
	exp := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC) // the end of the day given
	h := api.New(e.store, api.Config{Now: e.clock.Now})
	for i, want := range []string{"ann@example.com", "bob", `=HYPERLINK("x")`, "zoë/ü ?&x=1"} {
		who, link := rows[i][0], rows[i][1]
		u, err := url.Parse(link)
		if who != want || err != nil || u.Scheme != "http" || u.Host != "localhost:8080" || u.Path != "/s/"+id {
			t.Errorf("row %d: %q %q, want %q", i, who, link, want)
			continue
		}
		q := u.Query()
		if q.Get("r") != want || q.Get("exp") != strconv.FormatInt(exp.Unix(), 10) {
			t.Errorf("row %d: r %q, exp %q", i, q.Get("r"), q.Get("exp"))
		}
		if err := linkauth.Check(ls.Valid(e.clock.Now()), id, q.Get("r"), q.Get("exp"), q.Get("sig"), e.clock.Now()); err != nil {
			t.Errorf("row %d does not verify: %v", i, err)
		}
		if err := linkauth.Check(ls.Valid(exp), id, q.Get("r"), q.Get("exp"), q.Get("sig"), exp); err != linkauth.ErrExpired {
			t.Errorf("row %d at its expiry: %v, want expired", i, err)
		}
		if signed := client.SignLink(ls.Secret, "http://localhost:8080", id, want, exp); signed != link {
			t.Errorf("row %d is not the link client.SignLink makes:\n%s\n%s", i, link, signed)
		}
	}
	// Opened, the link page shows the survey to its person.
	open := func(link string) (int, string) {
		u, _ := url.Parse(link)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", u.RequestURI(), nil))
		return rec.Code, rec.Body.String()
	}
	if code, body := open(rows[1][1]); code != 200 || !strings.Contains(body, `data-survey="`+id+`"`) {
		t.Errorf("bob's link: %d\n%s", code, body)
	}

	// Made again, the links use the same secret: the same links, and no secret made.
	again := c.post("/surveys/"+id+"/share", url.Values{"respondents": {"bob"}, "expires": {"2026-11-28"}}).Body.String()
	if rows := madeLinks(again); len(rows) != 1 || rows[0][1] != madeLinks(page)[1][1] || strings.Contains(again, "one was made now") ||
		!strings.Contains(again, "Made 1 personal link,") {
		t.Errorf("made again: %q\n%s", rows, again)
	}
	if ls2, _ := e.store.LinkSecrets(t.Context(), "a"); ls2 != ls {
		t.Errorf("the secret changed: %+v, then %+v", ls, ls2)
	}
	// At the end of the day given, the link page says the link has expired.
	e.clock.Advance(exp.Sub(e.clock.Now()))
	if code, body := open(rows[1][1]); code != http.StatusForbidden || !strings.Contains(body, "This link has expired") {
		t.Errorf("bob's link once expired: %d\n%s", code, body)
	}
}

// TestSharePersonalLinksRefused: a line that is not a respondent, the 10,001st line, no list, a
// day passed: the form again, saying so beside the field, and no link or secret made.
func TestSharePersonalLinksRefused(t *testing.T) {
	e := setup(t)
	c := newShareClient(t, e, console.Config{})
	path := "/surveys/" + e.survA.ID + "/share"
	many := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString("user-" + strconv.Itoa(i) + "\n")
		}
		return b.String()
	}
	for name, tc := range map[string]struct {
		respondents, expires string
		field, says          string
	}{
		"a long line":       {"ann\n\n" + strings.Repeat("x", 257) + "\nbob", "2026-12-01", "respondents", "Line 3, “xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…”, is not a respondent: a respondent has at most 256 characters, and it has 257."},
		"a dot":             {"ann\n..", "2026-12-01", "respondents", "Line 2, “..”, is not a respondent: “.” and “..” cannot be respondents."},
		"U+0000":            {"ann\nb\x00b", "2026-12-01", "respondents", "is not a respondent: it holds the character U+0000."},
		"the 10,001st line": {many(10_001), "2026-12-01", "respondents", "Line 10,001 is one too many: links are made for up to 10,000 respondents at a time."},
		"nothing":           {" \n\n", "2026-12-01", "respondents", "Paste the respondents"},
		"a day passed":      {"ann", "2026-11-20", "expires", "That day has passed"},
		"no day":            {"ann", "", "expires", "Give the day the links expire"},
		"a day not a day":   {"ann", "2026-13-01", "expires", "Give the day the links expire"},
		"a line and a day":  {"..", "2026-11-20", "respondents", "“.” and “..” cannot be respondents"},
	} {
		rec := c.post(path, url.Values{"respondents": {tc.respondents}, "expires": {tc.expires}})
		page := rec.Body.String()
		beside := regexp.MustCompile(`<p class="field-error" id="` + tc.field + `-error">([^<]*)</p>`).FindStringSubmatch(page)
		if rec.Code != http.StatusUnprocessableEntity || beside == nil || !strings.Contains(html.UnescapeString(beside[1]), tc.says) ||
			!strings.Contains(page, `aria-describedby="`+tc.field+`-error `+tc.field+`-help" aria-invalid="true"`) || len(madeLinks(page)) != 0 ||
			!strings.Contains(page, `role="alert"`) {
			t.Errorf("%s: %d, beside the field %q, want %q", name, rec.Code, beside, tc.says)
		}
	}
	// The list is kept in the form, as typed.
	if page := c.post(path, url.Values{"respondents": {"ann\n<b>..</b>\n.."}, "expires": {"2026-12-01"}}).Body.String(); !strings.Contains(page, ">\nann\n&lt;b&gt;..&lt;/b&gt;\n..</textarea>") {
		t.Errorf("the list typed is not kept:\n%s", page)
	}
	if ls, _ := e.store.LinkSecrets(t.Context(), "a"); ls.Secret != "" {
		t.Error("a refused list made the team a link secret")
	}
	// 10,000 lines are taken.
	rec := c.post(path, url.Values{"respondents": {many(10_000)}, "expires": {"2026-12-01"}})
	if rows := madeLinks(rec.Body.String()); rec.Code != 200 || len(rows) != 10_000 {
		t.Errorf("10,000 lines: %d, %d links", rec.Code, len(rows))
	}
}

// TestShareCSV: "Download as CSV" posts the list the table was made of, signed again and
// streamed as respondent,link, the cells guarded against formulas; refused without the token.
func TestShareCSV(t *testing.T) {
	e := setup(t)
	c := newShareClient(t, e, console.Config{})
	path := "/surveys/" + e.survA.ID + "/share"
	page := c.post(path, url.Values{"respondents": {"ann\n=cmd|' /C calc'!A0\nbob\nann"}, "expires": {"2026-12-01"}}).Body.String()
	table := madeLinks(page)
	m := regexp.MustCompile(`<form method="post" action="share/links.csv" class="editor">\s*<input type="hidden" name="csrf" value="[0-9a-f]+">\s*<input type="hidden" name="respondents" value="([^"]*)">\s*<input type="hidden" name="expires" value="([^"]*)">`).FindStringSubmatch(page)
	if len(table) != 3 || m == nil {
		t.Fatalf("no CSV form beside the table of %d links:\n%s", len(table), page)
	}
	rec := c.post(path+"/links.csv", url.Values{"respondents": {html.UnescapeString(m[1])}, "expires": {html.UnescapeString(m[2])}})
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/csv; charset=utf-8" ||
		rec.Header().Get("Content-Disposition") != `attachment; filename="`+e.survA.ID+`-links.csv"` || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("the CSV: %d %v\n%s", rec.Code, rec.Header(), rec.Body)
	}
	rows, err := csv.NewReader(strings.NewReader(rec.Body.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"respondent", "link"}, {"ann", table[0][1]}, {"'=cmd|' /C calc'!A0", table[1][1]}, {"bob", table[2][1]}}
	if len(rows) != len(want) {
		t.Fatalf("CSV rows %q, want %q", rows, want)
	}
	for i := range want {
		if rows[i][0] != want[i][0] || rows[i][1] != want[i][1] {
			t.Errorf("CSV row %d: %q, want %q", i, rows[i], want[i])
		}
	}
	if table[1][0] != "=cmd|' /C calc'!A0" {
		t.Errorf("the table shows %q as it was given", table[1][0])
	}
	// Refused: no token, another site, a bad line (a form not made by the page).
	for name, rec := range map[string]*httptest.ResponseRecorder{
		"no token":   c.do("POST", path+"/links.csv", url.Values{"respondents": {"ann"}, "expires": {"2026-12-01"}}, map[string]string{"Sec-Fetch-Site": "same-origin"}),
		"cross-site": c.do("POST", path+"/links.csv", url.Values{"respondents": {"ann"}, "expires": {"2026-12-01"}, "csrf": {c.token}}, map[string]string{"Sec-Fetch-Site": "cross-site"}),
		"bad line":   c.post(path+"/links.csv", url.Values{"respondents": {".."}, "expires": {"2026-12-01"}}),
	} {
		if rec.Code < 400 || strings.Contains(rec.Body.String(), "/s/") {
			t.Errorf("%s: %d\n%s", name, rec.Code, rec.Body)
		}
	}
	if rec := c.do("POST", path, url.Values{"respondents": {"ann"}, "expires": {"2026-12-01"}, "csrf": {c.token}}, map[string]string{"Origin": "https://evil.example"}); rec.Code != http.StatusForbidden {
		t.Errorf("links from another site's page: %d", rec.Code)
	}
}
