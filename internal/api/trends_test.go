package api_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTrends checks GET …/trends against a recount of a history spread over six weeks:
// responses created every 13 hours, some updated later (their new score counts where they were
// created) and some deleted, and views; by day, week and month, for every rating question and
// for one.
func TestTrends(t *testing.T) {
	e := setup(t)
	type resp struct {
		at       time.Time
		nps      int
		finished bool
		deleted  bool
	}
	var history []resp
	for i := range 80 {
		id := fmt.Sprintf("rtrend%04d", i)
		r := resp{at: e.clock.Now(), nps: (i * 7) % 11, finished: i%3 == 0}
		put := func(nps int) {
			body := fmt.Sprintf(`{"respondent":"%s","data":{"nps":%d},"metadata":{},"finished":%v}`, id, nps, r.finished)
			wantStatus(t, e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+id, body), 200, "")
		}
		put((i + 3) % 11)
		if i%4 == 0 {
			wantStatus(t, e.public("POST", "/v1/svc/"+e.survA.ID+"/respondent/"+id+"/event", `{"type":"view"}`), 200, "")
		}
		e.clock.Advance(5 * time.Hour)
		put(r.nps) // an update, hours later: it counts where the response was created
		if i%10 == 9 {
			wantStatus(t, e.manage("DELETE", "/v1/protected/surveys/"+e.survA.ID+"/responses/"+id, "", e.skA), http.StatusNoContent, "")
			r.deleted = true
		}
		history = append(history, r)
		e.clock.Advance(8 * time.Hour)
	}

	type bucketJSON struct {
		Start, End                 time.Time
		Views, Responses, Finished int64
		Questions                  []struct {
			QuestionID string
			Answered   int64
			Average    *float64
			NPS        *float64
			CSAT       *float64
		}
	}
	get := func(query string) []bucketJSON {
		t.Helper()
		rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/trends?" + query)
		wantStatus(t, rec, 200, "")
		var got struct {
			Data struct{ Buckets []bucketJSON }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		return got.Data.Buckets
	}
	// recount works out a bucket from the history.
	recount := func(b bucketJSON) (responses, finished, views, answered int64, avg, nps float64) {
		var sum, promoters, detractors int64
		for i, r := range history {
			in := !r.at.Before(b.Start) && r.at.Before(b.End)
			if in && i%4 == 0 {
				views++
			}
			if !in || r.deleted {
				continue
			}
			responses++
			answered++
			sum += int64(r.nps)
			if r.finished {
				finished++
			}
			switch {
			case r.nps >= 9:
				promoters++
			case r.nps <= 6:
				detractors++
			}
		}
		if answered > 0 {
			avg = float64(sum) / float64(answered)
			nps = math.Round(1000*float64(promoters-detractors)/float64(answered)) / 10
		}
		return
	}
	for _, q := range []string{"interval=day&timeRange=all-time", "interval=week&timeRange=custom_2026-11-20_2027-01-10", "interval=month&timeRange=custom_2026-11-01_2027-02-28"} {
		buckets := get(q)
		var total int64
		for i, b := range buckets {
			if i > 0 && !b.Start.Equal(buckets[i-1].End) {
				t.Fatalf("%s: bucket %d starts at %v, the one before ends at %v", q, i, b.Start, buckets[i-1].End)
			}
			responses, finished, views, answered, avg, nps := recount(b)
			total += b.Responses
			if b.Responses != responses || b.Finished != finished || b.Views != views || len(b.Questions) != 2 ||
				b.Questions[0].QuestionID != "nps" || b.Questions[0].Answered != answered {
				t.Errorf("%s: bucket %v: %+v; recount: %d responses, %d finished, %d views, %d answered", q, b.Start, b, responses, finished, views, answered)
				continue
			}
			if answered > 0 && (b.Questions[0].Average == nil || math.Abs(*b.Questions[0].Average-avg) > 1e-9 || b.Questions[0].NPS == nil || *b.Questions[0].NPS != nps) {
				t.Errorf("%s: bucket %v: nps %+v, want average %v and NPS %v", q, b.Start, b.Questions[0], avg, nps)
			}
			if answered == 0 && b.Questions[0].Average != nil {
				t.Errorf("%s: bucket %v: an average of nothing: %v", q, b.Start, *b.Questions[0].Average)
			}
		}
		if total != 72 {
			t.Errorf("%s: %d responses in all the buckets, want the 72 not deleted", q, total)
		}
	}
	weeks := get("interval=week&timeRange=custom_2026-11-20_2027-01-10")
	if len(weeks) != 8 || weeks[0].Start != time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC) || weeks[1].Start != time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC) {
		t.Errorf("weeks from Friday 20 November: %d buckets, starting %v, %v; want 8, the second on Monday 23", len(weeks), weeks[0].Start, weeks[1].Start)
	}
	one := get("interval=month&questionIds=stars&timeRange=custom_2026-11-01_2026-12-31")
	if diff := cmp.Diff([]string{"stars"}, []string{one[0].Questions[0].QuestionID}); diff != "" || len(one) != 2 || one[0].Questions[0].CSAT != nil {
		t.Errorf("the stars question alone, unanswered: %+v", one)
	}
	for _, bad := range []string{"interval=hour", "questionIds=favourite", "questionIds=nope", "interval=day&timeRange=custom_2020-01-01_2026-12-31", "interval=day&interval=week"} {
		wantStatus(t, e.protected("/v1/protected/surveys/"+e.survA.ID+"/trends?"+bad), http.StatusBadRequest, "invalid_request")
	}
}
