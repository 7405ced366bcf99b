package jsonappend_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/svc-feedback/svc/internal/jsonappend"
)

var sampleStrings = []string{"", "ann@example.com", `quote " and \ backslash`, "tab\there", "é ü 中文", "<script>&",
	"\x7f", "\u2028", "\u2029", "bad \xff utf-8", "nul \x00", "/dashboard?plan=pro"}

var floats = []float64{0, math.Copysign(0, -1), 1, -1, 9, 4.5, 0.1, 1e-6, 1e-7, -1e-7, 123456789, 1e20, 1e21, -1e21,
	9.999999999999999e20, 1.7976931348623157e308, 5e-324, 0.000001234}

func TestString(t *testing.T) {
	for _, s := range sampleStrings {
		want, _ := json.Marshal(s)
		if got := jsonappend.String([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("String(%q) = %s, want x%s", s, got, want)
		}
	}
}

func TestFloat(t *testing.T) {
	for _, f := range floats {
		want, _ := json.Marshal(f)
		got, err := jsonappend.Float([]byte("x"), f)
		if err != nil || string(got) != "x"+string(want) {
			t.Errorf("Float(%v) = %s, %v; want x%s", f, got, err, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got, err := jsonappend.Float([]byte("x"), f); err == nil || string(got) != "x" {
			t.Errorf("Float(%v) = %s, %v; want an error and nothing appended", f, got, err)
		}
	}
}

func TestStringMap(t *testing.T) {
	for _, m := range []map[string]string{nil, {}, {"page": "/"}, {"plan": "pro", "page": "/dashboard", "locale": "en-GB", "<b>": "ü", "": ""}} {
		want, _ := json.Marshal(m)
		if got := jsonappend.StringMap(nil, m); string(got) != string(want) {
			t.Errorf("StringMap(%v) = %s, want %s", m, got, want)
		}
	}
}

// FuzzEncodings checks the encodings against encoding/json's, byte for byte.
func FuzzEncodings(f *testing.F) {
	for i, s := range sampleStrings {
		f.Add(s, s+"k", floats[i%len(floats)])
	}
	f.Fuzz(func(t *testing.T, s, k string, n float64) {
		want, _ := json.Marshal(map[string]string{k: s, s: k})
		if got := jsonappend.StringMap(nil, map[string]string{k: s, s: k}); string(got) != string(want) {
			t.Errorf("StringMap = %s, want %s", got, want)
		}
		want, wantErr := json.Marshal(n)
		got, err := jsonappend.Float(nil, n)
		if (err != nil) != (wantErr != nil) || (err == nil && string(got) != string(want)) {
			t.Errorf("Float(%v) = %s, %v; want %s, %v", n, got, err, want, wantErr)
		}
	})
}
