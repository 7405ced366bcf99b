package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"
)

// maxPrealloc is the most readBody sets aside for a body before reading it.
const maxPrealloc = 64 << 10

// readBody reads a JSON request body of at most limit bytes: 415 for a content type other than
// JSON, 413 beyond the limit (refused before reading when the length is declared), 400 for an
// empty body or invalid UTF-8. The caller reads its tokens (see strict.go).
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	return readBodyInto(&buf, w, r, limit)
}

// readBodyInto is readBody reading into buf, which must be empty.
func readBodyInto(buf *bytes.Buffer, w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if ct := headerValue(r.Header, headerContentType); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return nil, &Error{Status: http.StatusUnsupportedMediaType, Code: CodeUnsupportedMedia,
				Message: "send the body as application/json"}
		}
	}
	if r.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	// Reading into a buffer of the declared length (plus room to see the end) spares the
	// growing copies of io.ReadAll, which allocate twice the body. Only so much is trusted
	// before the bytes arrive: a client declaring the limit and sending nothing must not cost
	// the server the limit in memory, so the rest is set aside once the first part has come.
	src := http.MaxBytesReader(w, r.Body, limit)
	var err error
	if r.ContentLength > 0 {
		first := min(r.ContentLength, maxPrealloc)
		buf.Grow(int(first) + bytes.MinRead)
		var n int64
		n, err = io.CopyN(buf, src, first)
		if err == io.EOF {
			err = nil // shorter than declared: net/http reports that as an unexpected EOF
		}
		if err == nil && n == first && r.ContentLength > first {
			buf.Grow(int(r.ContentLength-first) + bytes.MinRead)
		}
	}
	if err == nil {
		_, err = buf.ReadFrom(src)
	}
	body := buf.Bytes()
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, err
		}
		return nil, badRequest("could not read the request body")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, badRequest("a JSON request body is required")
	}
	if !utf8.Valid(body) {
		return nil, badRequest("the request body is not valid UTF-8")
	}
	return body, nil
}

// limitNamed is err, but for a body over its limit a 413 that says the limit and names the
// option of svc.Options that sets it, since raising it is the operator's to do.
func limitNamed(err error, option string) error {
	var tooLarge *http.MaxBytesError
	if !errors.As(err, &tooLarge) {
		return err
	}
	return &Error{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge,
		Message: fmt.Sprintf("the request body is larger than this endpoint's limit of %d bytes (svc.Options.%s)", tooLarge.Limit, option)}
}

func describeJSONError(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("malformed JSON at byte %d: %v", syntax.Offset, syntax)
	case errors.As(err, &typ):
		// encoding/json reports a number too large for its Go type as "number 1e999".
		if n, ok := strings.CutPrefix(typ.Value, "number "); ok && typ.Field != "" {
			return fmt.Sprintf("field %q holds a number out of range: %s", typ.Field, n)
		}
		if typ.Field != "" {
			return fmt.Sprintf("field %q must be %s, not a JSON %s", typ.Field, jsonTypeName(typ.Type.String()), typ.Value)
		}
		return fmt.Sprintf("the body must be a JSON object, not a JSON %s", typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "malformed JSON: the body ends too early"
	}
	return err.Error()
}

func jsonTypeName(goType string) string {
	switch {
	case strings.Contains(goType, "map"), strings.HasPrefix(goType, "struct"):
		return "an object"
	case strings.Contains(goType, "string"):
		return "a string"
	case strings.Contains(goType, "int"), strings.Contains(goType, "float"):
		return "a number"
	case strings.Contains(goType, "[]"):
		return "an array"
	}
	return "of another type"
}
