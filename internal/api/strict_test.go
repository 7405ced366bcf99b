package api_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// Member names are exact and come once: encoding/json would match RESPONDENT to respondent and
// keep the last of two members of one name, which svc's API does not allow.
func TestBodiesAreStrictJSON(t *testing.T) {
	e := setup(t)
	put := func(body string) string {
		t.Helper()
		rec := e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), body)
		wantStatus(t, rec, 400, "invalid_request")
		return errorMessage(t, rec)
	}
	tests := map[string]struct{ body, message string }{
		"respondent twice":     {`{"respondent":"ann","respondent":"bob","data":{},"metadata":{}}`, `"respondent" appears twice`},
		"data twice":           {`{"respondent":"ann","data":{},"data":{"nps":1},"metadata":{}}`, `"data" appears twice`},
		"an answer twice":      {`{"respondent":"ann","data":{"nps":1,"nps":9},"metadata":{}}`, `"nps" appears twice`},
		"a metadata key twice": {`{"respondent":"ann","data":{},"metadata":{"a":"1","a":"2"}}`, `"a" appears twice`},
		"a bug report member twice": {`{"respondent":"ann","data":{"bug":{"title":"t","title":"u","metadata":"m"}},"metadata":{}}`,
			`"title" appears twice`},
		"RESPONDENT":         {`{"RESPONDENT":"ann","data":{},"metadata":{}}`, `"RESPONDENT" should be "respondent"`},
		"Data":               {`{"respondent":"ann","Data":{},"metadata":{}}`, `"Data" should be "data"`},
		"bug report Title":   {`{"respondent":"ann","data":{"bug":{"Title":"t","metadata":"m"}},"metadata":{}}`, `unknown member "Title"`},
		"too many members":   {`{"respondent":"ann","data":{},"metadata":{}` + manyMembers(70) + `}`, "at most 64 members"},
		"not an object":      {`["respondent"]`, "must be a JSON object"},
		"data not object":    {`{"respondent":"ann","data":[],"metadata":{}}`, `"data" must be an object`},
		"nested metadata":    {`{"respondent":"ann","data":{},"metadata":{"a":{"b":"c"}}}`, `"metadata" must be an object of strings`},
		"list too long":      {`{"respondent":"ann","data":{"missing":["Speed","Docs","Speed","Docs","Speed","Docs","x"]},"metadata":{}}`, "at most"},
		"list of numbers":    {`{"respondent":"ann","data":{"missing":[1,2]},"metadata":{}}`, "only strings"},
		"array for a rating": {`{"respondent":"ann","data":{"nps":[9]},"metadata":{}}`, "rating answer"},
		"extra member too big": {`{"respondent":"ann","data":{},"metadata":{},"extra":[` + strings.Repeat("1,", 10_000) + `1]}`,
			"at most 10000 values"},
		"extra member too deep": {`{"respondent":"ann","data":{},"metadata":{},"extra":` + strings.Repeat("[", 33) + strings.Repeat("]", 33) + `}`,
			"nest at most 32"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if msg := put(tt.body); !strings.Contains(msg, tt.message) {
				t.Errorf("message %q does not mention %q", msg, tt.message)
			}
		})
	}
	for _, body := range []string{`{"type":"view","type":"dismiss"}`, `{"TYPE":"view"}`, `{"Type":"view"}`} {
		rec := e.public("POST", "/v1/svc/"+e.survA.ID+"/respondent/ann/event", body)
		wantStatus(t, rec, 400, "invalid_request")
	}
	// Members svc does not read are still ignored, as the widget may send more.
	rec := e.public("PUT", "/v1/svc/"+e.survA.ID+"/response/"+e.ids.New(), `{"respondent":"ann","data":{},"metadata":{},"extra":{"deep":[1,2,{"x":null}]}}`)
	wantStatus(t, rec, 200, "")
}

// A hostile body costs no more than an honest one of the same size: what the survey cannot take
// is refused while it is read, and a member svc does not read is skipped token by token. It
// prints what each shape of a 10 MiB body allocated (go test -v -run TestHostileBodiesCostLittle
// ./handler); allocation bounds the peak from above.
func TestHostileBodiesCostLittle(t *testing.T) {
	e := setup(t)
	const size = 10<<20 - 4096
	fill := func(prefix, unit, suffix string) string {
		n := (size - len(prefix) - len(suffix)) / len(unit)
		return prefix + strings.Repeat(unit, n) + suffix
	}
	valid := fill(`{"respondent":"ann","metadata":{},"data":{"bug":{"title":"t","metadata":"m","screenshotDataUrl":"data:image/png;base64,`, "AAAA", `"}}}`)
	hostile := map[string]string{
		"a list of numbers as an answer":       fill(`{"respondent":"ann","metadata":{},"data":{"missing":[`, "1,", `1]}}`),
		"a list of strings as an answer":       fill(`{"respondent":"ann","metadata":{},"data":{"missing":[`, `"Speed",`, `"Docs"]}}`),
		"nested lists in an extra member":      fill(`{"respondent":"ann","metadata":{},"data":{},"extra":`, "[", ""),
		"many metadata keys":                   fill(`{"respondent":"ann","data":{},"metadata":{`, `"k":"v",`, `"k":"v"}}`),
		"many answers to unknown questions":    fill(`{"respondent":"ann","metadata":{},"data":{`, `"q":1,`, `"q":1}}`),
		"a list of numbers in an extra member": fill(`{"respondent":"ann","metadata":{},"data":{},"extra":[`, "1,", `1]}`),
		// Accepted (a member svc does not read), kept nowhere: it costs what an answer's would.
		"": fill(`{"respondent":"ann","metadata":{},"data":{},"extra":"`, "x", `"}`),
	}
	allocated := func(body string, status int) uint64 {
		t.Helper()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		// serve, not public: the test's check of the reply against the OpenAPI document would
		// count in the figures.
		rec := e.serve(req{method: "PUT", path: "/v1/svc/" + e.survA.ID + "/response/" + e.ids.New(), body: body,
			headers: map[string]string{"x-svc-pk": e.pkA}})
		runtime.ReadMemStats(&after)
		if rec.Code != status {
			t.Fatalf("status %d, want %d: %.200s", rec.Code, status, rec.Body)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	honest := allocated(valid, 200)
	t.Logf("%-40s %6.1f MiB allocated for a %.1f MiB body", "a valid screenshot (the baseline)", float64(honest)/(1<<20), float64(len(valid))/(1<<20))
	// pgx copies a parameter into its message buffer, which grows by doubling: PostgreSQL costs
	// about two copies of the body more than SQLite.
	bound := uint64(8)
	if os.Getenv(backendEnv) == "postgres" {
		bound = 10
	}
	if honest > bound*uint64(len(valid)) {
		t.Errorf("a valid body allocated %d bytes, more than %d times its size", honest, bound)
	}
	for name, body := range hostile {
		status := 400
		if name == "" {
			name, status = "one long string in an extra member", 200
		}
		got := allocated(body, status)
		t.Logf("%-40s %6.1f MiB allocated for a %.1f MiB body", name, float64(got)/(1<<20), float64(len(body))/(1<<20))
		if got > honest {
			t.Errorf("%s: %d bytes allocated, more than the valid body's %d", name, got, honest)
		}
	}
}

func manyMembers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `,"x%d":1`, i)
	}
	return b.String()
}
