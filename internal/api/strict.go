package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/svc-feedback/svc/internal/wire"
)

// Request bodies are read as a stream of tokens, by jsonReader, rather than decoded whole into
// Go values: member names must match the API's exactly and appear once (encoding/json
// matches them without regard to case and keeps the last of duplicates), and whatever the
// survey cannot accept is refused as it is read, before the rest is built in memory. A body of
// 10 MiB that is one long array costs a few tokens, not hundreds of megabytes of boxed values.

// maxBodyMembers bounds the members of a request body's top-level object, so that a body made of
// many unknown members, which are skipped, cannot make the set of names seen grow with it.
const maxBodyMembers = 64

// jsonReader reads a request body's JSON tokens, with jsontext (encoding/json/jsontext from Go
// 1.27): it reads a token without allocating more than its string, and refuses a member name
// given twice in any object, which encoding/json would let through keeping the last.
type jsonReader struct {
	dec *jsontext.Decoder
	src bytes.Reader
	buf bytes.Buffer // the body read, when decodeBody read it
}

func newJSONReader(body []byte) *jsonReader {
	jr := &jsonReader{}
	jr.reset(body)
	return jr
}

// reset makes jr read body, keeping the decoder's buffers.
func (jr *jsonReader) reset(body []byte) {
	jr.src.Reset(body)
	// Invalid UTF-8 is taken, as U+FFFD, as encoding/json takes it: a browser cutting a text at
	// a length limit can split a surrogate pair, and the answer is still worth keeping.
	if jr.dec == nil {
		jr.dec = jsontext.NewDecoder(&jr.src, jsontext.AllowInvalidUTF8(true))
	} else {
		jr.dec.Reset(&jr.src, jsontext.AllowInvalidUTF8(true))
	}
}

// decodeBody reads the request's body as readBody does, and then its tokens through decode,
// with one of the handler's pooled readers: the widget's endpoints read a body per request,
// and a reader used before has its buffers and its sets of names already grown. decode must
// keep nothing of the reader or of the body's bytes.
func decodeBody[T any](h *Handler, w http.ResponseWriter, r *http.Request, limit int64, decode func(*jsonReader) (T, error)) (T, error) {
	jr, _ := h.readers.Get().(*jsonReader)
	if jr == nil {
		jr = &jsonReader{}
	}
	defer func() {
		jr.src.Reset(nil)
		jr.buf.Reset()
		if jr.buf.Cap() > maxPooledBody {
			// One large body must not stay in memory for good: neither its buffer nor the
			// decoder's, which grew to its largest value.
			jr.buf, jr.dec = bytes.Buffer{}, nil
		}
		h.readers.Put(jr)
	}()
	body, err := readBodyInto(&jr.buf, w, r, limit)
	if err != nil {
		var zero T
		return zero, err
	}
	jr.reset(body)
	return decode(jr)
}

// maxPooledBody is the largest body buffer a pooled reader keeps.
const maxPooledBody = 64 << 10

// errNotObject is the error of a value that should be an object.
var errNotObject = errors.New("not an object")

// token reads the next token, turning the decoder's errors into a 400.
func (jr *jsonReader) token() (jsontext.Token, error) {
	t, err := jr.dec.ReadToken()
	if err != nil {
		return jsontext.Token{}, badRequest(describeTokenError(err))
	}
	return t, nil
}

// describeTokenError says what is wrong with a body the decoder refused.
func describeTokenError(err error) string {
	var syntax *jsontext.SyntacticError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "malformed JSON: the body ends too early"
	case errors.As(err, &syntax) && errors.Is(err, jsontext.ErrDuplicateName):
		return fmt.Sprintf("the member %q appears twice", wire.Truncate(syntax.JSONPointer.LastToken()))
	case errors.As(err, &syntax):
		return fmt.Sprintf("malformed JSON at byte %d: %v", syntax.ByteOffset, syntax.Err)
	}
	return "malformed JSON: " + err.Error()
}

// more reports whether the array or object being read has another element.
func (jr *jsonReader) more() bool {
	k := jr.dec.PeekKind()
	return k != ']' && k != '}' && k != 0
}

// object reads an object, calling member for each member name with the decoder at its value;
// member must read the value whole. Names must be distinct; at most limit members (0 for no
// limit). It returns errNotObject, having read the token, when the value is not an object, and
// the token read then.
func (jr *jsonReader) object(limit int, member func(name string) error) (jsontext.Token, error) {
	t, err := jr.token()
	if err != nil {
		return jsontext.Token{}, err
	}
	if t.Kind() != '{' {
		return t, errNotObject
	}
	return jsontext.Token{}, jr.members(limit, member)
}

// body reads a request body that must be one JSON object, as object does, and nothing after it.
func (jr *jsonReader) body(limit int, member func(name string) error) error {
	t, err := jr.object(limit, member)
	if errors.Is(err, errNotObject) {
		return badRequest("the body must be a JSON object, not " + tokenKind(t))
	}
	if err != nil {
		return err
	}
	return jr.end()
}

