package api_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/widget"
)

// TestWidgetScriptIsServed checks how the widget's script is served: with no key, its type,
// caching with an ETag and 304, and the public endpoints' CORS headers.
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

// TestWidgetScriptIsCompressed: a browser (which accepts gzip) gets the files gzipped, a third of
// their size, with an ETag of its own; a client that does not, or refuses it with q=0, gets them
// as they are; every reply says it varies by Accept-Encoding.
func TestWidgetScriptIsCompressed(t *testing.T) {
	e := setup(t)
	files, err := widget.Files()
	if err != nil {
		t.Fatal(err)
	}
	f := files["widget.js"]
	for _, tt := range []struct {
		accept string
		gzip   bool
	}{
		{"gzip, deflate, br, zstd", true}, {"br;q=1.0, gzip;q=0.8", true}, {"*", true}, {"GZIP", true},
		{"", false}, {"identity", false}, {"gzip;q=0", false}, {"br", false}, {"gzip;q=0.000", false},
	} {
		rec := e.do(req{method: "GET", path: "/v1/svc/widget.js", headers: map[string]string{"Accept-Encoding": tt.accept}})
		if rec.Code != http.StatusOK || rec.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: %d, Vary %q", tt.accept, rec.Code, rec.Header().Get("Vary"))
			continue
		}
		gzipped := rec.Header().Get("Content-Encoding") == "gzip"
		if gzipped != tt.gzip {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q", tt.accept, rec.Header().Get("Content-Encoding"))
			continue
		}
		body, tag := rec.Body.Bytes(), f.ETag
		if gzipped {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
			tag = f.GzipETag
			if rec.Body.Len()*2 > len(f.Content) {
				t.Errorf("gzipped widget.js is %d bytes of %d", rec.Body.Len(), len(f.Content))
			}
		}
		if !bytes.Equal(body, f.Content) || rec.Header().Get("ETag") != tag {
			t.Errorf("Accept-Encoding %q: not widget.js (ETag %q, want %q)", tt.accept, rec.Header().Get("ETag"), tag)
		}
	}
	if f.ETag == f.GzipETag {
		t.Error("the two encodings share an ETag")
	}
	again := e.do(req{method: "GET", path: "/v1/svc/widget.js", headers: map[string]string{"Accept-Encoding": "gzip", "If-None-Match": f.GzipETag}})
	if again.Code != http.StatusNotModified {
		t.Errorf("gzipped, with its ETag: %d, want 304", again.Code)
	}
}

func TestWidgetUnknownFileIs404(t *testing.T) {
	e := setup(t)
	for _, path := range []string{"/v1/svc/widget/nope.js", "/v1/svc/widget/..%2fwidget.go", "/v1/svc/widget/%2e%2e"} {
		rec := e.do(req{method: "GET", path: path})
		wantStatus(t, rec, http.StatusNotFound, api.CodeNotFound)
	}
	rec := e.do(req{method: "POST", path: "/v1/svc/widget.js"})
	wantStatus(t, rec, http.StatusMethodNotAllowed, "method_not_allowed")
}

// TestWidgetScriptWithOriginsAllowList: with AllowedOrigins, an allowed page may load the lazy
// modules (import() needs CORS), and the script itself loads anywhere, as <script> needs none.
func TestWidgetScriptWithOriginsAllowList(t *testing.T) {
	e := setup(t, func(c *api.Config) { c.AllowedOrigins = map[string]bool{"https://shop.example": true} })
	rec := e.do(req{method: "GET", path: "/v1/svc/widget/screenshot.js", headers: map[string]string{"Origin": "https://shop.example"}})
	if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != "https://shop.example" {
		t.Errorf("allowed origin: %d, Access-Control-Allow-Origin %q", rec.Code, rec.Header().Get("Access-Control-Allow-Origin"))
	}
	rec = e.do(req{method: "GET", path: "/v1/svc/widget.js", headers: map[string]string{"Origin": "https://other.example"}})
	if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("other origin: %d, Access-Control-Allow-Origin %q", rec.Code, rec.Header().Get("Access-Control-Allow-Origin"))
	}
}
