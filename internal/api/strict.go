package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/svc-feedback/svc/internal/wire"
)

// Request bodies are read as a stream of tokens, by jsonReader, rather than decoded whole into
// Go values: member names must match the contract exactly and appear once (encoding/json
// matches them without regard to case and keeps the last of duplicates), and whatever the
// survey cannot accept is refused as it is read, before the rest is built in memory. A body of
// 10 MiB that is one long array costs a few tokens, not hundreds of megabytes of boxed values.

// maxBodyMembers bounds the members of a request body's top-level object, so that a body made of
// many unknown members, which are skipped, cannot make the set of names seen grow with it.
const maxBodyMembers = 64

// jsonReader reads a request body's JSON tokens.
type jsonReader struct {
	dec *json.Decoder
}

func newJSONReader(body []byte) *jsonReader {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	return &jsonReader{dec: dec}
}

// errNotObject is the error of a value that should be an object.
var errNotObject = errors.New("not an object")

// token reads the next token, turning the decoder's errors into a 400.
func (jr *jsonReader) token() (json.Token, error) {
	t, err := jr.dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, badRequest("malformed JSON: the body ends too early")
		}
		return nil, badRequest(describeJSONError(err))
	}
	return t, nil
}

// object reads an object, calling member for each member name with the decoder at its value;
// member must read the value whole. Names must be distinct; at most limit members (0 for no
// limit). It returns errNotObject, having read the token, when the value is not an object, and
// the token read then.
func (jr *jsonReader) object(limit int, member func(name string) error) (json.Token, error) {
	t, err := jr.token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return t, errNotObject
	}
	return nil, jr.members(limit, member)
}

// members reads the members of an object whose opening brace was read, and its closing brace,
// as object does.
func (jr *jsonReader) members(limit int, member func(name string) error) error {
	seen := make(map[string]bool)
	for jr.dec.More() {
		t, err := jr.token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		if seen[name] {
			return badRequest(fmt.Sprintf("the member %q appears twice", wire.Truncate(name)))
		}
		seen[name] = true
		if limit > 0 && len(seen) > limit {
			return badRequest(fmt.Sprintf("an object here may have at most %d members", limit))
		}
		if err := member(name); err != nil {
			return err
		}
	}
	_, err := jr.token() // the closing brace
	return err
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
		t, err := jr.token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			if depth++; depth > maxSkippedDepth {
				return badRequest(fmt.Sprintf("a member svc does not read may nest at most %d deep", maxSkippedDepth))
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
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
	switch v := t.(type) {
	case string:
		return &v, nil
	case nil:
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
	switch v := t.(type) {
	case bool:
		return v, nil
	case nil:
		return false, nil
	}
	return false, badRequest(fmt.Sprintf("field %q must be true or false, not %s", field, tokenKind(t)))
}

// end checks that nothing but white space follows the body's value.
func (jr *jsonReader) end() error {
	if _, err := jr.dec.Token(); err != io.EOF {
		return badRequest("the request body has data after its JSON value")
	}
	return nil
}

// tokenKind names the JSON kind of a token read where another kind was due, as "a JSON
// number"; an opening delimiter stands for its array or object.
func tokenKind(t json.Token) string {
	switch t := t.(type) {
	case json.Delim:
		if t == '[' {
			return "a JSON array"
		}
		return "a JSON object"
	case string:
		return "a JSON string"
	case json.Number, float64:
		return "a JSON number"
	case bool:
		return "a JSON boolean"
	case nil:
		return "null"
	}
	return "another JSON value"
}

// exactName checks a member name that svc does not know against the names it does: one that
// differs only in letter case is a mistake worth a 400, since the contract's names are exact.
func exactName(name string, known ...string) error {
	for _, k := range known {
		if strings.EqualFold(name, k) {
			return badRequest(fmt.Sprintf("member names are case-sensitive: %q should be %q", wire.Truncate(name), k))
		}
	}
	return nil
}
