package handler

import (
	"bytes"
	"net/http"
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
	hd.Set("ETag", f.ETag)
	hd.Set("X-Content-Type-Options", "nosniff")
	// ServeContent answers If-None-Match with 304, HEAD and ranges.
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.Content))
}
