package report

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The formats of an export.
const (
	FormatCSV    = "csv"
	FormatNDJSON = "ndjson"
	// FormatXLSX is the export for people as a spreadsheet, where a Spreadsheet writes one.
	FormatXLSX = "xlsx"
)

// exportPage is how many responses an export reads from the store at a time: its memory is
// that of one page, whatever the number of responses.
const exportPage = 100

// ErrCut is wrapped by Export's error when the store failed after the export had started: what
// was written is incomplete, and must not be taken for whole (cut the connection).
var ErrCut = errors.New("report: the export was cut short by the store")

// Writer writes the responses of an export in one format.
type Writer interface {
	Write(r store.Response) error
	// Flush ends the export.
	Flush() error
}

// NewWriter returns a Writer of format to w: FormatCSV, a header row (id, respondent,
// createdAt, updatedAt, finished, one column per question of def in position order headed by
// its id, metadata, and language for a survey with translations) and a row per response; or
// FormatNDJSON, one response per line as the
// protected API shows it.
func NewWriter(w io.Writer, format string, def survey.Definition) Writer {
	if format == FormatNDJSON {
		return &ndjsonWriter{w: w}
	}
	head := []string{"id", "respondent", "createdAt", "updatedAt", "finished"}
	var questions []string
	for _, q := range def.Questions {
		questions = append(questions, q.ID)
	}
	head = append(append(head, questions...), "metadata")
	// Last, and only where there are languages: a survey without them keeps the header it always had.
	languages := def.Languages != nil
	if languages {
		head = append(head, "language")
	}
	return &csvWriter{csvRows: csvRows{w: csv.NewWriter(w), head: head}, questions: questions, languages: languages}
}

// Export reads every response q finds in sv, oldest first, a page at a time, and writes them
// to the Writer that start returns. start is called once the first page has been read, so that
// a store that fails at once is an error its caller can still answer; it returns nil to write
// nothing (the reply to a HEAD request). A store failing after that returns an error wrapping
// ErrCut; the writer failing (the client gone) returns the writer's error.
func Export(ctx context.Context, s store.Store, sv store.Survey, q store.ResponseQuery, f Filter, maxPageBytes int, start func() Writer) error {
	q.SurveyID, q.Limit, q.Oldest, q.MaxBytes, q.Narrow = sv.ID, exportPage, true, maxPageBytes, f.narrowing()
	page, next, err := s.Responses(ctx, q)
	if err != nil {
		return err
	}
	out := start()
	if out == nil {
		return nil
	}
	m := f.matcher()
	for {
		for _, resp := range page {
			if !m.Match(resp) {
				continue
			}
			if err := out.Write(resp); err != nil {
				return err
			}
		}
		if next == nil {
			return out.Flush()
		}
		q.Cursor = next
		if page, next, err = s.Responses(ctx, q); err != nil {
			return fmt.Errorf("%w: %w", ErrCut, err)
		}
	}
}

// ndjsonWriter writes one response per line, as the protected API shows it.
type ndjsonWriter struct {
	w   io.Writer
	buf []byte
}

func (e *ndjsonWriter) Write(r store.Response) error {
	e.buf = append(wire.AppendResponse(e.buf[:0], r, false), '\n')
	_, err := e.w.Write(e.buf)
	return err
}

func (e *ndjsonWriter) Flush() error { return nil }

// csvRows writes a CSV export's rows: its header row before the first response's (or at Flush,
// for none), every cell guarded by safeCells.
type csvRows struct {
	w         *csv.Writer
	head      []string
	wroteHead bool
	bom       io.Writer // when set, where a UTF-8 byte order mark goes before the header row
}

func (c *csvRows) writeHead() error {
	if c.wroteHead {
		return nil
	}
	c.wroteHead = true
	if c.bom != nil {
		// Straight to the output: the csv.Writer has buffered nothing yet.
		if _, err := io.WriteString(c.bom, "\uFEFF"); err != nil {
			return err
		}
	}
	return c.w.Write(safeCells(c.head))
}

// writeRow writes a response's row, after the header row.
func (c *csvRows) writeRow(row []string) error {
	if err := c.writeHead(); err != nil {
		return err
	}
	if err := c.w.Write(safeCells(row)); err != nil {
		return err
	}
	return c.w.Error()
}

func (c *csvRows) Flush() error {
	if err := c.writeHead(); err != nil {
		return err
	}
	c.w.Flush()
	return c.w.Error()
}

// rawAnswers are a stored response's answers by question id, each as its JSON.
func rawAnswers(r store.Response) (map[string]json.RawMessage, error) {
	var answers map[string]json.RawMessage
	if len(r.Data) > 0 {
		if err := json.Unmarshal(r.Data, &answers); err != nil {
			return nil, fmt.Errorf("response %s: %w", r.ID, err)
		}
	}
	return answers, nil
}

// csvWriter writes the CSV of question ids.
type csvWriter struct {
	csvRows
	questions []string
	languages bool
	row       []string
}

func (e *csvWriter) Write(r store.Response) error {
	answers, err := rawAnswers(r)
	if err != nil {
		return err
	}
	e.row = append(e.row[:0], r.ID, r.Respondent, string(wire.AppendTime(nil, r.CreatedAt)), string(wire.AppendTime(nil, r.UpdatedAt)), strconv.FormatBool(r.Finished))
	for _, q := range e.questions {
		e.row = append(e.row, csvCell(answers[q]))
	}
	meta := string(r.Metadata)
	if meta == "" {
		meta = "{}"
	}
	e.row = append(e.row, meta)
	if e.languages {
		e.row = append(e.row, r.Language)
	}
	return e.writeRow(e.row)
}

