package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/svc-feedback/svc/survey"
)

// Declared segments (docs/api.md#segments). A team names in its settings up to MaxSegments
// parts of a response it reads its results by: metadata.{key}, language, hidden.{name} or
// answer.{questionId}. A Store with SegmentCounter keeps, beside a response's counts
// (ResponseCounts), the same counts again per declared segment under the response's value of
// it, so that a summary, stats or trend filtered by values of one segment read a few rollup
// rows, as an unfiltered one does.
//
// Each change of a team's segments starts a new generation (TeamSettings.SegmentsGeneration):
// the counts of a generation are kept under keys that name it (SegmentKey), so a change never
// mixes with the counts of the segments before it. A response records the generation and the
// values it was counted under; the responses stored before the change are counted by a fill in
// the background (SegmentCounter.FillSegments), and until it has passed a survey, that
// survey's segment-filtered reads are worked out from its responses, exactly, as any other
// filter's.

// Limits of declared segments.
const (
	// MaxSegments is how many segments a team may declare.
	MaxSegments = 20
	// MaxSegmentValues is how many values of a segment are counted by name per survey: the
	// first that many seen; the responses of any other value are counted together under
	// SegmentOther. Several processes sharing a database may each name the last place at
	// once, so a survey may end with a few more.
	MaxSegmentValues = 50
	// MaxSegmentValueBytes is the longest value counted by name; a longer one counts as other.
	MaxSegmentValueBytes = 200
	// maxSegmentNameChars bounds a segment's key, name or question id.
	maxSegmentNameChars = 128
)

// SegmentOther is the bucket of a segment's values beyond its first MaxSegmentValues (and of a
// value too long or holding a control character): a control character that no named bucket
// holds.
const SegmentOther = "\x1f"

// Segment kinds: the prefix of a declared segment.
const (
	SegmentMetadata = "metadata."
	SegmentLanguage = "language"
	SegmentHidden   = "hidden."
	SegmentAnswer   = "answer."
)

// ValidateSegments checks a team's declared segments as PATCH /v1/protected/settings takes
// them: at most MaxSegments, each metadata.{key}, language, hidden.{name} or
// answer.{questionId}, with no duplicate. Errors wrap ErrInvalid and name the member at fault.
func ValidateSegments(segments []string) error {
	if len(segments) > MaxSegments {
		return invalid("segments: at most %d segments, not %d", MaxSegments, len(segments))
	}
	for i, s := range segments {
		if err := validateSegment(s); err != nil {
			return invalid("segments[%d]: %v", i, err)
		}
		if j := slices.Index(segments[:i], s); j >= 0 {
			return invalid("segments[%d]: %q is declared twice (segments[%d])", i, s, j)
		}
	}
	return nil
}

func validateSegment(s string) error {
	if s == SegmentLanguage {
		return nil
	}
	for _, kind := range []struct{ prefix, name string }{{SegmentMetadata, "key"}, {SegmentHidden, "name"}, {SegmentAnswer, "questionId"}} {
		prefix := kind.prefix
		name, ok := strings.CutPrefix(s, prefix)
		if !ok {
			continue
		}
		switch {
		case name == "":
			return fmt.Errorf("%q names nothing after the dot: write %s{%s}", s, prefix, kind.name)
		case utf8.RuneCountInString(name) > maxSegmentNameChars:
			return fmt.Errorf("the name after %q is at most %d characters", prefix, maxSegmentNameChars)
		case !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl):
			return fmt.Errorf("the name after %q holds a control character or invalid UTF-8", prefix)
		}
		return nil
	}
	shown := s
	if utf8.RuneCountInString(shown) > 40 || !utf8.ValidString(shown) {
		shown = strings.ToValidUTF8(string([]rune(shown)[:min(40, utf8.RuneCountInString(shown))]), "") + "…"
	}
	return fmt.Errorf("%q is not a segment: declare metadata.{key}, language, hidden.{name} or answer.{questionId}", shown)
}

