package report

import (
	"bytes"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// objectReader reads JSON objects of answers member by member, as a stream of tokens, with one
// decoder reused from one object to the next, so it serves one goroutine. It reads them as
// encoding/json's Unmarshal into a map[string]json.RawMessage did: a name may come twice (the
// caller keeps the last), invalid UTF-8 passes, and anything but one object alone is refused
// whole. Decoding the whole object into such a map, where a caller wants one or two of its
// answers, was most of a summary's and a filter's CPU (docs/performance.md).
type objectReader struct {
	src  bytes.Reader
	dec  *jsontext.Decoder
	opts []jsontext.Options // made once: each Reset takes them again
}

// each reads data, calling member with each member's name in turn; member reads the member's
// value from o.dec, or skips it, before it returns. each reports false, having stopped there,
// when data is not one JSON object alone or member fails.
func (o *objectReader) each(data []byte, member func(id string) error) bool {
	o.src.Reset(data)
	if o.dec == nil {
		o.opts = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
		o.dec = jsontext.NewDecoder(&o.src, o.opts...)
	} else {
		o.dec.Reset(&o.src, o.opts...)
	}
	if tok, err := o.dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	for o.dec.PeekKind() == '"' {
		name, err := o.dec.ReadToken()
		if err != nil || member(name.String()) != nil {
			return false
		}
	}
	if tok, err := o.dec.ReadToken(); err != nil || tok.Kind() != '}' {
		return false
	}
	_, err := o.dec.ReadToken()
	return err == io.EOF
}
