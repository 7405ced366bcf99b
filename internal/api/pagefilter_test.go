package api_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPageFilter checks page= (docs/api.md#filters) on the list, the export, the summary, stats
// and trends: the path of the page a response's metadata names, its query and fragment left
// out, exactly or under a path with a trailing *; a malformed one is a 400.
func TestPageFilter(t *testing.T) {
	e := setup(t)
	pages := []string{"https://app.example/pricing?plan=pro", "https://app.example/pricing/teams", "https://app.example/docs/api#auth",
		"/docs", "", "https://app.example/pricing", "mailto:someone@example.com"}
	for i, page := range pages {
		meta := map[string]string{"plan": "pro"}
		if page != "" {
			meta["url"] = page
		}
		body, _ := json.Marshal(map[string]any{"respondent": fmt.Sprint("page-", i), "data": map[string]any{"nps": 10 - i},
			"metadata": meta, "finished": i%2 == 0})
		wantStatus(t, e.public("PUT", fmt.Sprintf("/v1/svc/%s/response/rpagefilter%011d", e.survA.ID, i), string(body)), 200, "")
		e.clock.Advance(time.Minute)
	}
	path := "/v1/protected/surveys/" + e.survA.ID
	for _, tc := range []struct {
		query string
		want  []string // newest first
	}{
		{"page=/pricing", []string{"page-5", "page-0"}},
		{"page=" + url.QueryEscape("/pricing*"), []string{"page-5", "page-1", "page-0"}},
		{"page=" + url.QueryEscape("/docs/*"), []string{"page-2"}},
		{"page=/docs&page=/pricing/teams&finished=false", []string{"page-3", "page-1"}},
		{"page=/nowhere", nil},
	} {
		rec := e.protected(path + "/responses?" + tc.query)
		wantStatus(t, rec, 200, "")
		var list struct{ Data []struct{ Respondent string } }
		if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range list.Data {
			got = append(got, r.Respondent)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("list %s (-want +got):\n%s", tc.query, diff)
		}
		rec = e.protected(path + "/responses/export?" + tc.query)
		wantStatus(t, rec, 200, "")
		rows, err := csv.NewReader(rec.Body).ReadAll()
		if err != nil || len(rows)-1 != len(tc.want) {
			t.Errorf("export %s: %v, %d rows, want %d", tc.query, err, len(rows)-1, len(tc.want))
		}
		var stats struct {
			Data struct{ TotalResponses, FinishedResponses int }
		}
		rec = e.protected(path + "/stats?" + tc.query)
		wantStatus(t, rec, 200, "")
		if err := json.Unmarshal(rec.Body.Bytes(), &stats); err != nil || stats.Data.TotalResponses != len(tc.want) {
			t.Errorf("stats %s: %v %+v, want %d responses", tc.query, err, stats.Data, len(tc.want))
		}
	}
	// The summary and trends count the responses on /pricing: scores 10 and 5.
	var summary struct {
		Data struct {
			Current struct {
				Funnel    struct{ Started int }
				Questions []struct {
					QuestionID string
					Answered   int
				}
			}
		}
	}
	rec := e.protected(path + "/summary?page=/pricing")
	wantStatus(t, rec, 200, "")
	if err := json.Unmarshal(rec.Body.Bytes(), &summary); err != nil || summary.Data.Current.Funnel.Started != 2 || summary.Data.Current.Questions[0].Answered != 2 {
		t.Errorf("summary of /pricing: %v %+v", err, summary.Data.Current)
	}
	var trend struct {
		Data struct{ Buckets []struct{ Responses int } }
	}
	rec = e.protected(path + "/trends?page=/pricing&questionIds=nps")
	wantStatus(t, rec, 200, "")
	if err := json.Unmarshal(rec.Body.Bytes(), &trend); err != nil {
		t.Fatal(err)
	}
	responses := 0
	for _, b := range trend.Data.Buckets {
		responses += b.Responses
	}
	if responses != 2 {
		t.Errorf("trend of /pricing: %d responses, want 2", responses)
	}
	for _, bad := range []string{"pricing", url.QueryEscape("/pricing?plan=pro"), url.QueryEscape("/docs#top"), url.QueryEscape("/d*cs"),
		url.QueryEscape("*")} {
		for _, endpoint := range []string{"/responses", "/responses/export", "/summary", "/stats", "/trends"} {
			rec := e.protected(path + endpoint + "?page=" + bad)
			wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
			if !strings.Contains(rec.Body.String(), "page") {
				t.Errorf("%s?page=%s: %s", endpoint, bad, rec.Body)
			}
		}
	}
}