// csvCell is an answer as a cell: a string as it is, a number as its JSON, anything else (lists,
// bug reports) as JSON text; no answer is an empty cell.
func csvCell(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return s
		}
	}
	return string(raw)
}

// formulaStarts are the first characters that make a spreadsheet take a cell for a formula:
// OWASP's list (=, +, -, @, tab, carriage return), and a line feed, which some also skip.
const formulaStarts = "=+-@\t\r\n"

// safeCells guards against formula injection: a cell that begins with one of formulaStarts
// gets a leading ' so that a spreadsheet shows it as text rather than running it.
func safeCells(row []string) []string {
	for i, c := range row {
		if c != "" && strings.IndexByte(formulaStarts, c[0]) >= 0 {
			row[i] = "'" + c
		}
	}
	return row
}

// ExportOptions say what an export writes.
type ExportOptions struct {
	// Format is FormatCSV, FormatNDJSON or FormatXLSX.
	Format string
	// Sheets writes FormatXLSX.
	Sheets Spreadsheet
	// Titles makes the CSV for people (header=titles): see people.go.
	Titles bool
	// Link gives the address at which a response, and its screenshot, are seen; it is given
	// in the CSV for people instead of the screenshot.
	Link func(responseID string) string
	// Filter picks the responses exported.
	Filter Filter
}

// ParseExport reads an export's format (FormatCSV, the default, FormatNDJSON, or FormatXLSX
// when sheets writes spreadsheets) and header (ids, the default, or titles, for a CSV; a
// spreadsheet always has titles) parameters; another value is an error that wraps
// store.ErrInvalid.
func ParseExport(q url.Values, sheets Spreadsheet) (ExportOptions, error) {
	format, err := wire.Query(q, "format")
	if err != nil {
		return ExportOptions{}, err
	}
	header, err := wire.Query(q, "header")
	if err != nil {
		return ExportOptions{}, err
	}
	var o ExportOptions
	switch format {
	case "", FormatCSV:
		o.Format = FormatCSV
	case FormatNDJSON:
		o.Format = FormatNDJSON
	case FormatXLSX:
		if sheets == nil {
			return ExportOptions{}, store.Invalidf(`format "xlsx": this server writes no spreadsheets (its operator turns them on with svc.Options.Spreadsheets, package xlsx); "csv" and "ndjson" are written`)
		}
		o.Format, o.Titles, o.Sheets = FormatXLSX, true, sheets
	default:
		return ExportOptions{}, store.Invalidf(`format is "csv" (the default), "ndjson" or, where the server writes spreadsheets, "xlsx"`)
	}
	switch {
	case header == "titles" && o.Format != FormatNDJSON:
		o.Titles = true
	case header != "" && header != "ids" || header == "ids" && o.Format == FormatXLSX:
		return ExportOptions{}, store.Invalidf(`header is "ids" (the default) or, for a CSV, "titles"; a spreadsheet has titles`)
	}
	return o, nil
}

// ServeExport serves an export of sv's responses that q finds as a download in format, as the
// JSON API and the results pages both do: an error before the reply starts is returned for the
// caller to answer; once started, a failing client ends it quietly (logged), and a failing store
// drops the connection, so the client cannot take a cut export for whole.
func ServeExport(w http.ResponseWriter, r *http.Request, log *slog.Logger, s store.Store, sv store.Survey, o ExportOptions, q store.ResponseQuery, maxPageBytes int) error {
	format := o.Format
	var metaKeys []string
	if o.Titles {
		var err error
		if metaKeys, err = MetadataKeys(r.Context(), s, sv, q, o.Filter, maxPageBytes); err != nil {
			return err
		}
	}
	started := false
	err := Export(r.Context(), s, sv, q, o.Filter, maxPageBytes, func() Writer {
		started = true
		hd := w.Header()
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-responses.%s"`, sv.ID, format))
		switch format {
		case FormatCSV:
			hd.Set("Content-Type", "text/csv; charset=utf-8")
		case FormatXLSX:
			hd.Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		default:
			hd.Set("Content-Type", "application/x-ndjson")
		}
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodHead {
			return nil // the headers say what a GET would stream; no need to read it all
		}
		if o.Titles {
			pw, err := newPeopleWriter(w, sv.Definition, metaKeys, o.Link, o.Sheets)
			if err != nil {
				return failedWriter{err}
			}
			return pw
		}
		return NewWriter(w, format, sv.Definition)
	})
	switch {
	case errors.Is(err, ErrCut):
		log.ErrorContext(r.Context(), "export failed after it started", "survey", sv.ID, "err", err)
		panic(http.ErrAbortHandler)
	case started && err != nil:
		log.WarnContext(r.Context(), "export cut short", "survey", sv.ID, "err", err)
		return nil
	}
	return err
}

// failedWriter is a Writer that could not start: each call returns its error.
type failedWriter struct{ err error }

func (f failedWriter) Write(store.Response) error { return f.err }
func (f failedWriter) Flush() error               { return f.err }