// SegmentValue is a response's value of a declared segment, and false when it has none:
// the metadata value of metadata.{key}; the language of language (none when unknown); the
// answer of answer.{questionId} when the survey has that question as a single-select (the
// option's value, or the free text) or a rating (the score, as strconv.FormatFloat writes it
// with 'f' and -1). hidden.{name} has no value yet: svc does not take hidden fields yet.
func SegmentValue(def *survey.Definition, segment string, a survey.Answers, meta map[string]string, language string) (string, bool) {
	switch {
	case segment == SegmentLanguage:
		return language, language != ""
	case strings.HasPrefix(segment, SegmentMetadata):
		v, ok := meta[segment[len(SegmentMetadata):]]
		return v, ok
	case strings.HasPrefix(segment, SegmentAnswer):
		q, ok := def.Question(segment[len(SegmentAnswer):])
		if !ok {
			return "", false
		}
		switch v := a[q.ID].(type) {
		case survey.Number:
			if q.Type() == survey.TypeRating {
				return strconv.FormatFloat(float64(v), 'f', -1, 64), true
			}
		case survey.Text:
			if q.Type() == survey.TypeSingleSelect {
				return string(v), true
			}
		}
	}
	return "", false
}

// Nameable reports whether a segment's value may be counted by name (else it counts under
// SegmentOther): at most MaxSegmentValueBytes of valid UTF-8 without a control character.
func Nameable(value string) bool {
	return len(value) <= MaxSegmentValueBytes && utf8.ValidString(value) && !strings.ContainsFunc(value, unicode.IsControl)
}

// SegmentKey is the count key of a count (inner, a key of ResponseCounts) of the responses
// whose value of the team's segment number index, in generation gen, was counted under bucket
// (a value, or SegmentOther). Like the summary's keys it begins with a control character.
func SegmentKey(gen int64, index int, bucket, inner string) string {
	var b strings.Builder
	b.Grow(24 + len(inner) + len(bucket))
	b.WriteString("\x1fseg\x1f")
	b.WriteString(strconv.FormatInt(gen, 10))
	b.WriteByte('.')
	b.WriteString(strconv.Itoa(index))
	b.WriteByte('.')
	b.WriteString(strconv.Itoa(len(inner)))
	b.WriteByte('\x1f')
	b.WriteString(inner)
	b.WriteString(bucket)
	return b.String()
}

// ParseSegmentKey reads a key of SegmentKey; ok is false for any other key.
func ParseSegmentKey(key string) (gen int64, index int, bucket, inner string, ok bool) {
	rest, found := strings.CutPrefix(key, "\x1fseg\x1f")
	if !found {
		return 0, 0, "", "", false
	}
	head, body, found := strings.Cut(rest, "\x1f")
	parts := strings.Split(head, ".")
	if !found || len(parts) != 3 {
		return 0, 0, "", "", false
	}
	gen, err1 := strconv.ParseInt(parts[0], 10, 64)
	index, err2 := strconv.Atoi(parts[1])
	n, err3 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || err3 != nil || n < 0 || n > len(body) {
		return 0, 0, "", "", false
	}
	return gen, index, body[n:], body[:n], true
}

// SegmentMark is what a response was counted under in its team's segments: the generation,
// and per declared segment (in the order of the team's settings) the bucket its counts went
// to, or nil for none (no value). The zero SegmentMark (generation 0) counted nothing.
type SegmentMark struct {
	Gen     int64
	Buckets []*string
}

// SegmentCounts returns what a response with counts base (ResponseCounts) adds to its survey's
// segment counts, as m says: each count again under each bucket.
func SegmentCounts(m SegmentMark, base []Count) []Count {
	var out []Count
	for i, b := range m.Buckets {
		if b == nil {
			continue
		}
		if out == nil {
			out = make([]Count, 0, len(base)*len(m.Buckets))
		}
		for _, c := range base {
			out = append(out, Count{SegmentKey(m.Gen, i, *b, c.Key), c.N})
		}
	}
	return out
}

// EncodeMark is m's buckets as a response's row keeps them: a JSON array of strings and
// nulls; "" for none.
func EncodeMark(m SegmentMark) string {
	if len(m.Buckets) == 0 {
		return ""
	}
	b, _ := json.Marshal(m.Buckets) // strings and nulls always marshal
	return string(b)
}

