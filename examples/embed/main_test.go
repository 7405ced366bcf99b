package main

import (
	"bytes"
	"context"
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
	a, err := newApp(t.Context(), db, "", &out)
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
	a, err = newApp(t.Context(), db, "", &out)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close(context.Background())
	if strings.Contains(out.String(), "created team") {
		t.Error("a second start created the team again")
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
		a, err := newApp(t.Context(), db, fixture, &out)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	a, err := newApp(t.Context(), db, fixture, &out)
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
