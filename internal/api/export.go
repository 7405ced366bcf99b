package api

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/svc-feedback/svc/internal/wire"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// exportPage is how many responses an export reads from the store at a time: its memory is
// that of one page, whatever the number of responses.
const exportPage = 100

// handleResponseGet serves "GET /v1/protected/surveys/{surveyId}/responses/{responseId}".
func (h *Handler) handleResponseGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, id, err := h.responseTarget(r, teamID)
	if err != nil {
		return err
	}
	resp, err := h.store.Response(r.Context(), sv.ID, id)
	if err != nil {
		return err
	}
	b := append([]byte(`{"data":`), wire.AppendResponse(nil, resp, true)...)
	writeBody(w, http.StatusOK, append(b, "}\n"...))
	return nil
}

// responseTarget is the request's survey of the team and its {responseId}, canonical (a UUID
// lower-cased).
func (h *Handler) responseTarget(r *http.Request, teamID string) (store.Survey, string, error) {
	sv, err := h.surveyFor(r, teamID, notDeleted)
	if err != nil {
		return store.Survey{}, "", err
	}
	id := r.PathValue("responseId")
	if !store.ValidResponseID(id) {
		return store.Survey{}, "", badRequest(fmt.Sprintf("responseId %q is not a cuid2 or a UUID", wire.Truncate(id)))
	}
	return sv, store.CanonicalResponseID(id), nil
}

// handleExport serves "GET /v1/protected/surveys/{surveyId}/responses/export": every response
// matching the list's filters, oldest first, streamed as CSV (the default) or NDJSON.
func (h *Handler) handleExport(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	format, err := exportFormat(q)
	if err != nil {
		return err
	}
	var rq store.ResponseQuery
	sv, err := h.filteredQuery(r, teamID, q, &rq)
	if err != nil {
		return err
	}
	return h.export(w, r, sv, format, rq)
}

// exportFormat is the request's format: "csv" (the default) or "ndjson".
func exportFormat(q map[string][]string) (string, error) {
	format, err := wire.Query(q, "format")
	if err != nil {
		return "", err
	}
	if format == "" {
		format = "csv"
	}
	if format != "csv" && format != "ndjson" {
		return "", badRequest(`format is "csv" (the default) or "ndjson"`)
	}
	return format, nil
}

// export streams the responses rq finds in survey sv, in format. An error before the reply
// starts is returned; after, it cuts the stream.
func (h *Handler) export(w http.ResponseWriter, r *http.Request, sv store.Survey, format string, rq store.ResponseQuery) error {
	rq.SurveyID, rq.Limit, rq.Oldest, rq.MaxBytes = sv.ID, exportPage, true, h.opts.MaxPageBytes
	// The first page is read before the reply starts, so that a failing store is still an error
	// reply; later failures can only cut the stream short.
	page, next, err := h.store.Responses(r.Context(), rq)
	if err != nil {
		return err
	}
	out := startExport(w, format, sv)
	if r.Method == http.MethodHead {
		return nil // the headers say what a GET would stream; no need to read it all
	}
	for {
		for _, resp := range page {
			if err := out.write(resp); err != nil {
				h.log.WarnContext(r.Context(), "export cut short", "survey", sv.ID, "err", err)
				return nil
			}
		}
		if next == nil {
			break
		}
		rq.Cursor = next
		if page, next, err = h.store.Responses(r.Context(), rq); err != nil {
			// The status is sent: the client sees a cut stream (no final newline in CSV's last
			// row is not guaranteed, so it is logged for the operator).
			h.log.ErrorContext(r.Context(), "export failed after it started", "survey", sv.ID, "err", err)
			panic(http.ErrAbortHandler) // drop the connection, so the client cannot take it for whole
		}
	}
	if err := out.flush(); err != nil {
		h.log.WarnContext(r.Context(), "export cut short", "survey", sv.ID, "err", err)
	}
	return nil
}

// filteredQuery reads the list's filters (respondent, after, before) into rq and loads the
// request's survey, whose id it sets in rq.
func (h *Handler) filteredQuery(r *http.Request, teamID string, q map[string][]string, rq *store.ResponseQuery) (store.Survey, error) {
	if err := responseFilters(q, rq); err != nil {
		return store.Survey{}, err
	}
	sv, err := h.surveyFor(r, teamID, notDeleted)
	rq.SurveyID = sv.ID
	return sv, err
}

