package console_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/store"
)

// TestConsoleChanges: a survey made from a template, published, paused, duplicated and deleted
// through the console's forms; and every change refused that does not come from its own page
// with its token. The read-only results pages take no change.
func TestConsoleChanges(t *testing.T) {
	e := setup(t)
	c := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("a key of the test's own, 32 bytes"))
	do := func(method, path string, form url.Values, headers map[string]string) *httptest.ResponseRecorder {
		t.Helper()
		return send(c, method, path, form, headers)
	}
	list := do("GET", "/", nil, nil).Body.String()
	m := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(list)
	if m == nil || !strings.Contains(list, `<button type="submit">New survey</button>`) {
		t.Fatalf("the list has no New survey form:\n%s", list)
	}
	token := m[1]
	own := map[string]string{"Sec-Fetch-Site": "same-origin"}
	post := func(path string, form url.Values) *httptest.ResponseRecorder {
		t.Helper()
		form.Set("csrf", token)
		return do("POST", path, form, own)
	}

	rec := post("/surveys", url.Values{"template": {"nps"}})
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "surveys/") {
		t.Fatalf("new survey: %d %q %s", rec.Code, loc, rec.Body)
	}
	id := strings.TrimSuffix(strings.TrimPrefix(loc, "surveys/"), "/edit")
	sv, err := e.store.Survey(t.Context(), "a", id)
	if err != nil || sv.Status != store.StatusInactive || sv.Title != "How likely are you to recommend us?" || len(sv.Questions) != 2 {
		t.Fatalf("the new survey: %+v, %v", sv, err)
	}
	status := func(want store.Status) {
		t.Helper()
		if got, _ := e.store.Survey(t.Context(), "a", id); got.Status != want {
			t.Errorf("status %s, want %s", got.Status, want)
		}
	}
	if rec := post("/surveys/"+id+"/status", url.Values{"status": {"active"}}); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "../../" {
		t.Errorf("publish: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	status(store.StatusActive)
	if !strings.Contains(do("GET", "/", nil, nil).Body.String(), `value="inactive"><button type="submit">Pause</button>`) {
		t.Error("a published survey offers no Pause")
	}
	post("/surveys/"+id+"/status", url.Values{"status": {"inactive"}})
	status(store.StatusInactive)
	rec = post("/surveys/"+id+"/duplicate", url.Values{})
	copyID := strings.TrimPrefix(rec.Header().Get("Location"), "../")
	if cp, err := e.store.Survey(t.Context(), "a", copyID); err != nil || cp.Title != sv.Title+" (copy)" || cp.Status != store.StatusInactive {
		t.Errorf("the duplicate: %+v, %v", cp, err)
	}
	if page := do("GET", "/surveys/"+id+"/delete", nil, nil); page.Code != 200 || !strings.Contains(page.Body.String(), "Delete survey</button>") {
		t.Errorf("the delete confirmation: %d", page.Code)
	}
	post("/surveys/"+id+"/delete", url.Values{})
	if _, err := e.store.Survey(t.Context(), "a", id); err == nil {
		if got, _ := e.store.Survey(t.Context(), "a", id); got.Status != store.StatusDeleted {
			t.Errorf("after delete: %s", got.Status)
		}
	}

	// Refused: another site's page, no word of the page's origin, a foreign Origin, no or a
	// wrong token; and a template or status that does not exist.
	before := len(surveysOf(t, e.store))
	for name, tc := range map[string]struct {
		form    url.Values
		headers map[string]string
		want    int
	}{
		"cross-site":     {url.Values{"csrf": {token}, "template": {"nps"}}, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		"no origin":      {url.Values{"csrf": {token}, "template": {"nps"}}, nil, 403},
		"foreign origin": {url.Values{"csrf": {token}, "template": {"nps"}}, map[string]string{"Origin": "https://evil.example"}, 403},
		"no token":       {url.Values{"template": {"nps"}}, own, 403},
		"wrong token":    {url.Values{"csrf": {strings.Repeat("0", len(token))}, "template": {"nps"}}, map[string]string{"Origin": "http://localhost:8080"}, 403},
		"no template":    {url.Values{"csrf": {token}, "template": {"poll"}}, own, 400},
	} {
		if rec := do("POST", "/surveys", tc.form, tc.headers); rec.Code != tc.want {
			t.Errorf("%s: %d, want %d", name, rec.Code, tc.want)
		}
	}
	for _, other := range []string{e.survB.ID, id} { // another team's, and the one deleted above
		if rec := post("/surveys/"+other+"/status", url.Values{"status": {"active"}}); rec.Code != 404 {
			t.Errorf("publishing %s: %d, want 404", other, rec.Code)
		}
	}
	if rec := post("/surveys/"+copyID+"/status", url.Values{"status": {"deleted"}}); rec.Code != 400 {
		t.Errorf("a status other than active or inactive: %d", rec.Code)
	}
	if after := len(surveysOf(t, e.store)); after != before {
		t.Errorf("refused changes made surveys: %d, then %d", before, after)
	}
	// The same origin without Sec-Fetch-Site (an older browser) is let through.
	if rec := do("POST", "/surveys", url.Values{"csrf": {token}, "template": {"blank"}}, map[string]string{"Origin": "http://localhost:8080"}); rec.Code != http.StatusSeeOther {
		t.Errorf("same origin by Origin: %d", rec.Code)
	}
	// The results pages alone take no change, and show no form of one.
	rs := console.NewResults(e.store, "a", console.Config{Now: e.clock.Now})
	r := httptest.NewRequest("POST", "/surveys", strings.NewReader("template=nps&csrf="+token))
	r.Host, r.Header["Sec-Fetch-Site"] = "localhost:8080", []string{"same-origin"}
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec = httptest.NewRecorder()
	rs.ServeHTTP(rec, r)
	if rec.Code != 404 {
		t.Errorf("a change through the results pages: %d", rec.Code)
	}
}

// surveysOf lists team a's surveys.
func surveysOf(t *testing.T, st store.Store) []store.Survey {
	page, _, err := st.Surveys(t.Context(), "a", nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	return page
}