// DecodeMark reads a mark of generation gen from what EncodeMark wrote.
func DecodeMark(gen int64, buckets string) (SegmentMark, error) {
	m := SegmentMark{Gen: gen}
	if buckets == "" {
		return m, nil
	}
	if err := json.Unmarshal([]byte(buckets), &m.Buckets); err != nil {
		return SegmentMark{}, fmt.Errorf("stored segment buckets: %w", err)
	}
	return m, nil
}

// Segmentation is a team's declared segments as the writes of one generation count them.
type Segmentation struct {
	Gen      int64
	Segments []string
}

// Mark works out the mark of a response (its answers a, metadata and language) in a survey
// of definition def: the bucket of each segment's value, named by named, which reports
// whether a value is counted by name in the survey (taking a place among the first
// MaxSegmentValues if one is free) or under SegmentOther.
func (sg Segmentation) Mark(def *survey.Definition, a survey.Answers, meta map[string]string, language string, named func(index int, value string) (bool, error)) (SegmentMark, error) {
	m := SegmentMark{Gen: sg.Gen}
	if len(sg.Segments) == 0 {
		return m, nil
	}
	m.Buckets = make([]*string, len(sg.Segments))
	for i, seg := range sg.Segments {
		v, ok := SegmentValue(def, seg, a, meta, language)
		if !ok {
			continue
		}
		bucket := SegmentOther
		if Nameable(v) {
			ok, err := named(i, v)
			if err != nil {
				return SegmentMark{}, err
			}
			if ok {
				bucket = v
			}
		}
		m.Buckets[i] = &bucket
	}
	return m, nil
}

// SegmentCounter is an optional interface of a Store that keeps counts per declared segment
// (see SegmentKey): PutResponse, DeleteResponse, EraseRespondent and imports add and take out
// a response's SegmentCounts beside its counts, and Counts reads segment keys as any other.
// ModifySettings starts a new generation when the segments change. Both svc backends have it.
type SegmentCounter interface {
	// SegmentState returns what a read of a survey's segment counts needs: the generation and
	// segments of its team, whether the survey's counts of this generation are complete (its
	// responses stored before the generation began are all counted), and the values each
	// segment counts by name.
	SegmentState(ctx context.Context, surveyID string) (SegmentState, error)
	// FillSegments counts, in the current generation, up to limit responses of the team that
	// were stored before it, and returns the fill's progress. Each batch commits on its own,
	// so a fill stopped anywhere resumes where it was. Calls from several processes at once
	// share the work and never count a response twice.
	FillSegments(ctx context.Context, teamID string, limit int) (SegmentsFill, error)
	// SegmentsProgress returns the fill's progress without filling.
	SegmentsProgress(ctx context.Context, teamID string) (SegmentsFill, error)
	// SegmentTeams lists the teams that declare segments, so that a process starting up can
	// resume the fills a stop left behind (FillSegments of a complete team returns at once).
	SegmentTeams(ctx context.Context) ([]string, error)
	// SegmentResponses returns what RangeStats says of responses (TotalResponses,
	// UniqueResponders, FinishedResponses; the rest zero) of the survey's responses created in
	// [from, to) that generation gen counted under one of buckets of its segment number index.
	// Like RangeStats, its cost grows with the responses in the range.
	SegmentResponses(ctx context.Context, surveyID string, gen int64, index int, buckets []string, from, to time.Time) (Stats, error)
}

// SegmentState is a survey's segment counts as a reader sees them (SegmentCounter).
type SegmentState struct {
	Segmentation
	// Complete reports that every response of the survey is counted in this generation.
	Complete bool
	// Values lists, per segment, the values counted by name in the survey.
	Values [][]string
}

// Fill states of SegmentsFill.
const (
	FillNone     = "none"     // the team declares no segments
	FillFilling  = "filling"  // responses stored before the segments changed are being counted
	FillComplete = "complete" // every response is counted
)

// SegmentsFill is the progress of the count of a team's responses in its segments' current
// generation: Done of Total responses counted (Total is the team's responses now), with
// Surveys of the team's surveys still to complete.
type SegmentsFill struct {
	State       string
	Done, Total int64
	Surveys     int64
}
