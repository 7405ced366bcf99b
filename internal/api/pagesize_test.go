package api_test

import (
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/internal/api"
)

// A page of responses is bounded by size as well as count: twelve responses with 2 MiB
// screenshots come in pages that end early past MaxPageBytes (4 MiB by default), and walking
// the cursor gives every response once. It prints what each page allocated
// (go test -v -run TestPagesAreBoundedBySize ./handler).
func TestPagesAreBoundedBySize(t *testing.T) {
	e := setup(t)
	shot := "data:image/png;base64," + strings.Repeat("AAAA", (2<<20)/4)
	want := map[string]bool{}
	for range 12 {
		id := e.ids.New()
		body := `{"respondent":"ann","metadata":{},"data":{"bug":{"title":"t","metadata":"m","screenshotDataUrl":"` + shot + `"}}}`
		wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+id, body), 200, "")
		want[id] = true
	}
	type item struct{ ID string }
	type pageReply struct {
		Data       []item
		NextCursor *string
	}
	path := "/v1/protected/surveys/" + e.survA.ID + "/responses?limit=100"
	seen, pages := 0, 0
	for {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rec := e.serve(req{method: "GET", path: path, headers: map[string]string{"Authorization": "Bearer " + e.skA}})
		runtime.ReadMemStats(&after)
		wantStatus(t, rec, 200, "")
		p := decode[pageReply](t, rec)
		pages++
		t.Logf("page %d: %d responses, %.1f MiB of JSON, %.1f MiB allocated", pages, len(p.Data), float64(rec.Body.Len())/(1<<20),
			float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
		if rec.Body.Len() > api.DefaultMaxPageBytes+3<<20 {
			t.Errorf("page %d is %d bytes, past the budget by more than one response", pages, rec.Body.Len())
		}
		for _, it := range p.Data {
			if !want[it.ID] {
				t.Fatalf("response %s listed twice or unknown", it.ID)
			}
			delete(want, it.ID)
			seen++
		}
		if p.NextCursor == nil {
			break
		}
		path = "/v1/protected/surveys/" + e.survA.ID + "/responses?limit=100&cursor=" + url.QueryEscape(*p.NextCursor)
	}
	if seen != 12 || pages < 6 {
		t.Errorf("walked %d responses in %d pages; want all 12, in pages of at most 2", seen, pages)
	}
}
