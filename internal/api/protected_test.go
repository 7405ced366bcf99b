package api_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
)

func TestProtectedAuth(t *testing.T) {
	e := setup(t)
	path := "/v1/protected/surveys"
	tests := []struct {
		name, auth, message string
	}{
		{"missing", "", "Authorization: Bearer"},
		{"wrong scheme", "Basic " + e.skA, "Authorization: Bearer"},
		{"publishable key", "Bearer " + e.pkA, "publishable key"},
		{"unknown key", "Bearer " + store.NewKeyPlaintext(store.Secret), "unknown or revoked"},
		{"huge key", "Bearer svc_sk_" + strings.Repeat("x", 5000), "unknown or revoked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := e.do(req{method: "GET", path: path, headers: map[string]string{"Authorization": tt.auth}})
			wantStatus(t, rec, 401, "unauthorized")
			if msg := errorMessage(t, rec); !strings.Contains(msg, tt.message) {
				t.Errorf("message %q does not mention %q", msg, tt.message)
			}
		})
	}
	wantStatus(t, e.protected(path), 200, "")
}

// TestProtectedTeamScoping asks every protected survey endpoint for team B's survey and a
// deleted survey with team A's key: always 404, never data.
func TestProtectedTeamScoping(t *testing.T) {
	e := setup(t)
	deleted := e.newSurvey("a", store.StatusDeleted, t0)
	inactive := e.newSurvey("a", store.StatusInactive, t0)
	for _, suffix := range []string{"", "/responses", "/stats", "/score-distributions"} {
		for _, id := range []string{e.survB.ID, deleted.ID, e.ids.New()} {
			rec := e.protected("/v1/protected/surveys/" + id + suffix)
			wantStatus(t, rec, 404, "not_found")
			if strings.Contains(rec.Body.String(), id) {
				t.Errorf("404 body names the survey: %s", rec.Body)
			}
		}
		wantStatus(t, e.protected("/v1/protected/surveys/"+inactive.ID+suffix), 200, "")
		wantStatus(t, e.protected("/v1/protected/surveys/BAD"+suffix), 400, "invalid_request")
	}
}

type listPage[T any] struct {
	Data       []T     `json:"data"`
	NextCursor *string `json:"nextCursor"`
	Limit      int     `json:"limit"`
	Links      struct {
		Self string  `json:"self"`
		Next *string `json:"next"`
	} `json:"links"`
}

type summary struct {
	ID, Title, Description, Status, CreatedAt, UpdatedAt string
}

