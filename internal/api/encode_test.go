package api

import (
	"net/http/httptest"
	"net/textproto"
	"runtime"
	"strings"
	"testing"
)

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
