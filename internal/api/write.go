package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
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

// Time is a timestamp as the API writes it: RFC 3339 in UTC with milliseconds.
type Time time.Time

// timeLayout is RFC 3339 in UTC with milliseconds.
const timeLayout = "2006-01-02T15:04:05.000Z"

// MarshalText writes the time as 2026-11-21T10:04:05.123Z, which encoding/json quotes. (A
// MarshalJSON method's output would be validated and compacted again on every value.)
func (t Time) MarshalText() ([]byte, error) {
	return appendTime(make([]byte, 0, len(timeLayout)), time.Time(t)), nil
}

// appendTime appends t in timeLayout. It is what time.AppendFormat does for this one layout,
// at a fraction of the cost, which matters in pages of a hundred responses.
func appendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	hour, minute, sec := t.Clock()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, timeLayout)
	}
	d2 := func(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }
	b = d2(d2(b, year/100), year%100)
	b = d2(append(b, '-'), int(month))
	b = d2(append(b, '-'), day)
	b = d2(append(b, 'T'), hour)
	b = d2(append(b, ':'), minute)
	b = d2(append(b, ':'), sec)
	msec := t.Nanosecond() / 1e6
	return append(b, '.', byte('0'+msec/100), byte('0'+msec/10%10), byte('0'+msec%10), 'Z')
}

func timePtr(t *time.Time) *Time {
	if t == nil {
		return nil
	}
	v := Time(*t)
	return &v
}
