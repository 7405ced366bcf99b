package console_test

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/store"
)

// A filter that is one segment's values says how many responses it reads and offers to declare
// the segment; declared, the filter is read from the segment's counts once svc has counted the
// stored responses, and the page says so. The results pages without the console offer nothing.
func TestDeclareSegmentFromAFilter(t *testing.T) {
	e := setup(t)
	for i, who := range []string{"ann", "bob", "cy"} {
		e.putResponse(e.survA.ID, "rdeclare00000000000000"+string(rune('a'+i)), who, `{"nps":9}`)
	}
	e.clock.Advance(time.Minute)
	c := console.NewConsole(e.store, "a", console.Config{Now: e.clock.Now}, []byte("a declare test's form key"))
	page := "/surveys/" + e.survA.ID + "?timeRange=last-7-days&metadata.k=v"
	body := send(c, "GET", page, nil, nil).Body.String()
	if !strings.Contains(body, "This filter reads each of the period’s 3 responses.") ||
		!strings.Contains(body, `<button type="submit">Declare the segment metadata.k</button>`) {
		t.Fatalf("the page neither says what the filter reads nor offers the segment:\n%s", body)
	}
	if results := e.resultsGetter()(page).Body.String(); strings.Contains(results, "Declare the segment") {
		t.Error("the read-only results pages offer to declare a segment")
	}
	token := regexpFind(t, body, `name="csrf" value="([^"]+)"`)
	form := url.Values{"csrf": {token}, "segment": {"metadata.k"}, "back": {"timeRange=last-7-days&metadata.k=v&cursor=x"}}
	rec := send(c, "POST", "/surveys/"+e.survA.ID+"/segments", form, map[string]string{"Sec-Fetch-Site": "same-origin"})
	if want := "../" + e.survA.ID + "?declared=1&metadata.k=v&timeRange=last-7-days"; rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != want {
		t.Fatalf("declare: %d, Location %q, want %q\n%s", rec.Code, rec.Header().Get("Location"), want, rec.Body)
	}
	settings, err := e.store.Settings(t.Context(), "a")
	if err != nil || !slices.Equal(settings.Segments, []string{"metadata.k"}) {
		t.Fatalf("segments after declaring: %q, %v", settings.Segments, err)
	}
	body = send(c, "GET", page+"&declared=1", nil, nil).Body.String()
	if !strings.Contains(body, "Segment declared") || !strings.Contains(body, "while svc counts the stored responses under the segment “metadata.k” (0 of 3 so far)") ||
		strings.Contains(body, "Declare the segment") {
		t.Fatalf("after declaring, the page does not say the fill is under way:\n%s", body)
	}
	for {
		p, err := e.store.FillSegments(t.Context(), "a", 100)
		if err != nil {
			t.Fatal(err)
		}
		if p.State != store.FillFilling {
			break
		}
	}
	if body = send(c, "GET", page, nil, nil).Body.String(); !strings.Contains(body, "Read from the counts svc keeps for the segment “metadata.k”.") {
		t.Fatalf("once counted, the page does not say it reads the segment's counts:\n%s", body)
	}
	form.Set("segment", "metadata.")
	if rec := send(c, "POST", "/surveys/"+e.survA.ID+"/segments", form, map[string]string{"Sec-Fetch-Site": "same-origin"}); rec.Code != http.StatusBadRequest {
		t.Errorf("a segment with no key: %d, want 400", rec.Code)
	}
}

// regexpFind returns the first group of pattern's first match in s.
func regexpFind(t *testing.T, s, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no %s in the page", pattern)
	}
	return m[1]
}
