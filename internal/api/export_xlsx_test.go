package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/svc-feedback/svc/internal/api"
	"github.com/svc-feedback/svc/xlsx"
)

// TestExportXLSX: format=xlsx, where the server writes spreadsheets, is the export for people
// as an Excel file: one sheet of the same columns, scores as numbers, times as dates, the header
// row frozen; where it does not, a 400 names the option that turns it on.
func TestExportXLSX(t *testing.T) {
	e := setup(t, func(c *api.Config) { c.Spreadsheets = xlsx.New() })
	e.putResponse(e.survA.ID, "rsheet000000000000000001", "ann", `{"nps":9,"missing":["Speed","Docs"],"comments":"=1+1"}`)
	rec := e.protected("/v1/protected/surveys/" + e.survA.ID + "/responses/export?format=xlsx")
	wantStatus(t, rec, http.StatusOK, "")
	if ct := rec.Header().Get("Content-Type"); ct != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := rec.Header().Get("Content-Disposition"); !strings.HasSuffix(cd, `-responses.xlsx"`) {
		t.Errorf("Content-Disposition %q", cd)
	}
	f, err := excelize.OpenReader(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatalf("the file does not open as a spreadsheet: %v", err)
	}
	defer f.Close()
	if sheets := f.GetSheetList(); len(sheets) != 1 || sheets[0] != "Responses" {
		t.Fatalf("sheets %v", sheets)
	}
	rows, err := f.GetRows("Responses")
	if err != nil || len(rows) != 2 {
		t.Fatalf("%v: %d rows", err, len(rows))
	}
	if rows[0][0] != "Response" || rows[0][2] != "Created" || rows[0][5] != "How likely are you to recommend us to a friend?" {
		t.Errorf("header %q", rows[0])
	}
	if rows[1][0] != "rsheet000000000000000001" || rows[1][8] != "Speed; Docs" {
		t.Errorf("ann's row %q", rows[1])
	}
	// The score is a number, the time a date, the text that looks like a formula text.
	if typ, _ := f.GetCellType("Responses", "F2"); typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
		t.Errorf("the NPS cell is of type %v, want a number", typ)
	}
	if v, _ := f.GetCellValue("Responses", "F2", excelize.Options{RawCellValue: true}); v != "9" {
		t.Errorf("the NPS cell holds %q", v)
	}
	raw, _ := f.GetCellValue("Responses", "C2", excelize.Options{RawCellValue: true})
	created, err := excelize.ExcelDateToTime(mustFloat(t, raw), false)
	if err != nil || created.Sub(t0).Abs() > time.Second {
		t.Errorf("the Created cell %q reads as %v, want %v", raw, created, t0)
	}
	if formula, _ := f.GetCellFormula("Responses", "K2"); formula != "" {
		t.Errorf("an answer was written as a formula: %q", formula)
	}
	panes, err := f.GetPanes("Responses")
	if err != nil || !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("the header row is not frozen: %+v, %v", panes, err)
	}

	plain := setup(t)
	rec = plain.protected("/v1/protected/surveys/" + plain.survA.ID + "/responses/export?format=xlsx")
	wantStatus(t, rec, http.StatusBadRequest, "invalid_request")
	if !strings.Contains(rec.Body.String(), "svc.Options.Spreadsheets") {
		t.Errorf("the refusal does not name the option: %s", rec.Body)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil {
		t.Fatalf("%q is not a number: %v", s, err)
	}
	return f
}