func TestSurveysList(t *testing.T) {
	e := setup(t)
	// Team A has the setup survey at t0; add four more, one deleted.
	var want []string
	for i := 1; i <= 4; i++ {
		status := store.StatusActive
		if i == 2 {
			status = store.StatusDeleted
		}
		sv := e.newSurvey("a", status, t0.Add(time.Duration(i)*time.Hour))
		if status != store.StatusDeleted {
			want = append([]string{sv.ID}, want...)
		}
	}
	want = append(want, e.survA.ID)

	var got []string
	path := "/v1/protected/surveys?limit=2"
	for pages := 0; path != ""; pages++ {
		rec := e.protected(path)
		wantStatus(t, rec, 200, "")
		p := decode[listPage[summary]](t, rec)
		if p.Limit != 2 || p.Links.Self != path {
			t.Errorf("page %d: limit %d, self %q; want 2 and %q", pages, p.Limit, p.Links.Self, path)
		}
		for _, s := range p.Data {
			got = append(got, s.ID)
			if s.Status != "active" || s.Description == "" || !strings.HasSuffix(s.CreatedAt, "Z") {
				t.Errorf("summary %+v", s)
			}
		}
		if (p.NextCursor == nil) != (p.Links.Next == nil) {
			t.Fatalf("nextCursor %v and links.next %v disagree", p.NextCursor, p.Links.Next)
		}
		path = ""
		if p.Links.Next != nil {
			path = *p.Links.Next
			if !strings.Contains(path, "limit=2") || !strings.Contains(path, "cursor="+*p.NextCursor) {
				t.Errorf("links.next %q lost the limit or cursor", path)
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("surveys across pages (-want +got):\n%s", diff)
	}

	for _, bad := range []string{"limit=0", "limit=101", "limit=x", "limit=1.5", "limit=1&limit=2", "cursor=!!", "cursor=eyJ4IjoxfQ", "cursor=" + strings.Repeat("A", 600)} {
		rec := e.protected("/v1/protected/surveys?" + bad)
		wantStatus(t, rec, 400, "invalid_request")
	}
	rec := e.protected("/v1/protected/surveys?cursor=bad")
	if msg := errorMessage(t, rec); !strings.Contains(msg, "start again") {
		t.Errorf("bad cursor message %q should say to start again", msg)
	}
}

func TestProtectedSurveyGet(t *testing.T) {
	e := setup(t)
	rec := e.protected("/v1/protected/surveys/" + e.survA.ID)
	wantStatus(t, rec, 200, "")
	got := asAny(t, rec.Body.Bytes()).(map[string]any)
	for k, want := range map[string]any{"id": e.survA.ID, "status": "active", "createdAt": "2026-11-21T10:04:05.123Z",
		"updatedAt": "2026-11-21T10:04:05.123Z", "title": "How are we doing?", "backButtonLabel": "Back"} {
		if got[k] != want {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
	if qs, ok := got["questions"].([]any); !ok || len(qs) != 7 {
		t.Errorf("questions = %v", got["questions"])
	}
	// Its webhook settings, never the secret, and an ETag.
	if v, ok := got["webhookUrl"]; !ok || v != nil || got["webhookSecretSet"] != false {
		t.Errorf("webhookUrl = %v (present %v), webhookSecretSet = %v; want null and false", v, ok, got["webhookSecretSet"])
	}
	if tag := rec.Header().Get("ETag"); !strings.HasPrefix(tag, `"`) || len(tag) < 10 {
		t.Errorf("ETag = %q", tag)
	}
}

type responseJSON struct {
	ID             string            `json:"id"`
	Respondent     string            `json:"respondent"`
	Data           map[string]any    `json:"data"`
	ClientMetadata map[string]string `json:"clientMetadata"`
	CreatedAt      string            `json:"createdAt"`
	UpdatedAt      string            `json:"updatedAt"`
}

func (e *env) putResponse(surveyID, id, respondent, data string) {
	e.t.Helper()
	rec := e.public("PUT", "/v1/svc/"+surveyID+"/response/"+id, `{"respondent":"`+respondent+`","data":`+data+`,"metadata":{"k":"v"}}`)
	wantStatus(e.t, rec, 200, "")
}

func TestResponsesListPagesWhileInserting(t *testing.T) {
	e := setup(t)
	for i := range 25 {
		e.putResponse(e.survA.ID, e.ids.New(), fmt.Sprint("r", i%5), fmt.Sprintf(`{"stars":%d}`, i%5+1))
		if i%2 == 1 {
			e.clock.Advance(time.Second) // pairs share a createdAt
		}
	}
	seen := map[string]bool{}
	var prev *responseJSON
	path := "/v1/protected/surveys/" + e.survA.ID + "/responses?limit=4"
	pages := 0
	for path != "" {
		rec := e.protected(path)
		wantStatus(t, rec, 200, "")
		p := decode[listPage[responseJSON]](t, rec)
		if len(p.Data) == 0 {
			t.Fatal("empty page")
		}
		for i := range p.Data {
			r := p.Data[i]
			if seen[r.ID] {
				t.Fatalf("response %s on two pages", r.ID)
			}
			seen[r.ID] = true
			if prev != nil && (r.CreatedAt > prev.CreatedAt || r.CreatedAt == prev.CreatedAt && r.ID > prev.ID) {
				t.Fatalf("out of order: %+v after %+v", r, prev)
			}
			if r.ClientMetadata["k"] != "v" || r.Data["stars"] == nil {
				t.Errorf("item %+v lacks its data or metadata", r)
			}
			prev = &r
		}
		// New responses arrive between pages.
		e.clock.Advance(time.Second)
		e.putResponse(e.survA.ID, e.ids.New(), "late", `{}`)
		path = ""
		if p.Links.Next != nil {
			path = *p.Links.Next
		}
		pages++
	}
	if len(seen) != 25 || pages != 7 {
		t.Errorf("walked %d responses in %d pages, want 25 in 7 (no gaps, no empty last page)", len(seen), pages)
	}
}

func TestResponsesListFilters(t *testing.T) {
	e := setup(t)
	// ann answers at minutes 0..5, bob at the same minutes.
	for m := range 6 {
		e.clock.Set(t0.Add(time.Duration(m) * time.Minute))
		e.putResponse(e.survA.ID, e.ids.New(), "ann", `{}`)
		e.putResponse(e.survA.ID, e.ids.New(), "bob", `{}`)
	}
	after := url.QueryEscape(t0.Add(time.Minute).Format(time.RFC3339Nano))
	before := url.QueryEscape(t0.Add(4 * time.Minute).In(time.FixedZone("x", 3600)).Format(time.RFC3339Nano))
	base := "/v1/protected/surveys/" + e.survA.ID + "/responses?respondent=ann&after=" + after + "&before=" + before + "&limit=3"
	rec := e.protected(base)
	wantStatus(t, rec, 200, "")
	p := decode[listPage[responseJSON]](t, rec)
	if len(p.Data) != 3 || p.Links.Next == nil {
		t.Fatalf("first page: %d items, next %v", len(p.Data), p.Links.Next)
	}
	// The same window with the offset's "+" left unescaped, as a hand-written URL has it: the
	// "+" arrives as a space and is read back as the offset's sign.
	plain := strings.ReplaceAll(base, "%2B", "+")
	if plain == base {
		t.Fatalf("%s has no escaped offset sign", base)
	}
	rec = e.protected(plain)
	wantStatus(t, rec, 200, "")
	if diff := cmp.Diff(p.Data, decode[listPage[responseJSON]](t, rec).Data); diff != "" {
		t.Errorf("unescaped + in the offset (-escaped +unescaped):\n%s", diff)
	}
	// RFC 3339 allows lowercase separators.
	rec = e.protected(strings.ReplaceAll(strings.ReplaceAll(plain, "T", "t"), "Z", "z"))
	wantStatus(t, rec, 200, "")
	if diff := cmp.Diff(p.Data, decode[listPage[responseJSON]](t, rec).Data); diff != "" {
		t.Errorf("lowercase t and z (-uppercase +lowercase):\n%s", diff)
	}
	next := *p.Links.Next
	for _, keep := range []string{"respondent=ann", "after=", "before=", "limit=3", "cursor="} {
		if !strings.Contains(next, keep) {
			t.Errorf("links.next %q lost %q", next, keep)
		}
	}
	rec = e.protected(next)
	wantStatus(t, rec, 200, "")
	p2 := decode[listPage[responseJSON]](t, rec)
	var times []string
	for _, r := range append(p.Data, p2.Data...) {
		if r.Respondent != "ann" {
			t.Errorf("respondent filter let %q through", r.Respondent)
		}
		times = append(times, r.CreatedAt)
	}
	want := []string{"2026-11-21T10:08:05.123Z", "2026-11-21T10:07:05.123Z", "2026-11-21T10:06:05.123Z", "2026-11-21T10:05:05.123Z"}
	if diff := cmp.Diff(want, times); diff != "" {
		t.Errorf("inclusive window (-want +got):\n%s", diff)
	}
	if p2.NextCursor != nil {
		t.Errorf("last page has nextCursor %q", *p2.NextCursor)
	}

	for _, bad := range []string{
		"after=yesterday", "before=2026-13-01T00:00:00Z", "before=2026-11-21T10:04:05+01", "after=+2026-11-21T10:04:05Z",
		"after=2026-11-22T00:00:00Z&before=2026-11-21T00:00:00Z",
		"respondent=a&respondent=b", "respondent=", "limit=-1",
	} {
		wantStatus(t, e.protected("/v1/protected/surveys/"+e.survA.ID+"/responses?"+bad), 400, "invalid_request")
	}
}

func TestAbsoluteLinksWithBaseURL(t *testing.T) {
	e := setup(t)
	e.h = newHandlerWithBase(e, "https://api.example.com/feedback/")
	rec := e.protected("/v1/protected/surveys?limit=1")
	p := decode[listPage[summary]](t, rec)
	if p.Links.Self != "https://api.example.com/feedback/v1/protected/surveys?limit=1" {
		t.Errorf("links.self = %q", p.Links.Self)
	}
}

func TestStats(t *testing.T) {
	e := setup(t)
	for _, ev := range []struct{ who, typ string }{{"ann", "view"}, {"ann", "view"}, {"bob", "view"}, {"bob", "dismiss"}} {
		wantStatus(t, e.public("POST", "/v1/svc/"+e.survA.ID+"/respondent/"+ev.who+"/event", `{"type":"`+ev.typ+`"}`), 200, "")
	}
	e.putResponse(e.survA.ID, e.ids.New(), "ann", `{}`)
	e.putResponse(e.survA.ID, e.ids.New(), "ann", `{}`)
	e.putResponse(e.survA.ID, e.ids.New(), "cat", `{}`)
	// cat finishes, then writes again without saying so: still one finished response.
	catID := e.ids.New()
	wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+catID, `{"respondent":"cat","data":{},"metadata":{},"finished":true}`), 200, "")
	wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+catID, `{"respondent":"cat","data":{},"metadata":{}}`), 200, "")
	wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), `{"respondent":"cat","data":{},"metadata":{},"finished":"yes"}`), 400, "invalid_request")
	rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/stats")
	wantStatus(t, rec, 200, "")
	want := `{"data":{"totalViews":3,"uniqueViewers":2,"totalDismissals":1,"uniqueDismissers":1,"totalResponses":4,"uniqueResponders":2,"finishedResponses":1}}` + "\n"
	if rec.Body.String() != want {
		t.Errorf("stats = %s, want %s", rec.Body, want)
	}
}

