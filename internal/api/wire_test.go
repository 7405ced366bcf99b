package api_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// TestHeaderNamesAsSent sends requests over a real connection with their header names in lower
// case, as browsers using HTTP/2 and many clients do: the handler reads them by their canonical
// names, so it relies on the server storing them that way.
func TestHeaderNamesAsSent(t *testing.T) {
	e := setup(t)
	srv := httptest.NewServer(e.h)
	t.Cleanup(srv.Close)
	send := func(t *testing.T, head, body string) *http.Response {
		t.Helper()
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, head+"host: svc.test\r\nconnection: close\r\ncontent-length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	path := "/v1/svc/" + e.survA.ID

	first := send(t, "GET "+path+" HTTP/1.1\r\nx-svc-pk: "+e.pkA+"\r\norigin: https://app.example\r\n", "")
	etag := first.Header.Get("ETag")
	if first.StatusCode != http.StatusOK || etag == "" {
		t.Fatalf("GET with x-svc-pk: %d, ETag %q; want 200 with an ETag", first.StatusCode, etag)
	}
	if got := first.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("Access-Control-Allow-Origin = %q, want *", got)
	}
	if again := send(t, "GET "+path+" HTTP/1.1\r\nx-svc-pk: "+e.pkA+"\r\nif-none-match: "+etag+"\r\n", ""); again.StatusCode != http.StatusNotModified {
		t.Errorf("GET with if-none-match: %d, want 304", again.StatusCode)
	}
	body := `{"respondent":"u1","data":{},"metadata":{}}`
	put := send(t, "PUT "+path+"/response/"+e.ids.New()+" HTTP/1.1\r\nx-svc-pk: "+e.pkA+"\r\ncontent-type: text/plain\r\n", body)
	if put.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("PUT with content-type text/plain: %d, want 415", put.StatusCode)
	}
	if list := send(t, "GET /v1/protected/surveys HTTP/1.1\r\nauthorization: Bearer "+e.skA+"\r\n", ""); list.StatusCode != http.StatusOK {
		t.Errorf("protected GET with authorization: %d, want 200", list.StatusCode)
	}
	pre := send(t, "OPTIONS "+path+" HTTP/1.1\r\norigin: https://app.example\r\naccess-control-request-method: GET\r\n", "")
	if pre.StatusCode != http.StatusNoContent {
		t.Errorf("preflight with access-control-request-method: %d, want 204", pre.StatusCode)
	}
}

// TestAmbiguousFramingClosesConnection sends a request with both Content-Length and
// Transfer-Encoding, followed on the same connection by a second request. RFC 9112 section 6.1
// requires the server to close the connection after answering the first, so whatever the
// framing hid cannot be served as a request of its own (request smuggling).
func TestAmbiguousFramingClosesConnection(t *testing.T) {
	e := setup(t)
	srv := httptest.NewServer(e.h)
	t.Cleanup(srv.Close)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"type":"view"}`
	first := "POST /v1/svc/" + e.survA.ID + "/respondent/ann/event HTTP/1.1\r\nHost: svc.test\r\nx-svc-pk: " + e.pkA +
		"\r\nContent-Type: application/json\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n" +
		strconv.FormatInt(int64(len(body)), 16) + "\r\n" + body + "\r\n0\r\n\r\n"
	second := "GET /v1/svc/" + e.survA.ID + " HTTP/1.1\r\nHost: svc.test\r\nx-svc-pk: " + e.pkA + "\r\n\r\n"
	if _, err := io.WriteString(conn, first+second); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	if !resp.Close {
		t.Errorf("reply to the ambiguous request does not close the connection (Connection: %q)", resp.Header.Get("Connection"))
	}
	if next, err := http.ReadResponse(br, nil); err == nil {
		t.Errorf("the request after the ambiguous one was served: %s", next.Status)
	}
}
