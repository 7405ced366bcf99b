package api_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/internal/api"
)

// npsSurvey is a one-question survey, answered with one click from an e-mail.
const npsSurvey = `{"title":"Quick question","status":"active","questions":[
	{"id":"nps","title":"Would you recommend us?","required":true,"properties":{"type":"rating","scale":10,"display":"nps"}}]}`

// linkSecret makes team A a new link secret over the API.
func (e *env) linkSecret() string {
	e.t.Helper()
	rec := e.manage("POST", "/v1/protected/settings/link-secret", "", e.skA)
	wantStatus(e.t, rec, http.StatusOK, "")
	if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
		e.t.Errorf("Cache-Control %q: a secret shown once is not kept by caches", cc)
	}
	s := decode[struct{ Data struct{ Secret string } }](e.t, rec).Data.Secret
	if len(s) < 40 {
		e.t.Fatalf("secret %q", s)
	}
	return s
}

// page opens a link (a path and query under the handler).
func (e *env) page(link string) *http.Response {
	e.t.Helper()
	rec, _ := e.exchange(req{method: "GET", path: link})
	return rec.Result()
}

func pathOf(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLinkPages(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(npsSurvey)
	secret := e.linkSecret()
	exp := t0.Add(time.Hour)
	link := pathOf(t, client.SignLink(secret, "https://app.example.com", id, "ann@example.com", exp))

	res := e.page(link)
	html := body(t, res)
	if res.StatusCode != http.StatusOK || !strings.Contains(html, `data-survey="`+id+`"`) || !strings.Contains(html, "Quick question") {
		t.Fatalf("signed link: %d\n%s", res.StatusCode, html)
	}
	for name, want := range map[string]string{"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"} {
		if got := res.Header.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP %q", csp)
	}

	other := e.createSurvey(npsSurvey)
	tampered := strings.Replace(link, "ann%40example.com", "bob%40example.com", 1)
	sigFlipped := link[:len(link)-1] + map[bool]string{true: "0", false: "1"}[link[len(link)-1] != '0']
	for name, c := range map[string]struct {
		link   string
		status int
		says   string
	}{
		"another respondent":  {tampered, http.StatusForbidden, "This link is not valid"},
		"a changed signature": {sigFlipped, http.StatusForbidden, "This link is not valid"},
		"another survey":      {strings.Replace(link, id, other, 1), http.StatusForbidden, "This link is not valid"},
		"no signature":        {"/s/" + id + "?r=ann&exp=9999999999", http.StatusForbidden, "This link is not valid"},
		"unsigned":            {"/s/" + id, http.StatusForbidden, "needs a personal link"},
		"an unknown survey":   {"/s/" + e.ids.New(), http.StatusNotFound, "Survey not found"},
		"a malformed id":      {"/s/NOT-AN-ID", http.StatusNotFound, "Survey not found"},
		"another team's":      {strings.Replace(link, id, e.survB.ID, 1), http.StatusForbidden, "not valid"},
		"a question it lacks": {link + "&a.nope=1", http.StatusBadRequest, `no question &#34;nope&#34;`},
		"a score off scale":   {link + "&a.nps=11", http.StatusBadRequest, "not one it takes"},
		"a bad language":      {link + "&lang=x_y", http.StatusBadRequest, "language"},
	} {
		res := e.page(c.link)
		html := body(t, res)
		if res.StatusCode != c.status || !strings.Contains(html, c.says) || strings.Contains(html, "data-survey") {
			t.Errorf("%s: %d, want %d saying %q, and no survey:\n%s", name, res.StatusCode, c.status, c.says, html)
		}
	}

	// Expired: a second past exp.
	e.clock.Advance(time.Hour)
	if res := e.page(link); res.StatusCode != http.StatusForbidden || !strings.Contains(body(t, res), "This link has expired") {
		t.Errorf("expired link: %d", res.StatusCode)
	}
	// The page speaks the browser's language, where the pages speak it.
	for accept, want := range map[string]string{"de-AT,de;q=0.9": `<html lang="de">`, "ar": `<html lang="ar" dir="rtl">`, "ja, fr;q=0.5": `<html lang="fr">`, "ja": `<html lang="en">`} {
		rec, _ := e.exchange(req{method: "GET", path: link, headers: map[string]string{"Accept-Language": accept}})
		if html := rec.Body.String(); !strings.Contains(html, want) {
			t.Errorf("Accept-Language %q: want %s in\n%s", accept, want, html)
		}
	}
	if rec, _ := e.exchange(req{method: "GET", path: link, headers: map[string]string{"Accept-Language": "de"}}); !strings.Contains(rec.Body.String(), "Dieser Link ist abgelaufen") {
		t.Errorf("the German expired page:\n%s", rec.Body)
	}
	e.manage("PATCH", "/v1/protected/surveys/"+id, `{"status":"inactive"}`, e.skA)
	fresh := pathOf(t, client.SignLink(secret, "", id, "ann@example.com", t0.Add(48*time.Hour)))
	if res := e.page(fresh); res.StatusCode != http.StatusNotFound || !strings.Contains(body(t, res), "This survey is closed") {
		t.Errorf("inactive survey: %d", res.StatusCode)
	}
}

// TestLinkOneClick: a link's a.{questionId} answers the question when opened; every link to the
// survey for the person continues one response, which, finished, is not changed again.
func TestLinkOneClick(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(`{"title":"Two questions","status":"active","questions":[
		{"id":"nps","title":"Score?","properties":{"type":"rating","scale":10,"display":"nps"}},
		{"id":"why","title":"Why?","properties":{"type":"open-ended"}}]}`)
	secret := e.linkSecret()
	link := func(exp time.Duration, extra string) string {
		return pathOf(t, client.SignLink(secret, "", id, "ann@example.com", t0.Add(exp))) + extra
	}
	responses := func() []struct {
		ID, Respondent string
		Data           map[string]any
		Finished       bool
	} {
		rec := e.protected("/v1/protected/surveys/" + id + "/responses")
		return decode[struct {
			Data []struct {
				ID, Respondent string
				Data           map[string]any
				Finished       bool
			}
		}](t, rec).Data
	}
	if res := e.page(link(time.Hour, "&a.nps=9")); res.StatusCode != http.StatusOK {
		t.Fatalf("one-click link: %d", res.StatusCode)
	}
	got := responses()
	if len(got) != 1 || got[0].Respondent != "ann@example.com" || got[0].Data["nps"] != 9.0 || got[0].Finished {
		t.Fatalf("after the click: %+v", got)
	}
	// Another link (a reminder, with another expiry) continues the same response.
	res := e.page(link(2*time.Hour, "&a.nps=10"))
	html := body(t, res)
	if got2 := responses(); len(got2) != 1 || got2[0].ID != got[0].ID || got2[0].Data["nps"] != 10.0 {
		t.Fatalf("after a second link: %+v", got2)
	}
	if !strings.Contains(html, `data-response="`+got[0].ID+`"`) || !strings.Contains(html, "&#34;nps&#34;:10") {
		t.Errorf("the page hands the widget its response and answers:\n%s", html)
	}

	// The widget answers with the page's token, as the link's person, in the link's response.
	token := between(html, `data-key="`, `"`)
	put := func(responseID, respondent string) int {
		rec := e.do(req{method: "PUT", path: "/v1/svc/" + id + "/response/" + responseID,
			body:    `{"respondent":"` + respondent + `","data":{"nps":10,"why":"Fast"},"metadata":{},"finished":true,"language":"en"}`,
			headers: map[string]string{"x-svc-pk": token}})
		return rec.Code
	}
	if code := put(got[0].ID, "bob@example.com"); code != http.StatusUnauthorized {
		t.Errorf("PUT as another respondent: %d", code)
	}
	if code := put(e.ids.New(), "ann@example.com"); code != http.StatusUnauthorized {
		t.Errorf("PUT of another response: %d", code)
	}
	rec := e.do(req{method: "GET", path: "/v1/svc/" + e.survA.ID, headers: map[string]string{"x-svc-pk": token}})
	wantStatus(t, rec, http.StatusUnauthorized, "unauthorized")
	for _, bad := range []string{"svc_link_", "svc_link_" + id + ".1.2", "svc_link_" + id + ".9999999999.00.!!", token + strings.Repeat("A", 4000)} {
		rec = e.do(req{method: "GET", path: "/v1/svc/" + id, headers: map[string]string{"x-svc-pk": bad}})
		wantStatus(t, rec, http.StatusUnauthorized, "unauthorized")
	}
	rec = e.do(req{method: "POST", path: "/v1/svc/next-survey", body: `{"respondent":"ann@example.com","url":"https://x.example/"}`, headers: map[string]string{"x-svc-pk": token}})
	wantStatus(t, rec, http.StatusUnauthorized, "unauthorized")
	if code := put(got[0].ID, "ann@example.com"); code != http.StatusOK {
		t.Fatalf("PUT with the page's token: %d", code)
	}
	if got3 := responses(); len(got3) != 1 || !got3[0].Finished || got3[0].Data["why"] != "Fast" {
		t.Fatalf("after the widget's PUT: %+v", got3)
	}
	// Finished: the link says so, and a click changes nothing.
	res = e.page(link(time.Hour, "&a.nps=0"))
	if html := body(t, res); res.StatusCode != http.StatusOK || !strings.Contains(html, "answered this survey already") || strings.Contains(html, "data-survey") {
		t.Errorf("finished link: %d\n%s", res.StatusCode, html)
	}
	if got4 := responses(); got4[0].Data["nps"] != 10.0 {
		t.Errorf("a click on a finished response changed it: %+v", got4)
	}
	// The token dies with the link.
	e.clock.Advance(3 * time.Hour)
	if code := put(got[0].ID, "ann@example.com"); code != http.StatusUnauthorized {
		t.Errorf("PUT with an expired link's token: %d", code)
	}
}

// TestLinkOneQuestionFinishes: one click answers a one-question survey whole.
func TestLinkOneQuestionFinishes(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(npsSurvey)
	link := pathOf(t, client.SignLink(e.linkSecret(), "", id, "ann@example.com", t0.Add(time.Hour))) + "&a.nps=7"
	if res := e.page(link); res.StatusCode != http.StatusOK || !strings.Contains(body(t, res), "answered this survey already") {
		t.Errorf("one-click answer to a one-question survey: %d", res.StatusCode)
	}
	rec := e.protected("/v1/protected/surveys/" + id + "/responses?finished=true")
	if got := decode[struct{ Data []any }](t, rec).Data; len(got) != 1 {
		t.Errorf("finished responses: %v", got)
	}
}

func TestLinkSecretRotation(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(npsSurvey)
	old := e.linkSecret()
	oldLink := pathOf(t, client.SignLink(old, "", id, "ann", t0.Add(72*time.Hour)))
	e.clock.Advance(time.Hour)
	current := e.linkSecret()
	newLink := pathOf(t, client.SignLink(current, "", id, "ann", t0.Add(72*time.Hour)))
	for _, l := range []string{oldLink, newLink} {
		if res := e.page(l); res.StatusCode != http.StatusOK {
			t.Errorf("within 24 hours of the rotation, %s: %d", l, res.StatusCode)
		}
	}
	e.clock.Advance(24 * time.Hour)
	if res := e.page(oldLink); res.StatusCode != http.StatusForbidden {
		t.Errorf("24 hours after the rotation, the old secret's link: %d", res.StatusCode)
	}
	if res := e.page(newLink); res.StatusCode != http.StatusOK {
		t.Errorf("the new secret's link: %d", res.StatusCode)
	}
	// Another team's secret signs nothing of team A's.
	rec := e.manage("POST", "/v1/protected/settings/link-secret", "", e.skB)
	theirs := decode[struct{ Data struct{ Secret string } }](t, rec).Data.Secret
	if res := e.page(pathOf(t, client.SignLink(theirs, "", id, "ann", t0.Add(72*time.Hour)))); res.StatusCode != http.StatusForbidden {
		t.Errorf("team B's signature on team A's survey: %d", res.StatusCode)
	}
	wantStatus(t, e.do(req{method: "POST", path: "/v1/protected/settings/link-secret", headers: map[string]string{"x-svc-pk": e.pkA}}), http.StatusUnauthorized, "unauthorized")
}

func TestLinkAnonymous(t *testing.T) {
	e := setup(t)
	id := e.createSurvey(strings.Replace(npsSurvey, `"status":"active",`, `"status":"active","link":{"anonymous":true},`, 1))
	res := e.page("/s/" + id + "?a.nps=8")
	html := body(t, res)
	if res.StatusCode != http.StatusOK || !strings.Contains(html, `data-respondent=""`) || !strings.Contains(html, "&#34;nps&#34;:8") {
		t.Fatalf("anonymous page: %d\n%s", res.StatusCode, html)
	}
	token := between(html, `data-key="`, `"`)
	put := func(respondent string) int {
		return e.do(req{method: "PUT", path: "/v1/svc/" + id + "/response/" + e.ids.New(),
			body: `{"respondent":"` + respondent + `","data":{"nps":8},"metadata":{}}`, headers: map[string]string{"x-svc-pk": token}}).Code
	}
	if code := put("anonymous-2f1c0b7e-8f7a-4bde-9a53-0a1b2c3d4e5f"); code != http.StatusOK {
		t.Errorf("anonymous PUT: %d", code)
	}
	if code := put("ann@example.com"); code != http.StatusUnauthorized {
		t.Errorf("an anonymous page writing as a known person: %d", code)
	}
	// Made personal-only again, the page and its token stop.
	e.manage("PATCH", "/v1/protected/surveys/"+id, `{"link":null}`, e.skA)
	if res := e.page("/s/" + id); res.StatusCode != http.StatusForbidden {
		t.Errorf("unsigned page of a survey no longer anonymous: %d", res.StatusCode)
	}
	if code := put("anonymous-x"); code != http.StatusUnauthorized {
		t.Errorf("anonymous token of a survey no longer anonymous: %d", code)
	}
}

func between(s, start, end string) string {
	_, after, _ := strings.Cut(s, start)
	v, _, _ := strings.Cut(after, end)
	return v
}

// TestLinkPageLimits: a HEAD (a mail scanner's) answers nothing, and a flood of opens from one
// client is refused with a page, as the widget's calls are.
func TestLinkPageLimits(t *testing.T) {
	e := setup(t, func(o *api.Config) { o.RateLimit = &api.RateLimit{PerSecond: 1, Burst: 2} })
	id := e.createSurvey(npsSurvey)
	link := pathOf(t, client.SignLink(e.linkSecret(), "", id, "ann", t0.Add(time.Hour))) + "&a.nps=3"
	rec, _ := e.exchange(req{method: "HEAD", path: link})
	if rec.Code != http.StatusOK {
		t.Fatalf("HEAD: %d", rec.Code)
	}
	if got := decode[struct{ Data []any }](t, e.protected("/v1/protected/surveys/"+id+"/responses")).Data; len(got) != 0 {
		t.Errorf("a HEAD answered the survey: %v", got)
	}
	e.page(link)
	res := e.page(link)
	if html := body(t, res); res.StatusCode != http.StatusTooManyRequests || !strings.Contains(html, "Too many requests") {
		t.Errorf("the third open within a second: %d", res.StatusCode)
	}
}
