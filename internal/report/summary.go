package report

import (
	"context"
	"math"

	"github.com/svc-feedback/svc/internal/wire"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// latestAnswers is how many of an open-ended question's newest answers a summary shows, and
// latestScan how many of the period's newest responses it reads to find them: a bound, so a
// question few answer costs no more than one many do.
const (
	latestAnswers = 3
	latestScan    = 200
)

// SummaryPeriod is a survey's summary over one period.
type SummaryPeriod struct {
	Start     wire.Time         `json:"start"`
	End       wire.Time         `json:"end"`
	Funnel    Funnel            `json:"funnel"`
	Questions []QuestionSummary `json:"questions"`
}

// Funnel is how many saw the survey, started and finished it in the period.
type Funnel struct {
	Views      int64 `json:"views"`
	Dismissals int64 `json:"dismissals"`
	Started    int64 `json:"started"`
	Finished   int64 `json:"finished"`
}

// QuestionSummary is one question in a period: how many reached it and answered it, and what
// they answered, by its type.
type QuestionSummary struct {
	QuestionID string `json:"questionId"`
	Title      string `json:"title"`
	Type       string `json:"type"`
	Position   int    `json:"position"`
	Reached    int64  `json:"reached"`
	Answered   int64  `json:"answered"`

	// Rating questions.
	Scale   int          `json:"scale,omitempty"`
	Counts  *ScoreCounts `json:"counts,omitempty"`
	Average *float64     `json:"average,omitempty"`
	// NPS (display "nps"): per cent promoters (9, 10) less per cent detractors (0 to 6), and
	// how many of each and of passives (7, 8).
	NPS        *float64 `json:"nps,omitempty"`
	Promoters  *int64   `json:"promoters,omitempty"`
	Passives   *int64   `json:"passives,omitempty"`
	Detractors *int64   `json:"detractors,omitempty"`
	// CSAT (a 5-point scale): per cent of 4 and 5.
	CSAT *float64 `json:"csat,omitempty"`

	// Single- and multi-select questions: each option's count, and, for one with editable
	// text, the free-text answers' count.
	Options []OptionCount `json:"options,omitempty"`
	Other   *int64        `json:"other,omitempty"`

	// Open-ended questions, and select questions with editable text: the newest answers
	// written (for a select question, its free texts).
	Latest []LatestAnswer `json:"latest,omitempty"`

	// Matrix, ranking, date, consent and call-to-action questions (moresummary.go).
	MoreSummary
}

type OptionCount struct {
	Value string `json:"value"`
	Count int64  `json:"count"`
}

type LatestAnswer struct {
	ResponseID string    `json:"responseId"`
	Text       string    `json:"text"`
	CreatedAt  wire.Time `json:"createdAt"`
}

// Summary works out sv's summary over p: the funnel, and per question in position order how
// many reached and answered it and what, every count from those the store keeps on write, so
// that its cost does not grow with the responses; and the newest texts written, read through a
// store.TextReader when s has one (else from the responses, at most maxPageBytes of answers a
// page).
func Summary(ctx context.Context, s store.Store, sv store.Survey, p Period, maxPageBytes int) (SummaryPeriod, error) {
	keys := []string{store.AnsweredKey, store.ReachedKey, store.FunnelKey, store.EventsKey}
	for i := range sv.Questions {
		switch sv.Questions[i].Type() {
		case survey.TypeRating:
			keys = append(keys, sv.Questions[i].ID)
		case survey.TypeSingleSelect, survey.TypeMultiSelect:
			keys = append(keys, store.OptionKey(sv.Questions[i].ID))
		default:
			if moreSummaryKey(&sv.Questions[i]) {
				keys = append(keys, store.OptionKey(sv.Questions[i].ID))
			}
		}
	}
	counts, latest, err := countsAndLatest(ctx, s, sv, keys, p, maxPageBytes)
	if err != nil {
		return SummaryPeriod{}, err
	}
	out := SummaryPeriod{Start: wire.Time(p.Start), End: wire.Time(p.End), Questions: make([]QuestionSummary, 0, len(sv.Questions)),
		Funnel: Funnel{Views: counts[store.EventsKey][0], Dismissals: counts[store.EventsKey][1],
			Started: counts[store.FunnelKey][0], Finished: counts[store.FunnelKey][1]}}
	for i := range sv.Questions {
		q := &sv.Questions[i]
		qs := QuestionSummary{QuestionID: q.ID, Title: q.Title, Type: q.Type(), Position: q.Position,
			Reached: counts[store.ReachedKey][q.Position], Answered: counts[store.AnsweredKey][q.Position]}
		switch props := q.Properties.(type) {
		case survey.RatingProperties:
			rateSummary(&qs, props, counts[q.ID])
		case survey.SingleSelectProperties:
			choiceSummary(&qs, props.Options, props.Editable != nil, counts[store.OptionKey(q.ID)])
		case survey.MultiSelectProperties:
			choiceSummary(&qs, props.Options, props.Editable != nil, counts[store.OptionKey(q.ID)])
		default:
			moreSummary(&qs, q, counts[store.OptionKey(q.ID)])
		}
		if _, ok := textsOf(q); ok {
			qs.Latest = latest[q.ID]
			if qs.Latest == nil {
				qs.Latest = []LatestAnswer{}
			}
		}
		out.Questions = append(out.Questions, qs)
	}
	return out, nil
}

// rateSummary fills a rating question's counts, average, and NPS or CSAT where they apply.
func rateSummary(qs *QuestionSummary, props survey.RatingProperties, counts map[int]int64) {
	nps := props.Display != nil && *props.Display == survey.DisplayNPS
	low := 1
	if nps {
		low = 0
	}
	qs.Scale = props.Scale
	qs.Counts = &ScoreCounts{Low: low, N: make([]int64, props.Scale-low+1)}
	var total, sum, high, promoters, passives, detractors int64
	for score, n := range counts {
		if score < low || score > props.Scale {
			continue // a score from before the scale changed
		}
		qs.Counts.N[score-low] = n
		total += n
		sum += int64(score) * n
		switch {
		case score >= 9:
			promoters += n
		case score >= 7:
			passives += n
		default:
			detractors += n
		}
		if score >= 4 {
			high += n
		}
	}
	if total == 0 {
		return
	}
	// Per cent, to one decimal.
	pct := func(n int64) *float64 {
		v := math.Round(1000*float64(n)/float64(total)) / 10
		return &v
	}
	avg := float64(sum) / float64(total)
	qs.Average = &avg
	if nps {
		qs.NPS = pct(promoters - detractors)
		qs.Promoters, qs.Passives, qs.Detractors = &promoters, &passives, &detractors
	}
	if props.Scale == 5 && !nps {
		qs.CSAT = pct(high)
	}
}

// choiceSummary fills a choice question's option counts, in the options' order, and, when it
// takes free text, the free-text answers' count.
func choiceSummary(qs *QuestionSummary, options []survey.Option, editable bool, counts map[int]int64) {
	qs.Options = make([]OptionCount, len(options))
	for i, o := range options {
		qs.Options[i] = OptionCount{o.Value, counts[store.OptionNumber(o.Value)]}
	}
	if editable {
		other := counts[store.OtherOption]
		qs.Other = &other
	}
}

// textsOf says whether a question takes text a person writes (an open-ended question, or a
// select question with editable text), and, for a select question, its option values: what is
// not one of them is the person's own text.
func textsOf(q *survey.Question) (options map[string]bool, ok bool) {
	var list []survey.Option
	switch p := q.Properties.(type) {
	case survey.OpenEndedProperties:
		return nil, true
	case survey.SingleSelectProperties:
		if p.Editable == nil {
			return nil, false
		}
		list = p.Options
	case survey.MultiSelectProperties:
		if p.Editable == nil {
			return nil, false
		}
		list = p.Options
	default:
		return nil, false
	}
	options = make(map[string]bool, len(list))
	for _, o := range list {
		options[o.Value] = true
	}
	return options, true
}

// countsAndLatest reads what a summary shows of p: the counts of keys, and the newest texts
// (latestTexts). A filtered store works both out from the responses it picks, which it then
// reads once for both: read apart, the texts' read went through the period's responses a
// second time, newest first, when the filter picks few of them (half a filtered summary's
// CPU).
func countsAndLatest(ctx context.Context, s store.Store, sv store.Survey, keys []string, p Period, maxPageBytes int) (map[string]map[int]int64, map[string][]LatestAnswer, error) {
	open := textQuestions(sv)
	if ss, ok := s.(*segmentStore); ok {
		counts, latest, done, err := ss.countsAndLatest(ctx, sv, keys, p, open, maxPageBytes)
		if done || err != nil {
			return counts, latest, err
		}
		s = ss.filteredStore // the segment's counts cannot say: read the responses
	}
	if fs, ok := s.(*filteredStore); ok {
		keep := 0
		if len(open) > 0 {
			keep = latestScan
		}
		counts, newest, err := fs.count(ctx, sv.ID, keys, p.Start, p.End, keep)
		if err != nil {
			return nil, nil, err
		}
		latest := map[string][]LatestAnswer{}
		pickLatest(latest, newTextReader(), newest, open)
		return counts, latest, nil
	}
	counts, err := s.Counts(ctx, sv.ID, keys, p.Start, p.End)
	if err != nil {
		return nil, nil, err
	}
	latest, err := latestTexts(ctx, s, sv.ID, open, p, maxPageBytes)
	return counts, latest, err
}

// textQuestions maps the id of each of sv's questions that take texts to its options (nil for
// an open-ended question), as textsOf gives them.
func textQuestions(sv store.Survey) map[string]map[string]bool {
	open := map[string]map[string]bool{}
	for i := range sv.Questions {
		if options, ok := textsOf(&sv.Questions[i]); ok {
			open[sv.Questions[i].ID] = options
		}
	}
	return open
}

// latestTexts finds the newest texts written for each question of open (textQuestions) among
// the period's newest responses (at most latestScan of them).
func latestTexts(ctx context.Context, s store.Store, surveyID string, open map[string]map[string]bool, p Period, maxPageBytes int) (map[string][]LatestAnswer, error) {
	out := map[string][]LatestAnswer{}
	if len(open) == 0 || !p.End.After(p.Start) {
		return out, nil
	}
	// A short first page, since the newest few responses usually hold the answers; then pages
	// of 100 up to latestScan.
	q := store.ResponseQuery{SurveyID: surveyID, After: p.Start, Before: p.End.Add(-1), Limit: 8 * latestAnswers, MaxBytes: maxPageBytes}
	tr := newTextReader()
	for scanned := 0; scanned < latestScan; q.Limit = min(100, latestScan-scanned) {
		page, next, err := textsPage(ctx, s, q)
		if err != nil {
			return nil, err
		}
		pickLatest(out, tr, page, open)
		scanned += len(page)
		if next == nil || len(page) == 0 || haveAll(out, open) {
			break
		}
		q.Cursor = next
	}
	return out, nil
}

// pickLatest adds to out the texts written in page, newest first, for each question of open
// that has fewer than latestAnswers.
func pickLatest(out map[string][]LatestAnswer, tr *textReader, page []store.ResponseTexts, open map[string]map[string]bool) {
	for _, resp := range page {
		for _, f := range tr.written(resp.Texts, open) {
			if len(out[f.id]) < latestAnswers {
				out[f.id] = append(out[f.id], LatestAnswer{resp.ID, f.text, wire.Time(resp.CreatedAt)})
			}
		}
	}
}

// textsPage reads a page of the texts of q's responses: from a store.TextReader, whose cost
// does not grow with the other answers (a bug report's screenshot), else from the responses.
func textsPage(ctx context.Context, s store.Store, q store.ResponseQuery) ([]store.ResponseTexts, *store.Cursor, error) {
	if tr, ok := s.(store.TextReader); ok {
		return tr.ResponseTexts(ctx, q)
	}
	page, next, err := s.Responses(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	texts := make([]store.ResponseTexts, len(page))
	for i, resp := range page {
		texts[i] = store.ResponseTexts{ID: resp.ID, CreatedAt: resp.CreatedAt, Texts: resp.Data}
	}
	return texts, next, nil
}

// haveAll reports whether every open-ended question has its latestAnswers, so the scan can stop.
func haveAll(out map[string][]LatestAnswer, open map[string]map[string]bool) bool {
	for id := range open {
		if len(out[id]) < latestAnswers {
			return false
		}
	}
	return true
}
