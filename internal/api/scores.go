package api

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/wire"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// period is a half-open time range [Start, End).
type period struct {
	Start, End time.Time
}

var (
	quarterRE = regexp.MustCompile(`^q([1-4])-(\d{4})$`)
	customRE  = regexp.MustCompile(`^custom_(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})$`)
)

// parseTimeRange turns a timeRange value into its current period and the previous period of
// equal length (nil for all-time). All ranges are UTC; created is the survey's creation time,
// where all-time starts.
func parseTimeRange(s string, now, created time.Time) (period, *period, error) {
	now = now.UTC()
	rolling := func(days int) (period, *period, error) {
		d := time.Duration(days) * 24 * time.Hour
		return period{now.Add(-d), now}, &period{now.Add(-2 * d), now.Add(-d)}, nil
	}
	switch s {
	case "", "all-time":
		return period{created.UTC(), now}, nil, nil
	case "last-7-days":
		return rolling(7)
	case "last-30-days":
		return rolling(30)
	}
	var cur, prev period
	if m := quarterRE.FindStringSubmatch(s); m != nil {
		q, _ := strconv.Atoi(m[1])
		year, _ := strconv.Atoi(m[2])
		start := time.Date(year, time.Month(3*(q-1)+1), 1, 0, 0, 0, 0, time.UTC)
		cur, prev = period{start, start.AddDate(0, 3, 0)}, period{start.AddDate(0, -3, 0), start}
	} else if m := customRE.FindStringSubmatch(s); m != nil {
		first, err1 := time.Parse(time.DateOnly, m[1])
		last, err2 := time.Parse(time.DateOnly, m[2])
		if err1 != nil || err2 != nil {
			return period{}, nil, badRequest(fmt.Sprintf("timeRange %q holds a date that does not exist", wire.Truncate(s)))
		}
		if last.Before(first) {
			return period{}, nil, badRequest("timeRange custom range ends before it starts")
		}
		// Counted in whole days, not as a time.Duration, which saturates at about 292 years.
		end := last.AddDate(0, 0, 1)
		days := int((end.Unix() - first.Unix()) / (24 * 60 * 60))
		cur, prev = period{first, end}, period{first.AddDate(0, 0, -days), first}
	} else {
		return period{}, nil, badRequest(fmt.Sprintf("timeRange %q is not all-time, last-7-days, last-30-days, qN-YYYY or custom_YYYY-MM-DD_YYYY-MM-DD", wire.Truncate(s)))
	}
	// Both periods go out as RFC 3339 date-times, whose years run from 0000 to 9999.
	if prev.Start.Year() < 0 || cur.End.Year() > 9999 {
		return period{}, nil, badRequest(fmt.Sprintf("timeRange %q reaches outside the years 0000 to 9999 (with the period of equal length before it, which the reply also holds)", wire.Truncate(s)))
	}
	return cur, &prev, nil
}