// startExport sends an export's headers and returns the writer of its format.
func startExport(w http.ResponseWriter, format string, sv store.Survey) exportWriter {
	hd := w.Header()
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-responses.%s"`, sv.ID, format))
	var out exportWriter
	if format == "csv" {
		hd.Set("Content-Type", "text/csv; charset=utf-8")
		out = newCSVExport(w, sv.Definition)
	} else {
		hd.Set("Content-Type", "application/x-ndjson")
		out = &ndjsonExport{w: w}
	}
	w.WriteHeader(http.StatusOK)
	return out
}

// responseFilters reads the list's filters (respondent, after, before) into rq.
func responseFilters(q map[string][]string, rq *store.ResponseQuery) error {
	var err error
	if rq.Respondent, err = wire.Query(q, "respondent"); err != nil {
		return err
	}
	if _, given := q["respondent"]; given {
		if err := store.ValidateRespondent(rq.Respondent); err != nil {
			return badRequest(fmt.Sprintf("respondent must be 1 to %d characters", store.MaxRespondentChars))
		}
	}
	if rq.After, err = parseTimeParam(q, "after"); err != nil {
		return err
	}
	if rq.Before, err = parseTimeParam(q, "before"); err != nil {
		return err
	}
	if !rq.After.IsZero() && !rq.Before.IsZero() && rq.After.After(rq.Before) {
		return badRequest("after must not be later than before")
	}
	return nil
}

// exportWriter writes the responses of an export in one format.
type exportWriter interface {
	write(r store.Response) error
	flush() error
}

// ndjsonExport writes one response per line, as the protected API shows it.
type ndjsonExport struct {
	w   http.ResponseWriter
	buf []byte
}

func (e *ndjsonExport) write(r store.Response) error {
	e.buf = append(wire.AppendResponse(e.buf[:0], r, false), '\n')
	_, err := e.w.Write(e.buf)
	return err
}

func (e *ndjsonExport) flush() error { return nil }

// csvExport writes a header row, then a row per response: id, respondent, createdAt,
// updatedAt, finished, one column per question in position order, and metadata.
type csvExport struct {
	w         *csv.Writer
	questions []string
	row       []string
	wroteHead bool
	head      []string
}

func newCSVExport(w http.ResponseWriter, d survey.Definition) *csvExport {
	head := []string{"id", "respondent", "createdAt", "updatedAt", "finished"}
	var questions []string
	for _, q := range d.Questions {
		questions = append(questions, q.ID)
	}
	head = append(append(head, questions...), "metadata")
	return &csvExport{w: csv.NewWriter(w), questions: questions, head: head}
}

func (e *csvExport) write(r store.Response) error {
	if !e.wroteHead {
		e.wroteHead = true
		if err := e.w.Write(safeCells(e.head)); err != nil {
			return err
		}
	}
	var answers map[string]json.RawMessage
	if len(r.Data) > 0 {
		if err := json.Unmarshal(r.Data, &answers); err != nil {
			return fmt.Errorf("response %s: %w", r.ID, err)
		}
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
	if err := e.w.Write(safeCells(e.row)); err != nil {
		return err
	}
	return e.w.Error()
}

func (e *csvExport) flush() error {
	if !e.wroteHead {
		e.wroteHead = true
		if err := e.w.Write(safeCells(e.head)); err != nil {
			return err
		}
	}
	e.w.Flush()
	return e.w.Error()
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

// handleResponseDelete serves "DELETE /v1/protected/surveys/{surveyId}/responses/{responseId}":
// the response is gone for good, from lists, stats, score distributions and history, and its
// unsent delivery with it.
func (h *Handler) handleResponseDelete(w http.ResponseWriter, r *http.Request, teamID string) error {
	sv, id, err := h.responseTarget(r, teamID)
	if err != nil {
		return err
	}
	if err := h.store.DeleteResponse(r.Context(), sv.ID, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleRespondentErase serves "DELETE /v1/protected/respondents/{respondent}": the person's
// responses and events are erased from every survey of the team (GDPR article 17).
func (h *Handler) handleRespondentErase(w http.ResponseWriter, r *http.Request, teamID string) error {
	respondent := r.PathValue("respondent")
	if err := store.ValidateRespondent(respondent); err != nil {
		return badRequest(fmt.Sprintf("respondent must be 1 to %d characters", store.MaxRespondentChars))
	}
	erased, err := h.store.EraseRespondent(r.Context(), teamID, respondent)
	if err != nil {
		return err
	}
	h.log.InfoContext(r.Context(), "respondent erased", "team", teamID, "responses", erased.Responses, "events", erased.Events)
	h.writeJSON(w, http.StatusOK, struct {
		Data struct {
			Responses int `json:"responses"`
			Events    int `json:"events"`
		} `json:"data"`
	}{Data: struct {
		Responses int `json:"responses"`
		Events    int `json:"events"`
	}{erased.Responses, erased.Events}})
	return nil
}
