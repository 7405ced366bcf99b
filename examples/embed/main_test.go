package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestEmbedServesAppAndSvc(t *testing.T) {
	var out bytes.Buffer
	db := filepath.Join(t.TempDir(), "embed.db")
	a, err := newApp(t.Context(), db, "", "admin-session", &out)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.handler)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/hello")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the app's own route: %d", resp.StatusCode)
	}
	pk := regexp.MustCompile(`publishable key: (\S+)`).FindStringSubmatch(out.String())
	sid := regexp.MustCompile(`survey: (\S+)`).FindStringSubmatch(out.String())
	if pk == nil || sid == nil {
		t.Fatalf("first start did not print the keys and survey:\n%s", out.String())
	}
	req, _ := http.NewRequest("GET", srv.URL+"/feedback/v1/svc/"+sid[1], nil)
	req.Header.Set("x-svc-pk", pk[1])
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("ETag") == "" {
		t.Errorf("svc under /feedback/: %d %v", resp.StatusCode, resp.Header)
	}
	if !strings.Contains(out.String(), "path=/feedback/v1/svc/") {
		t.Errorf("the app's middleware did not see svc's request:\n%s", out.String())
	}
	if err := a.close(context.Background()); err != nil {
		t.Fatal(err)
	}

	// A second start on the same file keeps the data and creates nothing new.
	out.Reset()
	a, err = newApp(t.Context(), db, "", "admin-session", &out)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close(context.Background())
	if strings.Contains(out.String(), "created team") {
		t.Error("a second start created the team again")
	}
}

// TestEmbedReadsItsOwnResults: the app's own page reads its results in process behind its own
// login, and the same login opens svc's protected API; svc's secret key still works too.
func TestEmbedReadsItsOwnResults(t *testing.T) {
	var out bytes.Buffer
	a, err := newApp(t.Context(), filepath.Join(t.TempDir(), "embed.db"), "", "admin-session", &out)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close(context.Background())
	srv := httptest.NewServer(a.handler)
	defer srv.Close()
	get := func(path string, header ...string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	sk := regexp.MustCompile(`secret key: (\S+)`).FindStringSubmatch(out.String())
	pk := regexp.MustCompile(`publishable key: (\S+)`).FindStringSubmatch(out.String())
	sid := regexp.MustCompile(`survey: (\S+)`).FindStringSubmatch(out.String())
	if sk == nil || pk == nil || sid == nil {
		t.Fatalf("first start did not print the keys and survey:\n%s", out.String())
	}
	// A response, through the widget's endpoint.
	req, _ := http.NewRequest("PUT", srv.URL+"/feedback/v1/svc/"+sid[1]+"/response/r1embed0001",
		strings.NewReader(`{"respondent":"ann","data":{"score":4},"metadata":{}}`))
	req.Header.Set("x-svc-pk", pk[1])
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		t.Fatalf("PUT a response: %d", resp.StatusCode)
	}
	if code, body := get("/results", "Cookie", "session=admin-session"); code != 200 || !strings.Contains(body, "Quick feedback: 1 started") {
		t.Errorf("the app's results page: %d %s", code, body)
	}
	if code, _ := get("/results"); code != http.StatusUnauthorized {
		t.Errorf("the app's results page without its login: %d", code)
	}
	if code, body := get("/feedback/v1/protected/surveys/"+sid[1], "Cookie", "session=admin-session"); code != 200 || !strings.Contains(body, `"title":"Quick feedback"`) {
		t.Errorf("svc's protected API through the app's login: %d %s", code, body)
	}
	if code, body := get("/feedback/v1/protected/surveys", "Cookie", "session=someone-else"); code != 401 || !strings.Contains(body, "sign in to the app as an admin") {
		t.Errorf("another session: %d %s", code, body)
	}
	if code, _ := get("/feedback/v1/protected/surveys", "Authorization", "Bearer "+sk[1]); code != 200 {
		t.Errorf("svc's secret key: %d", code)
	}
	if code, _ := get("/feedback/v1/protected/surveys"); code != 401 {
		t.Errorf("neither: %d", code)
	}
}

func TestEmbedImportsFixture(t *testing.T) {
	var out bytes.Buffer
	fixture := filepath.Join("..", "receiver", "fixture.json")
	if _, err := os.Stat(fixture); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "embed.db")
	for range 2 { // importing twice changes nothing
		a, err := newApp(t.Context(), db, fixture, "admin-session", &out)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	a, err := newApp(t.Context(), db, fixture, "admin-session", &out)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close(context.Background())
	srv := httptest.NewServer(a.handler)
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/feedback/v1/svc/"+fixtureSurvey, nil)
	req.Header.Set("x-svc-pk", fixturePK)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("imported survey: %d", resp.StatusCode)
	}
}

// The keys and survey of examples/receiver/fixture.json.
const (
	fixturePK     = "svc_pk_ReceiverDemoPublishableKey0000001"
	fixtureSurvey = "creceiverdemo0000000001"
)
