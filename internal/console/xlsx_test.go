package console_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/svc-feedback/svc/internal/console"
	"github.com/svc-feedback/svc/xlsx"
)

// TestResultsOfferExcel: with spreadsheets on, a survey's page offers the download for Excel,
// which opens as a sheet of its responses; without, it is not offered.
func TestResultsOfferExcel(t *testing.T) {
	e := setup(t)
	e.putResponse(e.survA.ID, "rexcel00000000000000001", "ann", `{"nps":9}`)
	e.clock.Advance(time.Minute)
	get := func(h http.Handler, path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", path, nil)
		r.Host = "127.0.0.1" // the pages answer loopback hosts only
		h.ServeHTTP(rec, r)
		return rec
	}
	plain := console.NewResults(e.store, "a", console.Config{Now: e.clock.Now})
	if rec := get(plain, "/surveys/"+e.survA.ID); rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "xlsx") {
		t.Error("the download for Excel is offered without spreadsheets")
	}
	rs := console.NewResults(e.store, "a", console.Config{Now: e.clock.Now, Spreadsheets: xlsx.New()})
	body := get(rs, "/surveys/"+e.survA.ID).Body.String()
	if !strings.Contains(body, ">Download for Excel (xlsx)</a>") || !strings.Contains(body, "format=xlsx") {
		t.Fatalf("the survey page does not offer the download for Excel")
	}
	rec := get(rs, "/surveys/"+e.survA.ID+"/export?format=xlsx&timeRange=all-time")
	if rec.Code != http.StatusOK {
		t.Fatalf("the download: %d %s", rec.Code, rec.Body)
	}
	f, err := excelize.OpenReader(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatalf("the download is no spreadsheet: %v", err)
	}
	defer f.Close()
	if rows, err := f.GetRows("Responses"); err != nil || len(rows) != 2 || rows[1][0] != "rexcel00000000000000001" {
		t.Errorf("the sheet: %q, %v", rows, err)
	}
}
