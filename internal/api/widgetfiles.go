package api

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/widget"
)

// widgetCacheControl lets browsers and CDNs keep the widget for five minutes, then revalidate
// with its ETag: a new release reaches pages within minutes, at the cost of a 304 now and then.
const widgetCacheControl = "public, max-age=300"

// handleWidgetScript serves "GET /v1/svc/widget.js": the browser widget, without a key.
func (h *Handler) handleWidgetScript(w http.ResponseWriter, r *http.Request) {
	h.serveWidgetFile(endpointWriter(w), r, widget.Script)
}

// handleWidgetFile serves "GET /v1/svc/widget/{file}": the code the widget loads only when it
// needs it (bug-report screenshots and recordings).
func (h *Handler) handleWidgetFile(w http.ResponseWriter, r *http.Request) {
	h.serveWidgetFile(endpointWriter(w), r, r.PathValue("file"))
}

func (h *Handler) serveWidgetFile(w http.ResponseWriter, r *http.Request, name string) {
	f, ok := h.widget[name]
	if !ok {
		h.writeError(w, r, notFound("no such widget file: "+name))
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/javascript; charset=utf-8")
	hd.Set("Cache-Control", widgetCacheControl)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Vary", "Accept-Encoding")
	body, tag := f.Content, f.ETag
	if acceptsGzip(r.Header.Values("Accept-Encoding")) {
		body, tag = f.Gzip, f.GzipETag
		hd.Set("Content-Encoding", "gzip")
	}
	hd.Set("ETag", tag)
	// ServeContent answers If-None-Match with 304, HEAD and ranges.
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(body))
}

// acceptsGzip reads Accept-Encoding (RFC 9110 section 12.5.3): whether gzip, or *, is listed
// without a q of 0.
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(item, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "x-gzip" && coding != "*" {
				continue
			}
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				if k, val, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
					if f, err := strconv.ParseFloat(val, 64); err == nil {
						q = f
					}
				}
			}
			return q > 0
		}
	}
	return false
}
