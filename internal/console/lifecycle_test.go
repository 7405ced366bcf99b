package console_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// lcConsole is team a's console at the test's clock.
func lcConsole(e *env) *console.Results {
	return console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("a lifecycle test's key"))
}

// lcGet gets a page of the console.
func lcGet(t *testing.T, c http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	r.Host = "localhost:8080"
	rec := httptest.NewRecorder()
	c.ServeHTTP(rec, r)
	return rec
}

// lcPressOnly posts the editor's form with a button, without following the redirect.
func lcPressOnly(ed *editor, action string) *httptest.ResponseRecorder {
	ed.t.Helper()
	ed.form.Set("action", action)
	rec := send(ed.c, "POST", ed.path, ed.form, map[string]string{"Sec-Fetch-Site": "same-origin"})
	return rec
}

func lcStored(t *testing.T, e *env, id string) store.Survey {
	t.Helper()
	sv, err := e.store.Survey(t.Context(), "a", id)
	if err != nil {
		t.Fatal(err)
	}
	return sv
}

// lcNew makes an inactive survey of team a.
func lcNew(t *testing.T, e *env, def survey.Definition) store.Survey {
	t.Helper()
	sv := store.Survey{ID: e.ids.New(), TeamID: "a", Status: store.StatusInactive, Definition: def, CreatedAt: e.clock.Now(), UpdatedAt: e.clock.Now()}
	if err := e.store.CreateSurvey(t.Context(), sv); err != nil {
		t.Fatal(err)
	}
	return sv
}

// TestEditorPublishAndPause: Publish in the editor saves the form's edits through Save's checks
// and publishes in the same change, and the notice says how the survey is shown; an edit that
// cannot be saved publishes nothing; Pause pauses at once, keeping the form's edits unsaved, and
// a save after it keeps the pause.
func TestEditorPublishAndPause(t *testing.T) {
	e := setup(t)
	c := lcConsole(e)
	sv := lcNew(t, e, survey.Sample())
	ed := &editor{t: t, c: c, path: "/surveys/" + sv.ID + "/edit"}
	ed.load()
	if body := ed.last.Body.String(); !strings.Contains(body, `<button type="submit" name="action" value="publish">Publish</button>`) || strings.Contains(body, `value="pause"`) {
		t.Fatalf("an inactive survey's editor offers no Publish:\n%s", body)
	}

	// Cannot be saved: not published.
	ed.form.Set("title", "")
	ed.form.Set("q4.maxLength", "many")
	if rec := lcPressOnly(ed, "publish"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "Not published: ") ||
		lcStored(t, e, sv.ID).Status != store.StatusInactive {
		t.Fatalf("an invalid survey published: %d\n%s", rec.Code, rec.Body)
	}

	// Edited and published at once.
	ed.form.Set("q4.maxLength", "300")
	ed.form.Set("title", "Published from the editor")
	e.clock.Advance(time.Second)
	rec := lcPressOnly(ed, "publish")
	got := lcStored(t, e, sv.ID)
	if rec.Code != http.StatusSeeOther || got.Status != store.StatusActive || got.Title != "Published from the editor" {
		t.Fatalf("publish: %d, %s %q\n%s", rec.Code, got.Status, got.Title, rec.Body)
	}
	page := lcGet(t, c, "/surveys/"+sv.ID+"/"+rec.Header().Get("Location")).Body.String()
	if !strings.Contains(page, "<p>Published. It has no display rules: it shows only where your app calls Svc.show.</p>") || !strings.Contains(page, "<p>Saved.</p>") ||
		!strings.Contains(page, `value="pause">Pause</button>`) {
		t.Errorf("after Publish:\n%s", page)
	}

	// Pause keeps what was typed, unsaved; the save after it keeps the survey paused.
	ed.load()
	ed.form.Set("title", "Typed, then paused")
	e.clock.Advance(time.Second)
	rec = lcPressOnly(ed, "pause")
	if rec.Code != http.StatusOK || lcStored(t, e, sv.ID).Status != store.StatusInactive || !strings.Contains(rec.Body.String(), "Paused: svc no longer shows it") {
		t.Fatalf("pause: %d %s", rec.Code, lcStored(t, e, sv.ID).Status)
	}
	ed.read(rec)
	if ed.form.Get("title") != "Typed, then paused" || lcStored(t, e, sv.ID).Title != "Published from the editor" {
		t.Errorf("the pause lost or saved the edits: %q, stored %q", ed.form.Get("title"), lcStored(t, e, sv.ID).Title)
	}
	e.clock.Advance(time.Second)
	if rec := ed.press("save"); rec.Code != http.StatusSeeOther {
		t.Fatalf("save after pausing: %d\n%s", rec.Code, ed.last.Body)
	}
	if got := lcStored(t, e, sv.ID); got.Title != "Typed, then paused" || got.Status != store.StatusInactive {
		t.Errorf("after saving: %q %s", got.Title, got.Status)
	}

	// With display rules, and a link page anyone may answer: said so.
	def := survey.Sample()
	def.Display = &survey.Display{URLs: []survey.URLRule{{Match: survey.MatchPrefix, Value: "/docs"}}}
	def.Link = &survey.Link{Anonymous: true}
	ruled := lcNew(t, e, def)
	ed = &editor{t: t, c: c, path: "/surveys/" + ruled.ID + "/edit"}
	ed.load()
	e.clock.Advance(time.Second)
	rec = lcPressOnly(ed, "publish")
	page = lcGet(t, c, "/surveys/"+ruled.ID+"/"+rec.Header().Get("Location")).Body.String()
	if !strings.Contains(page, "Published. svc shows it by itself to the people and on the pages its display rules name, and it can be answered through its link.") {
		t.Errorf("after publishing a survey with rules and a link:\n%s", page)
	}
}

