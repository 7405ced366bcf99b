package store

import (
	"encoding/json"
	"time"
	"unicode/utf8"

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
	texts := make(map[string]any)
	for id, ans := range a {
		switch v := ans.(type) {
		case survey.Text:
			texts[id] = cutText(string(v))
		case survey.Choices:
			cut := make([]string, len(v))
			for i, c := range v {
				cut[i] = cutText(c)
			}
			texts[id] = cut
		}
	}
	if len(texts) == 0 {
		return nil
	}
	b, _ := json.Marshal(texts) // strings and lists of them always encode
	return b
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
