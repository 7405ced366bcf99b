package svc_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Changes made through the management API on one instance are seen by the others at once: a
// survey patched (the widget's view), a response deleted (lists, one response, stats), a
// respondent erased.
func TestClusterSeesManagementChanges(t *testing.T) {
	c := newCluster(t, "")
	for i, id := range []string{"rcluster0000000000000001", "rcluster0000000000000002"} {
		if rec := c.do(i, "PUT", "/v1/svc/"+c.survey.ID+"/response/"+id, `{"respondent":"ann","data":{"nps":8},"metadata":{}}`, false); rec.Code != 200 {
			t.Fatalf("PUT: %d %s", rec.Code, rec.Body)
		}
	}
	base := "/v1/protected/surveys/" + c.survey.ID
	for i := range c.instances {
		c.do(i, "GET", "/v1/svc/"+c.survey.ID, "", false) // each caches the survey
	}
	if rec := c.do(0, "PATCH", base, `{"title":"Patched on instance 0"}`, true); rec.Code != 200 {
		t.Fatalf("PATCH: %d %s", rec.Code, rec.Body)
	}
	if rec := c.do(1, "DELETE", base+"/responses/rcluster0000000000000001", "", true); rec.Code != 204 {
		t.Fatalf("DELETE response: %d %s", rec.Code, rec.Body)
	}
	deadline := time.Now().Add(time.Second)
	for i := range c.instances {
		for {
			pub := c.do(i, "GET", "/v1/svc/"+c.survey.ID, "", false).Body.String()
			one := c.do(i, "GET", base+"/responses/rcluster0000000000000001", "", true).Code
			stats := c.do(i, "GET", base+"/stats", "", true).Body.String()
			if strings.Contains(pub, "Patched on instance 0") && one == 404 && strings.Contains(stats, `"totalResponses":1,`) {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("instance %d a second later: survey %.60s..., deleted response %d, stats %s", i, pub, one, stats)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if rec := c.do(2, "DELETE", "/v1/protected/respondents/ann", "", true); !strings.Contains(rec.Body.String(), `"responses":1,`) {
		t.Fatalf("erase: %d %s", rec.Code, rec.Body)
	}
	for i := range c.instances {
		if stats := c.do(i, "GET", base+"/stats", "", true).Body.String(); !strings.Contains(stats, `"totalResponses":0,`) || !strings.Contains(stats, `"uniqueResponders":0`) {
			t.Errorf("instance %d after erasure: %s", i, stats)
		}
	}
}

// Changes of one survey through every instance at once: of the PATCHes sent with the same
// If-Match, exactly one passes (the others 412); merge patches of different members sent
// together all land, none lost to another's read of the survey before it.
func TestClusterSurveyChangesTakeTurns(t *testing.T) {
	c := newCluster(t, "")
	base := "/v1/protected/surveys/" + c.survey.ID
	etag := c.do(0, "GET", base, "", true).Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	const n = 9
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := httptest.NewRequest("PATCH", base, strings.NewReader(fmt.Sprintf(`{"title":"Title %d"}`, i)))
			r.Header.Set("Authorization", "Bearer "+c.sk)
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("If-Match", etag)
			rec := httptest.NewRecorder()
			c.instances[i%len(c.instances)].ServeHTTP(rec, r)
			codes[i] = rec.Code
		}()
	}
	wg.Wait()
	passed := 0
	for i, code := range codes {
		switch code {
		case 200:
			passed++
		case 412:
		default:
			t.Errorf("PATCH %d: %d", i, code)
		}
	}
	if passed != 1 {
		t.Errorf("%d PATCHes with one If-Match passed (%v), want exactly 1", passed, codes)
	}

	members := []string{`{"description":"Described"}`, `{"webhookWaitSeconds":60}`, `{"status":"inactive"}`}
	for i, m := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if rec := c.do(i, "PATCH", base, m, true); rec.Code != 200 {
				t.Errorf("PATCH %s: %d %s", m, rec.Code, rec.Body)
			}
		}()
	}
	wg.Wait()
	got := c.do(1, "GET", base, "", true).Body.String()
	for _, want := range []string{`"description":"Described"`, `"webhookWaitSeconds":60`, `"status":"inactive"`} {
		if !strings.Contains(got, want) {
			t.Errorf("after three patches at once the survey lacks %s: one was lost\n%s", want, got)
		}
	}
}
