package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

// writeJSON encodes v into a buffer before writing any header, so a failed encoding still
// becomes a proper 500.
func (h *Handler) writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		h.log.Error("encode reply", "err", err)
		buf.Reset()
		buf.WriteString(`{"error":"internal error","code":"internal"}` + "\n")
		status = http.StatusInternalServerError
	}
	writeBody(w, status, buf.Bytes())
}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	hd := w.Header()
	setHeader(hd, headerContentType, "application/json")
	setHeader(hd, headerContentLength, strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// The headers read or set on every request, in canonical form (see setHeader and
// headerValue).
const (
	headerContentType   = "Content-Type"
	headerContentLength = "Content-Length"
	headerETag          = "Etag"
	headerCacheControl  = "Cache-Control"
	headerAllowOrigin   = "Access-Control-Allow-Origin"
	headerExposeHeaders = "Access-Control-Expose-Headers"

	headerPublishableKey = "X-Svc-Pk"
	headerAuthorization  = "Authorization"
	headerOrigin         = "Origin"
	headerIfNoneMatch    = "If-None-Match"
	headerRequestMethod  = "Access-Control-Request-Method"
)

// setHeader sets a response header whose name is already canonical. http.Header.Set would
// check and canonicalize the name on every call: with the six headers of a widget request,
// about 2% of its CPU. TestHeaderNamesAreCanonical holds the names to that form; a name that
// was not would be missed by Header.Get.
func setHeader(hd http.Header, canonicalName, value string) {
	hd[canonicalName] = []string{value}
}

// headerValue is Header.Get for a name already in canonical form. The server stores request
// headers under canonical names, and Get canonicalizes the name it is given on every call,
// which for a lower-case name such as x-svc-pk means a new string each time: about 1.6% of a
// widget GET's CPU.
func headerValue(hd http.Header, canonicalName string) string {
	if v := hd[canonicalName]; len(v) > 0 {
		return v[0]
	}
	return ""
}
