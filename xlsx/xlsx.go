// Package xlsx writes svc's exports for people as Excel files (format=xlsx, and the results
// pages' "Download for Excel"), with github.com/xuri/excelize/v2. It is a package of its own so
// that an app that does not ask for spreadsheets links no excelize:
//
//	h, err := svc.NewHandler(st, &svc.Options{Spreadsheets: xlsx.New()})
//
// A file has one sheet, "Responses": the columns of the CSV for people (question titles as
// headers), scores as numbers, times as dates, and the header row frozen. Rows are streamed to
// a temporary file as they come, so an export of a million responses holds a bounded part of
// itself in memory; the file is written out when the export ends.
package xlsx

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/svc-feedback/svc/internal/report"
)

// sheetName is the one sheet of an export.
const sheetName = "Responses"

// Writer writes svc's exports as xlsx files: give it to svc.Options.Spreadsheets.
type Writer struct{}

// New returns the xlsx writer for svc.Options.Spreadsheets.
func New() *Writer { return &Writer{} }

// NewSheet starts a file of one sheet, written to w when the sheet is closed, whose first row,
// head, is frozen.
func (*Writer) NewSheet(w io.Writer, head []string) (report.Sheet, error) {
	f := excelize.NewFile()
	if err := f.SetSheetName("Sheet1", sheetName); err != nil {
		f.Close()
		return nil, fmt.Errorf("xlsx: %w", err)
	}
	sw, err := f.NewStreamWriter(sheetName)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("xlsx: %w", err)
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		f.Close()
		return nil, fmt.Errorf("xlsx: freeze the header row: %w", err)
	}
	dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 22}) // m/d/yy h:mm, shown in the reader's own format
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("xlsx: %w", err)
	}
	s := &sheet{f: f, sw: sw, out: w, dateStyle: dateStyle}
	cells := make([]any, len(head))
	for i, h := range head {
		cells[i] = excelize.Cell{Value: h}
	}
	if err := s.set(cells); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// sheet is one export's file, streamed.
type sheet struct {
	f         *excelize.File
	sw        *excelize.StreamWriter
	out       io.Writer
	row       int // the rows written
	dateStyle int
	cells     []any
}

// WriteRow writes a response's row: strings as text, json.Numbers as numbers, times as dates.
func (s *sheet) WriteRow(row []any) error {
	s.cells = s.cells[:0]
	for _, v := range row {
		switch v := v.(type) {
		case json.Number:
			if n, err := v.Float64(); err == nil {
				s.cells = append(s.cells, excelize.Cell{Value: n})
				continue
			}
			s.cells = append(s.cells, excelize.Cell{Value: string(v)})
		case time.Time:
			// A spreadsheet's dates have no zone: UTC, as the API writes them.
			s.cells = append(s.cells, excelize.Cell{Value: v.UTC(), StyleID: s.dateStyle})
		case string:
			s.cells = append(s.cells, excelize.Cell{Value: v})
		default:
			s.cells = append(s.cells, excelize.Cell{Value: fmt.Sprint(v)})
		}
	}
	return s.set(s.cells)
}

func (s *sheet) set(cells []any) error {
	s.row++
	at, err := excelize.CoordinatesToCellName(1, s.row)
	if err != nil {
		return fmt.Errorf("xlsx: row %d: %w", s.row, err)
	}
	if err := s.sw.SetRow(at, cells); err != nil {
		return fmt.Errorf("xlsx: row %d: %w", s.row, err)
	}
	return nil
}

// Close ends the sheet and writes the whole file, then frees its temporary files.
func (s *sheet) Close() error {
	defer s.f.Close()
	if err := s.sw.Flush(); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	if _, err := s.f.WriteTo(s.out); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	return nil
}
