package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
)

// A team's segments are a list of metadata.{key}, language, hidden.{name} and
// answer.{questionId}; anything else is a 400 naming the member at fault.
func TestSettingsSegmentsRefusals(t *testing.T) {
	e := setup(t)
	many := make([]string, store.MaxSegments+1)
	for i := range many {
		many[i] = fmt.Sprintf(`"metadata.k%d"`, i)
	}
	for body, want := range map[string]string{
		`{"segments":"language"}`:                        "segments must be an array of strings, not a JSON string",
		`{"segments":{"language":1}}`:                    "segments must be an array of strings, not a JSON object",
		`{"segments":[7]}`:                               "segments[0] must be a string, not a JSON number",
		`{"segments":["language",null]}`:                 "segments[1] must be a string, not null",
		`{"segments":["language","language"]}`:           `segments[1]: "language" is declared twice (segments[0])`,
		`{"segments":["plan"]}`:                          `segments[0]: "plan" is not a segment: declare metadata.{key}, language, hidden.{name} or answer.{questionId}`,
		`{"segments":["Language"]}`:                      `segments[0]: "Language" is not a segment: declare metadata.{key}, language, hidden.{name} or answer.{questionId}`,
		`{"segments":["language","metadata."]}`:          `segments[1]: "metadata." names nothing after the dot: write metadata.{key}`,
		`{"segments":["answer."]}`:                       `segments[0]: "answer." names nothing after the dot: write answer.{questionId}`,
		`{"segments":["metadata.a\u0007b"]}`:             `segments[0]: the name after "metadata." holds a control character or invalid UTF-8`,
		`{"segments":[` + strings.Join(many, ",") + `]}`: "segments: at most 20 segments",
		`{"Segments":[]}`:                                `member names are case-sensitive: "Segments" should be "segments"`,
	} {
		rec := e.manage("PATCH", "/v1/protected/settings", body, e.skA)
		wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
		if msg := errorMessage(t, rec); msg != want {
			t.Errorf("%s: %q, want %q", body, msg, want)
		}
	}
	if got := e.manage("GET", "/v1/protected/settings", "", e.skA).Body.String(); got != defaultSettings {
		t.Errorf("settings after refusals: %s", got)
	}
}

// settingsJSON is the settings as the API shows them.
type settingsJSON struct {
	CooldownDays int      `json:"cooldownDays"`
	Segments     []string `json:"segments"`
	SegmentsFill struct {
		State       string
		Done, Total int64
	} `json:"segmentsFill"`
}

func (e *env) settings(method, body string) settingsJSON {
	e.t.Helper()
	rec := e.manage(method, "/v1/protected/settings", body, e.skA)
	wantStatus(e.t, rec, http.StatusOK, "")
	var st settingsJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		e.t.Fatal(err)
	}
	return st
}

// fillSegments runs team A's fill until it is complete.
func (e *env) fillSegments() {
	e.t.Helper()
	for range 100 {
		p, err := e.store.(store.SegmentCounter).FillSegments(e.t.Context(), "a", 1000)
		if err != nil {
			e.t.Fatal(err)
		}
		if p.State != store.FillFilling {
			return
		}
	}
	e.t.Fatal("the fill never completes")
}

// Declared segments are kept in order, null clears them, and the fill's progress shows until
// the responses stored before are counted.
func TestSettingsSegmentsFill(t *testing.T) {
	e := setup(t)
	for i := range 12 {
		e.putResponse(e.survA.ID, e.ids.New(), fmt.Sprint("r", i), fmt.Sprintf(`{"nps":%d}`, i%11))
	}
	st := e.settings("PATCH", `{"segments":["metadata.k","answer.favourite","hidden.campaign"]}`)
	if strings.Join(st.Segments, ",") != "metadata.k,answer.favourite,hidden.campaign" || st.SegmentsFill.State != "filling" ||
		st.SegmentsFill.Total != 12 || st.SegmentsFill.Done != 0 {
		t.Fatalf("settings once declared: %+v", st)
	}
	e.fillSegments()
	if st = e.settings("GET", ""); st.SegmentsFill.State != "complete" || st.SegmentsFill.Done != 12 || st.CooldownDays != 0 {
		t.Errorf("settings once filled: %+v", st)
	}
	if st = e.settings("PATCH", `{"cooldownDays":2}`); len(st.Segments) != 3 || st.SegmentsFill.State != "complete" {
		t.Errorf("a change of the cooldown alone kept the segments and their counts: %+v", st)
	}
	if st = e.settings("PATCH", `{"segments":null}`); len(st.Segments) != 0 || st.SegmentsFill.State != "none" || st.CooldownDays != 2 {
		t.Errorf("settings once segments are cleared: %+v", st)
	}
}

// A summary, stats and trends filtered by values of a declared segment answer, once its counts
// are complete, what the same filter answers from the responses, for any time range.
func TestSegmentReadsMatchResponses(t *testing.T) {
	e := setup(t)
	plans := []string{"pro", "free", "team"}
	for i := range 80 {
		e.clock.Set(t0.Add(-time.Duration(i) * 97 * time.Minute))
		data := fmt.Sprintf(`{"nps":%d,"favourite":%q,"comments":"note %d"}`, i%11, []string{"Reports", "Alerts", "anything"}[i%3], i)
		rec := e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(),
			fmt.Sprintf(`{"respondent":"r%d","data":%s,"metadata":{"plan":%q},"finished":%t}`, i%13, data, plans[i%3], i%2 == 0))
		wantStatus(t, rec, http.StatusOK, "")
	}
	e.clock.Set(t0)
	base := "/v1/protected/surveys/" + e.survA.ID
	queries := []string{
		"/summary?metadata.plan=pro", "/summary?metadata.plan=pro&metadata.plan=team&timeRange=last-7-days", "/summary?answer.favourite=Alerts",
		"/summary?answer.nps=3&answer.nps=7.0", "/stats?metadata.plan=free&timeRange=last-30-days", "/stats?answer.favourite=Reports",
		"/trends?metadata.plan=team&timeRange=last-30-days&interval=day", "/summary?metadata.plan=nobody",
	}
	read := func() map[string]string {
		out := map[string]string{}
		for _, q := range queries {
			rec := e.manage("GET", base+q, "", e.skA)
			wantStatus(t, rec, http.StatusOK, "")
			out[q] = rec.Body.String()
		}
		return out
	}
	adHoc := read()
	e.settings("PATCH", `{"segments":["metadata.plan","answer.favourite","answer.nps"]}`)
	if got := read(); fmt.Sprint(got) != fmt.Sprint(adHoc) {
		t.Errorf("while filling, a segment read differs from the responses' read")
	}
	e.fillSegments()
	got := read()
	for _, q := range queries {
		if got[q] != adHoc[q] {
			t.Errorf("%s from the segment counts:\n%s\nfrom the responses:\n%s", q, got[q], adHoc[q])
		}
	}
}
