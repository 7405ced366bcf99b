// Package jsonappend appends the JSON encodings of strings, numbers and string maps to a byte
// slice, byte for byte as encoding/json writes them. The hot paths that build JSON themselves
// (a page of responses, a response's stored answers) use it: encoding/json's reflection costs
// several allocations per map entry, a few per cent of a request. Only the common cases are
// handled here; everything else goes through encoding/json, so the output never differs.
package jsonappend

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
)

// String appends s as a JSON string. Printable ASCII without quotes, backslashes or the
// characters encoding/json escapes for HTML (<, >, &), the usual case for ids, keys and
// short answers, is copied as it is; anything else goes through encoding/json.
func String(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Float appends f as a JSON number. NaN and the infinities have no JSON encoding: they are
// an error, as in encoding/json.
func Float(b []byte, f float64) ([]byte, error) {
	// encoding/json writes numbers from 1e-6 up to 1e21, and zero, in plain decimal notation,
	// the others with an exponent (which it then shortens).
	if abs := math.Abs(f); abs == 0 || (abs >= 1e-6 && abs < 1e21) {
		return strconv.AppendFloat(b, f, 'f', -1, 64), nil
	}
	q, err := json.Marshal(f)
	if err != nil {
		return b, err
	}
	return append(b, q...), nil
}

// StringMap appends m as a JSON object, its keys in order as encoding/json sorts them. A nil
// map is null.
func StringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	b = append(b, '{')
	for i, k := range SortedKeys(m) {
		if i > 0 {
			b = append(b, ',')
		}
		b = String(b, k)
		b = append(b, ':')
		b = String(b, m[k])
	}
	return append(b, '}')
}

// SortedKeys returns the keys of m in the order encoding/json writes them: by their bytes.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