type distribution struct {
	Data struct {
		TimeRange string  `json:"timeRange"`
		Current   period  `json:"current"`
		Previous  *period `json:"previous"`
	} `json:"data"`
}

type period struct {
	Start     string `json:"start"`
	End       string `json:"end"`
	Questions []struct {
		QuestionID string           `json:"questionId"`
		Title      string           `json:"title"`
		Scale      int              `json:"scale"`
		Total      int64            `json:"total"`
		Average    *float64         `json:"average"`
		Counts     map[string]int64 `json:"counts"`
	} `json:"questions"`
}

func TestScoreDistributionRanges(t *testing.T) {
	e := setup(t)
	now := time.Date(2026, 4, 10, 12, 0, 0, 0, time.UTC)
	answers := []struct {
		at    time.Time
		stars int
	}{
		{time.Date(2025, 12, 31, 23, 59, 59, 999_000_000, time.UTC), 1}, // q4-2025, last instant
		{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 2},                // q1-2026, first instant
		{time.Date(2026, 3, 31, 23, 0, 0, 0, time.UTC), 3},              // q1-2026, last day
		{time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), 4},                // q2-2026
		{now.Add(-6 * 24 * time.Hour), 5},                               // in the last 7 days
		{now.Add(-8 * 24 * time.Hour), 5},                               // in the 7 days before
	}
	for i, a := range answers {
		e.clock.Set(a.at)
		e.putResponse(e.survA.ID, e.ids.New(), fmt.Sprint("r", i), fmt.Sprintf(`{"stars":%d,"nps":%d}`, a.stars, a.stars*2))
	}
	e.clock.Set(now)

	counts := func(p period, q string) map[string]int64 {
		for _, d := range p.Questions {
			if d.QuestionID == q {
				return d.Counts
			}
		}
		t.Fatalf("question %s missing from %+v", q, p)
		return nil
	}
	stars := func(c1, c2, c3, c4, c5 int64) map[string]int64 {
		return map[string]int64{"1": c1, "2": c2, "3": c3, "4": c4, "5": c5}
	}
	tests := []struct {
		timeRange             string
		start, end            string
		prevStart, prevEnd    string
		current, previousWant map[string]int64
	}{
		{"q1-2026", "2026-01-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z", "2025-10-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", stars(0, 1, 1, 0, 0), stars(1, 0, 0, 0, 0)},
		{"q4-2025", "2025-10-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", "2025-07-01T00:00:00.000Z", "2025-10-01T00:00:00.000Z", stars(1, 0, 0, 0, 0), stars(0, 0, 0, 0, 0)},
		{"last-7-days", "2026-04-03T12:00:00.000Z", "2026-04-10T12:00:00.000Z", "2026-03-27T12:00:00.000Z", "2026-04-03T12:00:00.000Z", stars(0, 0, 0, 0, 1), stars(0, 0, 1, 1, 1)},
		{"last-30-days", "2026-03-11T12:00:00.000Z", "2026-04-10T12:00:00.000Z", "2026-02-09T12:00:00.000Z", "2026-03-11T12:00:00.000Z", stars(0, 0, 1, 1, 2), stars(0, 0, 0, 0, 0)},
		// Inclusive of the whole last day; the previous period has the same length.
		{"custom_2026-01-01_2026-03-31", "2026-01-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z", "2025-10-03T00:00:00.000Z", "2026-01-01T00:00:00.000Z", stars(0, 1, 1, 0, 0), stars(1, 0, 0, 0, 0)},
		// Longer than a time.Duration can hold (about 292 years): still counted in whole days.
		{"custom_1700-01-01_2025-12-31", "1700-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", "1374-01-01T00:00:00.000Z", "1700-01-01T00:00:00.000Z", stars(1, 0, 0, 0, 0), stars(0, 0, 0, 0, 0)},
		{"q1-0001", "0001-01-01T00:00:00.000Z", "0001-04-01T00:00:00.000Z", "0000-10-01T00:00:00.000Z", "0001-01-01T00:00:00.000Z", stars(0, 0, 0, 0, 0), stars(0, 0, 0, 0, 0)},
		{"custom_9999-12-30_9999-12-30", "9999-12-30T00:00:00.000Z", "9999-12-31T00:00:00.000Z", "9999-12-29T00:00:00.000Z", "9999-12-30T00:00:00.000Z", stars(0, 0, 0, 0, 0), stars(0, 0, 0, 0, 0)},
		{"custom_2026-03-31_2026-03-31", "2026-03-31T00:00:00.000Z", "2026-04-01T00:00:00.000Z", "2026-03-30T00:00:00.000Z", "2026-03-31T00:00:00.000Z", stars(0, 0, 1, 0, 0), stars(0, 0, 0, 0, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.timeRange, func(t *testing.T) {
			rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/score-distributions?questionIds=stars&timeRange=" + tt.timeRange)
			wantStatus(t, rec, 200, "")
			d := decode[distribution](t, rec)
			if d.Data.TimeRange != tt.timeRange || d.Data.Current.Start != tt.start || d.Data.Current.End != tt.end {
				t.Errorf("current = %s [%s, %s), want [%s, %s)", d.Data.TimeRange, d.Data.Current.Start, d.Data.Current.End, tt.start, tt.end)
			}
			if d.Data.Previous == nil || d.Data.Previous.Start != tt.prevStart || d.Data.Previous.End != tt.prevEnd {
				t.Fatalf("previous = %+v, want [%s, %s)", d.Data.Previous, tt.prevStart, tt.prevEnd)
			}
			if diff := cmp.Diff(tt.current, counts(d.Data.Current, "stars")); diff != "" {
				t.Errorf("current counts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.previousWant, counts(*d.Data.Previous, "stars")); diff != "" {
				t.Errorf("previous counts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScoreDistributionAllTimeAndShape(t *testing.T) {
	e := setup(t)
	for i, score := range []int{0, 10, 10, 7} {
		e.putResponse(e.survA.ID, e.ids.New(), fmt.Sprint("r", i), fmt.Sprintf(`{"nps":%d}`, score))
	}
	e.clock.Advance(time.Hour)
	rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/score-distributions")
	wantStatus(t, rec, 200, "")
	d := decode[distribution](t, rec)
	if d.Data.TimeRange != "all-time" || d.Data.Previous != nil || d.Data.Current.Start != "2026-11-21T10:04:05.123Z" || d.Data.Current.End != "2026-11-21T11:04:05.123Z" {
		t.Errorf("all-time period = %+v, previous %v", d.Data.Current, d.Data.Previous)
	}
	if len(d.Data.Current.Questions) != 2 {
		t.Fatalf("questions = %+v, want every rating question (nps, stars)", d.Data.Current.Questions)
	}
	nps, starsQ := d.Data.Current.Questions[0], d.Data.Current.Questions[1]
	if nps.QuestionID != "nps" || nps.Scale != 10 || nps.Total != 4 || nps.Average == nil || *nps.Average != 6.75 || len(nps.Counts) != 11 || nps.Counts["0"] != 1 || nps.Counts["10"] != 2 {
		t.Errorf("nps = %+v", nps)
	}
	if starsQ.Total != 0 || starsQ.Average != nil || len(starsQ.Counts) != 5 || starsQ.Counts["1"] != 0 {
		t.Errorf("stars with no answers = %+v; want zeros and a null average", starsQ)
	}
	if !strings.Contains(rec.Body.String(), `"counts":{"0":1,"1":0,"2":0`) {
		t.Errorf("counts are not in score order: %s", rec.Body)
	}

	// Repeated and comma-separated questionIds.
	for _, q := range []string{"questionIds=stars&questionIds=nps", "questionIds=stars,nps"} {
		d := decode[distribution](t, e.protected("/v1/protected/surveys/"+e.survA.ID+"/score-distributions?"+q))
		if len(d.Data.Current.Questions) != 2 || d.Data.Current.Questions[0].QuestionID != "stars" {
			t.Errorf("%s: questions %+v", q, d.Data.Current.Questions)
		}
	}
	for _, bad := range []string{
		"questionIds=comments", "questionIds=nope", "questionIds=nps,nope",
		"timeRange=last-8-days", "timeRange=q5-2026", "timeRange=q1-26", "timeRange=custom_2026-03-02_2026-03-01",
		"timeRange=custom_2026-02-30_2026-03-01", "timeRange=custom_2026-1-1_2026-02-01", "timeRange=all-time&timeRange=last-7-days",
		// Periods a date-time cannot express: past 9999, or a previous period before year 0.
		"timeRange=q4-9999", "timeRange=custom_9999-12-31_9999-12-31", "timeRange=custom_0001-01-01_2026-12-31",
		"timeRange=q1-0000",
	} {
		rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/score-distributions?" + bad)
		wantStatus(t, rec, 400, "invalid_request")
	}
}

func TestScoreDistributionFollowsUpdates(t *testing.T) {
	e := setup(t)
	id := e.ids.New()
	e.putResponse(e.survA.ID, id, "ann", `{"stars":1}`)
	e.putResponse(e.survA.ID, id, "ann", `{"stars":5}`)
	e.clock.Advance(time.Minute)
	d := decode[distribution](t, e.protected("/v1/protected/surveys/"+e.survA.ID+"/score-distributions?questionIds=stars"))
	want := map[string]int64{"1": 0, "2": 0, "3": 0, "4": 0, "5": 1}
	if diff := cmp.Diff(want, d.Data.Current.Questions[0].Counts); diff != "" {
		t.Errorf("counts after an update (-want +got):\n%s", diff)
	}
}
