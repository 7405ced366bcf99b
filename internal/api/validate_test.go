package api_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/svc-feedback/svc/internal/api"
)

// document is the handler's OpenAPI document, loaded and checked once, with a router of it.
var document = sync.OnceValues(func() (*openapi3.T, error) {
	// The widget's script and exports are text to the validator (kin-openapi keeps its decoders in a
	// package-level table, so this registration is once per test binary).
	for _, ct := range []string{"text/javascript", "text/csv", "application/x-ndjson", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
	}
	doc, err := openapi3.NewLoader().LoadFromData(api.OpenAPI())
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	return doc, nil
})

var documentRouter = sync.OnceValues(func() (routers.Router, error) {
	doc, err := document()
	if err != nil {
		return nil, err
	}
	return gorillamux.NewRouter(doc)
})

// checkAgainstDocument holds an exchange the tests made to the OpenAPI document: every reply of
// a documented route must be one the document describes, with its status and body, and every
// request that succeeded must be one it allows. Requests to paths or methods the document does
// not have are left to the tests of unknown routes, and requests that failed may break the
// document on purpose (they test the refusals).
func checkAgainstDocument(t testing.TB, req *http.Request, body []byte, rec *httptest.ResponseRecorder) {
	t.Helper()
	router, err := documentRouter()
	if err != nil {
		t.Fatalf("the OpenAPI document: %v", err)
	}
	r := req.Clone(context.Background())
	r.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := router.FindRoute(r)
	if err != nil {
		if errors.Is(err, routers.ErrPathNotFound) || errors.Is(err, routers.ErrMethodNotAllowed) {
			return
		}
		t.Fatalf("%s %s: finding the route in the OpenAPI document: %v", r.Method, r.URL, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}
	if rec.Code < 300 {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			t.Errorf("%s %s succeeded with a request the OpenAPI document does not allow: %v", r.Method, r.URL, err)
		}
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	out.SetBodyBytes(rec.Body.Bytes())
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("%s %s: the reply %d is not as the OpenAPI document says: %v\n%.300s", r.Method, r.URL, rec.Code, err, rec.Body)
	}
}

// Every route the handler registers is in the OpenAPI document, with its method, and the
// document has no route the handler does not serve.
func TestOpenAPIDocumentHasEveryRoute(t *testing.T) {
	doc, err := document()
	if err != nil {
		t.Fatal(err)
	}
	e := setup(t)
	served := map[string]bool{}
	for _, p := range e.raw.Patterns() {
		method, path, _ := strings.Cut(p, " ")
		served[method+" "+path] = true
		item := doc.Paths.Find(path)
		if item == nil || item.GetOperation(method) == nil {
			t.Errorf("route %q is not in the OpenAPI document", p)
		}
	}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !served[method+" "+path] {
				t.Errorf("the OpenAPI document has %s %s, which the handler does not serve", method, path)
			}
		}
	}
	rec := e.do(req{method: "GET", path: "/v1/openapi.json"})
	wantStatus(t, rec, 200, "")
	if !bytes.Equal(rec.Body.Bytes(), api.OpenAPI()) || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Errorf("GET /v1/openapi.json does not serve the document")
	}
}
