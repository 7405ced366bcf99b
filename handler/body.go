package handler

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

// maxPrealloc is the most decodeBody sets aside for a body before reading it.
const maxPrealloc = 64 << 10

// decodeBody reads a JSON request body of at most limit bytes into dst: 415 for a content type
// other than JSON, 413 beyond the limit (refused before reading when the length is declared),
// 400 for invalid UTF-8, malformed JSON, wrong types or data after the value.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, dst any) error {
	if ct := headerValue(r.Header, headerContentType); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return &Error{Status: http.StatusUnsupportedMediaType, Code: CodeUnsupportedMedia,
				Message: "send the body as application/json"}
		}
	}
	if r.ContentLength > limit {
		return &http.MaxBytesError{Limit: limit}
	}
	// Reading into a buffer of the declared length (plus room to see the end) spares
	// io.ReadAll's growing copies. Only so much is trusted before the bytes arrive: a client
	// declaring the limit and sending nothing must not cost the server the limit in memory.
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(min(r.ContentLength, maxPrealloc)) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	body := buf.Bytes()
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return err
		}
		return badRequest("could not read the request body")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return badRequest("a JSON request body is required")
	}
	if !utf8.Valid(body) {
		return badRequest("the request body is not valid UTF-8")
	}
	if err := json.Unmarshal(body, dst); err != nil {
		if trailingData(body) {
			return badRequest("the request body has data after its JSON value")
		}
		return badRequest(describeJSONError(err))
	}
	return nil
}

// trailingData reports whether body is one JSON value followed by more than white space.
func trailingData(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return false
	}
	_, err := dec.Token()
	return err != io.EOF
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
