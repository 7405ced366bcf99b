package store

import (
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/svc-feedback/svc/internal/jsonappend"
	"github.com/svc-feedback/svc/survey"
)

// A summary shows the texts people wrote (open-ended answers, the free text of a select
// question) from the newest responses of a range. Read from the responses, a text beside a bug
// report's 10 MiB screenshot costs the screenshot: one person posting large bug reports made
// every summary of the survey cost seconds. A store that keeps each response's short texts
// apart (TextReader) lets a summary read them alone.

// MaxSummaryText is how many characters of each text SummaryTexts keeps: more than a summary
// shows of it.
const MaxSummaryText = 500

// SummaryTexts is what a store that implements TextReader keeps beside a response: its answers
// that are text (a string, cut at MaxSummaryText characters) or a list of choices, as a JSON
// object by question id; nil when it has none.
func SummaryTexts(a survey.Answers) []byte {
	var b []byte
	for _, id := range jsonappend.SortedKeys(a) { // as encoding/json orders a map's keys
		switch v := a[id].(type) {
		case survey.Text:
			b = appendTextKey(b, id)
			b = jsonappend.String(b, cutText(string(v)))
		case survey.Choices:
			b = appendTextKey(b, id)
			b = append(b, '[')
			for i, c := range v {
				if i > 0 {
					b = append(b, ',')
				}
				b = jsonappend.String(b, cutText(c))
			}
			b = append(b, ']')
		}
	}
	if b == nil {
		return nil
	}
	return append(b, '}')
}

// appendTextKey opens the object of SummaryTexts, or goes on to its next member, and writes the
// member's name.
func appendTextKey(b []byte, id string) []byte {
	if b == nil {
		b = append(make([]byte, 0, 128), '{')
	} else {
		b = append(b, ',')
	}
	return append(jsonappend.String(b, id), ':')
}

// cutText keeps the first MaxSummaryText characters of s.
func cutText(s string) string {
	if utf8.RuneCountInString(s) <= MaxSummaryText {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxSummaryText {
			return s[:i]
		}
		n++
	}
	return s
}

// ResponseTexts are a response's SummaryTexts (nil when it has none).
type ResponseTexts struct {
	ID        string
	CreatedAt time.Time
	Texts     json.RawMessage
}