// members reads the members of an object whose opening brace was read, and its closing brace,
// as object does. The decoder refuses a name given twice.
func (jr *jsonReader) members(limit int, member func(name string) error) error {
	for n := 1; jr.more(); n++ {
		t, err := jr.token()
		if err != nil {
			return err
		}
		if limit > 0 && n > limit {
			return badRequest(fmt.Sprintf("an object here may have at most %d members", limit))
		}
		if err := member(t.String()); err != nil {
			return err
		}
	}
	_, err := jr.token() // the closing brace
	return err
}

// raw reads a whole value as it is written.
func (jr *jsonReader) raw() (json.RawMessage, error) {
	v, err := jr.dec.ReadValue()
	if err != nil {
		return nil, badRequest(describeTokenError(err))
	}
	return json.RawMessage(v.Clone()), nil
}

// Bounds on a member svc does not read, which it skips token by token: its memory is that of
// one token at a time, and a member beyond these bounds is refused rather than read to its end.
const (
	maxSkippedTokens = 10_000
	maxSkippedDepth  = 32
)

// skip reads a value svc does not read, without keeping it.
func (jr *jsonReader) skip() error {
	depth := 0
	for n := 0; ; n++ {
		if n == maxSkippedTokens {
			return badRequest(fmt.Sprintf("a member svc does not read may hold at most %d values", maxSkippedTokens))
		}
		if k := jr.dec.PeekKind(); k == '[' || k == '{' {
			if depth++; depth > maxSkippedDepth {
				return badRequest(fmt.Sprintf("a member svc does not read may nest at most %d deep", maxSkippedDepth))
			}
		} else if k == ']' || k == '}' {
			depth--
		}
		if _, err := jr.token(); err != nil {
			return err
		}
		if depth == 0 {
			return nil
		}
	}
}

// stringOrNull reads a string or null (nil) value of the named field.
func (jr *jsonReader) stringOrNull(field string) (*string, error) {
	t, err := jr.token()
	if err != nil {
		return nil, err
	}
	switch t.Kind() {
	case '"':
		v := t.String()
		return &v, nil
	case 'n':
		return nil, nil
	}
	return nil, badRequest(fmt.Sprintf("field %q must be a string, not %s", field, tokenKind(t)))
}

// boolOrNull reads a boolean or null (false) value of the named field.
func (jr *jsonReader) boolOrNull(field string) (bool, error) {
	t, err := jr.token()
	if err != nil {
		return false, err
	}
	switch t.Kind() {
	case 't', 'f':
		return t.Bool(), nil
	case 'n':
		return false, nil
	}
	return false, badRequest(fmt.Sprintf("field %q must be true or false, not %s", field, tokenKind(t)))
}

// end checks that nothing but white space follows the body's value.
func (jr *jsonReader) end() error {
	if _, err := jr.dec.ReadToken(); err != io.EOF {
		return badRequest("the request body has data after its JSON value")
	}
	return nil
}

// tokenKind names the JSON kind of a token read where another kind was due, as "a JSON
// number"; an opening delimiter stands for its array or object.
func tokenKind(t jsontext.Token) string {
	switch t.Kind() {
	case '[':
		return "a JSON array"
	case '{':
		return "a JSON object"
	case '"':
		return "a JSON string"
	case '0':
		return "a JSON number"
	case 't', 'f':
		return "a JSON boolean"
	case 'n':
		return "null"
	}
	return "another JSON value"
}

// exactName checks a member name that svc does not know against the names it does: one that
// differs only in letter case is a mistake worth a 400, since the API's names are exact.
func exactName(name string, known ...string) error {
	for _, k := range known {
		if strings.EqualFold(name, k) {
			return badRequest(fmt.Sprintf("member names are case-sensitive: %q should be %q", wire.Truncate(name), k))
		}
	}
	return nil
}

// wholeNumber reads the named member's value: a JSON number that is a whole number from low to
// high (10, 10.0 and 1e1 alike). Any other value, of any kind, is a 400 naming the member, what
// it takes, and what it was given.
func (jr *jsonReader) wholeNumber(field, what string, low, high int) (int, error) {
	t, err := jr.token()
	if err != nil {
		return 0, err
	}
	refuse := func(given string) error {
		return badRequest(fmt.Sprintf("%s must be %s from %d to %d, not %s", field, what, low, high, given))
	}
	if t.Kind() != '0' {
		return 0, refuse(tokenKind(t)) // an array's or object's rest is not read: the body is refused
	}
	f, err := t.Float()
	if err != nil || f < float64(low) || f > float64(high) || float64(int(f)) != f {
		return 0, refuse(wire.Truncate(t.String()))
	}
	return int(f), nil
}

// unknownMember is the 400 of a member a body may not hold: its path, and the members that
// may be there (allowed, such as "a prompt has respondent and expiresAt").
func unknownMember(path, allowed string) error {
	return badRequest(fmt.Sprintf("unknown member %q; %s", wire.Truncate(path), allowed))
}