// parseQuestionIDs reads questionIds, repeated or comma-separated; nil means all.
func parseQuestionIDs(values []string) []string {
	var ids []string
	for _, v := range values {
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// questionDistribution is one rating question's score counts in a period.
type questionDistribution struct {
	QuestionID string      `json:"questionId"`
	Title      string      `json:"title"`
	Scale      int         `json:"scale"`
	Total      int64       `json:"total"`
	Average    *float64    `json:"average"`
	Counts     scoreCounts `json:"counts"`
}

// scoreCounts are counts by score from Low to Low+len-1, written as a JSON object with every
// score key in numeric order.
type scoreCounts struct {
	Low int
	N   []int64
}

// MarshalJSON writes {"1": n, ..., "scale": n}.
func (c scoreCounts) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, n := range c.N {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%d":%d`, c.Low+i, n)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

type periodJSON struct {
	Start     wire.Time              `json:"start"`
	End       wire.Time              `json:"end"`
	Questions []questionDistribution `json:"questions"`
}

// handleScoreDistributionsGet serves "GET /v1/protected/surveys/{surveyId}/score-distributions".
func (h *Handler) handleScoreDistributionsGet(w http.ResponseWriter, r *http.Request, teamID string) error {
	q, err := queryValues(r)
	if err != nil {
		return err
	}
	sv, tr, cur, prev, err := h.rangeOf(r, teamID, q)
	if err != nil {
		return err
	}
	var questions []*survey.Question
	ids := parseQuestionIDs(q["questionIds"])
	if len(ids) == 0 {
		for i := range sv.Questions {
			if sv.Questions[i].Type() == survey.TypeRating {
				questions = append(questions, &sv.Questions[i])
			}
		}
	}
	seen := make(map[string]bool)
	for _, id := range ids {
		qu, ok := sv.Definition.Question(id)
		if !ok || qu.Type() != survey.TypeRating {
			return badRequest(fmt.Sprintf("questionIds: %q is not a rating question of this survey", wire.Truncate(id)))
		}
		if !seen[id] {
			seen[id] = true
			questions = append(questions, qu)
		}
	}
	return writePeriods(h, w, tr, cur, prev, func(p period) (periodJSON, error) { return h.distribution(r, sv.ID, questions, p) })
}

// writePeriods writes {"data": {"timeRange", "current", "previous"}}, each period as of reads
// it (previous null when there is none).
func writePeriods[T any](h *Handler, w http.ResponseWriter, tr string, cur period, prev *period, of func(period) (T, error)) error {
	current, err := of(cur)
	if err != nil {
		return err
	}
	var previous *T
	if prev != nil {
		p, err := of(*prev)
		if err != nil {
			return err
		}
		previous = &p
	}
	type dataJSON struct {
		TimeRange string `json:"timeRange"`
		Current   T      `json:"current"`
		Previous  *T     `json:"previous"`
	}
	h.writeJSON(w, http.StatusOK, struct {
		Data dataJSON `json:"data"`
	}{dataJSON{tr, current, previous}})
	return nil
}

// rangeOf reads the request's survey of the team and its timeRange (all-time when absent):
// the current period and the previous one (nil for all-time).
func (h *Handler) rangeOf(r *http.Request, teamID string, q map[string][]string) (store.Survey, string, period, *period, error) {
	tr, err := wire.Query(q, "timeRange")
	if err != nil {
		return store.Survey{}, "", period{}, nil, err
	}
	sv, err := h.surveyFor(r, teamID, notDeleted)
	if err != nil {
		return store.Survey{}, "", period{}, nil, err
	}
	cur, prev, err := parseTimeRange(tr, h.now(), sv.CreatedAt)
	if tr == "" {
		tr = "all-time"
	}
	return sv, tr, cur, prev, err
}

func (h *Handler) distribution(r *http.Request, surveyID string, questions []*survey.Question, p period) (periodJSON, error) {
	ids := make([]string, len(questions))
	for i, q := range questions {
		ids[i] = q.ID
	}
	counts, err := h.store.RatingCounts(r.Context(), surveyID, ids, p.Start, p.End)
	if err != nil {
		return periodJSON{}, err
	}
	out := periodJSON{Start: wire.Time(p.Start), End: wire.Time(p.End), Questions: make([]questionDistribution, 0, len(questions))}
	for _, q := range questions {
		props := q.Properties.(survey.RatingProperties)
		low := 1
		if props.Display != nil && *props.Display == survey.DisplayNPS {
			low = 0
		}
		d := questionDistribution{QuestionID: q.ID, Title: q.Title, Scale: props.Scale,
			Counts: scoreCounts{Low: low, N: make([]int64, props.Scale-low+1)}}
		var sum int64
		for score, n := range counts[q.ID] {
			if score < low || score > props.Scale {
				continue // a score from before the scale changed
			}
			d.Counts.N[score-low] = n
			d.Total += n
			sum += int64(score) * n
		}
		if d.Total > 0 {
			avg := float64(sum) / float64(d.Total)
			d.Average = &avg
		}
		out.Questions = append(out.Questions, d)
	}
	return out, nil
}
