package api

import (
	"net/http/httptest"
	"net/textproto"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestAppendTimeMatchesLayout compares the fast time writer with time.Format over many
// instants, the edges of years and milliseconds included.
func TestAppendTimeMatchesLayout(t *testing.T) {
	times := []time.Time{
		time.Date(2026, 11, 21, 10, 4, 5, 123_456_789, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999_999_999, time.FixedZone("x", -3600)),
		time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 1_000_000, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.UnixMilli(0),
	}
	for i := range 2000 {
		times = append(times, time.UnixMilli(int64(i)*7_919_993_071+1))
	}
	for _, tm := range times {
		if got, want := string(appendTime(nil, tm)), tm.UTC().Format(timeLayout); got != want {
			t.Errorf("appendTime(%v) = %s, want %s", tm, got, want)
		}
	}
}

// TestReadBodyDoesNotTrustDeclaredLength declares a 10 MiB body and sends two bytes: the
// body decodes, and the server does not set aside the declared size before the bytes arrive.
func TestReadBodyDoesNotTrustDeclaredLength(t *testing.T) {
	r := httptest.NewRequest("PUT", "/x", strings.NewReader("{}"))
	r.ContentLength = 10 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readBody(httptest.NewRecorder(), r, 10<<20)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("readBody: %v", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("decoding a 2-byte body declared as 10 MiB allocated %d bytes", got)
	}
}

// TestHeaderNamesAreCanonical: setHeader stores names and headerValue looks them up as given,
// while the server files request headers, and Header.Get (with every proxy or client reading
// the map) looks reply headers up, in canonical form.
func TestHeaderNamesAreCanonical(t *testing.T) {
	for _, name := range []string{headerContentType, headerContentLength, headerETag, headerCacheControl, headerAllowOrigin, headerExposeHeaders,
		headerPublishableKey, headerAuthorization, headerOrigin, headerIfNoneMatch, headerRequestMethod} {
		if c := textproto.CanonicalMIMEHeaderKey(name); c != name {
			t.Errorf("header name %q is not canonical: %q", name, c)
		}
	}
}