// TestListTable: the list is a table of each survey's title, status, how it is shown, responses,
// latest response and NPS, sorted by the column a header's link names, the sorted one marked
// with aria-sort; its actions work from it; the team's link secret makes every survey "link".
func TestListTable(t *testing.T) {
	e := setup(t)
	c := lcConsole(e)
	// survA (the sample, active, an NPS question): three responses. A ruled survey: one.
	e.putResponse(e.survA.ID, "rlist00000000000000001", "ann", `{"nps":10}`)
	e.putResponse(e.survA.ID, "rlist00000000000000002", "bob", `{"nps":9}`)
	e.putResponse(e.survA.ID, "rlist00000000000000003", "cat", `{"nps":3}`)
	def := survey.Sample()
	def.Title, def.Display = "A ruled one", &survey.Display{Events: []string{"upgraded"}}
	e.clock.Advance(time.Minute)
	ruled := lcNew(t, e, def)
	e.putResponse(ruled.ID, "rlist00000000000000004", "dan", `{"nps":0}`)
	def = survey.Sample()
	def.Title = "Zebra, never answered"
	e.clock.Advance(time.Minute)
	quiet := lcNew(t, e, def)

	rows := func(body string) []string {
		var out []string
		for _, m := range regexp.MustCompile(`<th scope="row"><a href="surveys/([^"]+)">`).FindAllStringSubmatch(body, -1) {
			out = append(out, m[1])
		}
		return out
	}
	body := lcGet(t, c, "/").Body.String()
	for _, want := range []string{
		`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="surveys-caption">`,
		`<th scope="col"><a href="?order=asc&amp;sort=title">Title</a></th>`, `>Status</a></th>`, `>How it is shown</a></th>`,
		`>Responses</a></th>`, `>Last response</a></th>`, `>NPS</a></th>`, `<th scope="col">Actions</th>`,
		"<td>published</td>\n<td>your app</td>\n<td>3 <span class=\"status\">(0 finished)</span></td>\n<td>21 Nov 2026 10:04 UTC</td>\n<td>33.3</td>",
		"<td>paused</td>\n<td>rules</td>\n<td>1 <span class=\"status\">(0 finished)</span></td>",
		`value="active"><button type="submit">Publish</button>`, `value="inactive"><button type="submit">Pause</button>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the list has no %q\n%s", want, body)
		}
	}
	if strings.Contains(body, "aria-sort") {
		t.Error("unsorted, a header says it is sorted")
	}
	for _, tt := range []struct {
		query, header string
		want          []string
	}{
		{"sort=responses&order=desc", `<th scope="col" aria-sort="descending"><a href="?order=asc&amp;sort=responses">Responses</a>`, []string{e.survA.ID, ruled.ID, quiet.ID}},
		{"sort=responses&order=asc", `aria-sort="ascending"><a href="?order=desc&amp;sort=responses">`, []string{quiet.ID, ruled.ID, e.survA.ID}},
		{"sort=title", `aria-sort="ascending"><a href="?order=desc&amp;sort=title">Title`, []string{ruled.ID, e.survA.ID, quiet.ID}},
		{"sort=nps&order=desc", `aria-sort="descending"><a href="?order=asc&amp;sort=nps">NPS`, []string{e.survA.ID, ruled.ID, quiet.ID}},
		{"sort=nps&order=asc", `aria-sort="ascending"`, []string{ruled.ID, e.survA.ID, quiet.ID}}, // none last, either way
		{"sort=latest&order=desc", `aria-sort="descending"`, []string{ruled.ID, e.survA.ID, quiet.ID}},
		{"sort=status", `aria-sort="ascending"`, []string{quiet.ID, ruled.ID, e.survA.ID}}, // ties keep the newest first
		{"sort=shown&order=desc", `aria-sort="descending"`, []string{quiet.ID, e.survA.ID, ruled.ID}},
		{"sort=nonsense", `<caption id="surveys-caption">The team’s surveys</caption>`, []string{quiet.ID, ruled.ID, e.survA.ID}},
	} {
		body := lcGet(t, c, "/?"+tt.query).Body.String()
		if got := rows(body); !strings.Contains(body, tt.header) || strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("?%s: rows %v, want %v, header %q in\n%s", tt.query, got, tt.want, tt.header, body)
		}
	}
	if body := lcGet(t, c, "/?sort=responses&order=desc").Body.String(); !strings.Contains(body, "sorted by responses, descending</caption>") {
		t.Error("the caption does not say how the table is sorted")
	}

	// The team's link secret: every survey can be answered through a link.
	if _, err := e.store.RotateLinkSecret(t.Context(), "a", store.NewLinkSecret(), e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if body := lcGet(t, c, "/").Body.String(); !strings.Contains(body, "<td>rules, link</td>") || !strings.Contains(body, "<td>your app, link</td>") {
		t.Errorf("with a link secret:\n%s", body)
	}
	// The read-only pages show the table without actions.
	if body := e.resultsGetter()("/?sort=title").Body.String(); strings.Contains(body, "Actions") || !strings.Contains(body, `aria-sort="ascending"`) {
		t.Errorf("the results pages' list:\n%s", body)
	}
}

// TestCheckWhoSeesIt: the check answers as POST /v1/svc/next-survey decides, with the reason
// code and a sentence, and records nothing; it needs the console's own page and token.
func TestCheckWhoSeesIt(t *testing.T) {
	e := setup(t)
	c := lcConsole(e)
	def := survey.Sample()
	def.Title = "Docs for pros"
	def.Display = &survey.Display{URLs: []survey.URLRule{{Match: survey.MatchPrefix, Value: "/docs"}},
		Attributes: []survey.AttributeRule{{Key: "plan", Operator: survey.OpEqual, Value: "pro"}}, Recontact: survey.RecontactOnce, DelaySeconds: 3}
	docs := lcNew(t, e, def)
	if _, err := store.ModifySurvey(t.Context(), e.store, "a", docs.ID, func(sv *store.Survey) error { sv.Status = store.StatusActive; return nil }); err != nil {
		t.Fatal(err)
	}
	path := "/surveys/" + e.survA.ID + "/who-sees-it"
	page := lcGet(t, c, path)
	if page.Code != 200 || !strings.Contains(page.Body.String(), `<label for="respondent">Respondent</label>`) || !strings.Contains(page.Body.String(), `<label for="page-url">Page URL</label>`) ||
		!strings.Contains(page.Body.String(), `<label for="attributes">Attributes, key=value a line</label>`) || !strings.Contains(page.Body.String(), `<button type="submit">Check who sees it</button>`) {
		t.Fatalf("the check's page: %d\n%s", page.Code, page.Body)
	}
	if !strings.Contains(lcGet(t, c, "/surveys/"+e.survA.ID+"/edit").Body.String(), `<a href="who-sees-it">Check who sees it</a>`) {
		t.Error("the editor does not link to the check")
	}
	token := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(page.Body.String())[1]
	check := func(form url.Values, headers map[string]string) *httptest.ResponseRecorder {
		t.Helper()
		return send(c, "POST", path, form, headers)
	}
	same := map[string]string{"Sec-Fetch-Site": "same-origin"}
	for _, tt := range []struct {
		respondent, url, attributes, want string
	}{
		{"ann", "https://app.example.com/docs/start", "plan=pro\nseats = 12", `Shown: <a href="../` + docs.ID + `/edit">Docs for pros</a>, after 3 seconds.`},
		{"ann", "/docs", "plan=pro", `Shown: <a href="../` + docs.ID + `/edit">Docs for pros</a>`},
		{"ann", "https://app.example.com/billing", "plan=pro", "Reason: <code>url</code>. No published survey&#39;s page rules let this page through."},
		{"ann", "/docs/start", "plan=free", "Reason: <code>attributes</code>."},
		{"ann", "/docs/start", "", "Reason: <code>attributes</code>."},
	} {
		rec := check(url.Values{"csrf": {token}, "respondent": {tt.respondent}, "url": {tt.url}, "attributes": {tt.attributes}}, same)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("%s on %s with %q: %d, want %q\n%s", tt.respondent, tt.url, tt.attributes, rec.Code, tt.want, rec.Body)
		}
	}
	if body := check(url.Values{"csrf": {token}, "respondent": {"ann"}, "url": {"/docs"}, "attributes": {"plan=pro"}}, same).Body.String(); !strings.Contains(body, "Not this survey") {
		t.Error("the check does not say the survey shown is another one")
	}
	// Nothing recorded: a survey shown once is still shown.
	if st, _ := e.store.Stats(t.Context(), docs.ID); st.TotalViews != 0 {
		t.Errorf("the check recorded %d views", st.TotalViews)
	}
	// Once seen, as the API decides: the reason is recontact.
	e.view(docs.ID, "ann")
	if body := check(url.Values{"csrf": {token}, "respondent": {"ann"}, "url": {"/docs"}, "attributes": {"plan=pro"}}, same).Body.String(); !strings.Contains(body, "Reason: <code>recontact</code>.") {
		t.Errorf("after a view:\n%s", body)
	}
	// Paused: none with rules is published.
	if _, err := store.ModifySurvey(t.Context(), e.store, "a", docs.ID, func(sv *store.Survey) error { sv.Status = store.StatusInactive; return nil }); err != nil {
		t.Fatal(err)
	}
	if body := check(url.Values{"csrf": {token}, "respondent": {"bob"}, "url": {"/docs"}}, same).Body.String(); !strings.Contains(body, "Reason: <code>no-survey</code>.") {
		t.Errorf("no survey with rules:\n%s", body)
	}
	for _, tt := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"csrf": {token}, "respondent": {""}, "url": {"/docs"}}, "The respondent is the id your app gives the person"},
		{url.Values{"csrf": {token}, "respondent": {"ann"}, "url": {""}}, "The page URL is the page&#39;s address"},
		{url.Values{"csrf": {token}, "respondent": {"ann"}, "url": {"/"}, "attributes": {"plan pro"}}, "“plan pro” is not one"},
	} {
		if rec := check(tt.form, same); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tt.want) || !strings.Contains(rec.Body.String(), `role="alert"`) {
			t.Errorf("%v: %d\n%s", tt.form, rec.Code, rec.Body)
		}
	}
	if rec := check(url.Values{"csrf": {token}, "respondent": {"ann"}, "url": {"/docs"}}, map[string]string{"Sec-Fetch-Site": "cross-site"}); rec.Code != http.StatusForbidden {
		t.Errorf("another site's check: %d", rec.Code)
	}
	if rec := check(url.Values{"respondent": {"ann"}, "url": {"/docs"}}, same); rec.Code != http.StatusForbidden {
		t.Errorf("a check without the token: %d", rec.Code)
	}
}
