package handler_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/handler"
	"github.com/svc-feedback/svc/widget"
)

// TestWidgetScriptIsServed checks the widget's serving contract (extensions.md section 1): no
// key, its type, caching with an ETag and 304, and the public endpoints' CORS headers.
func TestWidgetScriptIsServed(t *testing.T) {
	e := setup(t)
	files, err := widget.Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/v1/svc/widget.js", "/v1/svc/widget/screenshot.js", "/v1/svc/widget/recording.js"} {
		rec := e.do(req{method: "GET", path: path, headers: map[string]string{"Origin": "https://shop.example"}})
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(path, "/v1/svc/widget/"), "/v1/svc/")
		f := files[name]
		if rec.Body.String() != string(f.Content) || len(f.Content) < 1000 {
			t.Errorf("GET %s: body of %d bytes is not the embedded %s (%d bytes)", path, rec.Body.Len(), name, len(f.Content))
		}
		want := map[string]string{
			"Content-Type":                "text/javascript; charset=utf-8",
			"Cache-Control":               "public, max-age=300",
			"ETag":                        f.ETag,
			"Access-Control-Allow-Origin": "*",
		}
		for k, v := range want {
			if got := rec.Header().Get(k); got != v {
				t.Errorf("GET %s: %s = %q, want %q", path, k, got, v)
			}
		}
		again := e.do(req{method: "GET", path: path, headers: map[string]string{"If-None-Match": f.ETag}})
		if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
			t.Errorf("GET %s with its ETag: %d with %d bytes, want an empty 304", path, again.Code, again.Body.Len())
		}
		if again.Header().Get("ETag") != f.ETag || again.Header().Get("Cache-Control") != "public, max-age=300" {
			t.Errorf("GET %s 304 headers: %v", path, again.Header())
		}
	}
	if files["widget.js"].ETag == files["recording.js"].ETag {
		t.Error("two different files share an ETag")
	}
}

func TestWidgetUnknownFileIs404(t *testing.T) {
	e := setup(t)
	for _, path := range []string{"/v1/svc/widget/nope.js", "/v1/svc/widget/..%2fwidget.go", "/v1/svc/widget/%2e%2e"} {
		rec := e.do(req{method: "GET", path: path})
		wantStatus(t, rec, http.StatusNotFound, handler.CodeNotFound)
	}
	rec := e.do(req{method: "POST", path: "/v1/svc/widget.js"})
	wantStatus(t, rec, http.StatusMethodNotAllowed, "method_not_allowed")
}

// TestWidgetScriptWithOriginsAllowList: with AllowedOrigins, an allowed page may load the lazy
// modules (import() needs CORS), and the script itself loads anywhere, as <script> needs none.
func TestWidgetScriptWithOriginsAllowList(t *testing.T) {
	e := setup(t, func(c *handler.Config) { c.AllowedOrigins = map[string]bool{"https://shop.example": true} })
	rec := e.do(req{method: "GET", path: "/v1/svc/widget/screenshot.js", headers: map[string]string{"Origin": "https://shop.example"}})
	if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != "https://shop.example" {
		t.Errorf("allowed origin: %d, Access-Control-Allow-Origin %q", rec.Code, rec.Header().Get("Access-Control-Allow-Origin"))
	}
	rec = e.do(req{method: "GET", path: "/v1/svc/widget.js", headers: map[string]string{"Origin": "https://other.example"}})
	if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("other origin: %d, Access-Control-Allow-Origin %q", rec.Code, rec.Header().Get("Access-Control-Allow-Origin"))
	}
}
