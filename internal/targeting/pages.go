package targeting

import (
	"sync"
	"time"
)

// Bounds of a Pages: how many pages it remembers (it starts over past that), and the longest
// URL and event it remembers an answer for (longer ones are matched every time).
const (
	maxPages   = 1024
	maxPageKey = 1024
)

// Pages answers OnPage for a team's surveys (as Decide takes them) from memory for a page and
// event asked about before: matching every survey's URL rules costs about as much as the rest of
// a decision, and a team's people visit the same few pages. Answers hold until the first moment
// a survey's schedule starts or ends after the Pages were made; from then on (and for an ask
// dated before they were made) every ask is matched anew. Make new Pages when the surveys change.
type Pages struct {
	surveys []*Rules
	made    time.Time
	until   time.Time // zero: no schedule ahead

	mu      sync.Mutex
	answers map[pageKey]Matched
}

// pageKey is what an answer of Pages is for.
type pageKey struct{ url, event string }

// NewPages returns Pages for surveys at now.
func NewPages(surveys []*Rules, now time.Time) *Pages {
	p := &Pages{surveys: surveys, made: now, answers: make(map[pageKey]Matched)}
	for _, r := range surveys {
		if r.display == nil {
			continue
		}
		for _, t := range []*time.Time{r.display.StartsAt, r.display.EndsAt} {
			if t != nil && t.After(now) && (p.until.IsZero() || t.Before(p.until)) {
				p.until = *t
			}
		}
	}
	return p
}

// Hold reports whether the Pages' answers hold at now: from when they were made until a
// survey's schedule starts or ends.
func (p *Pages) Hold(now time.Time) bool {
	return !now.Before(p.made) && (p.until.IsZero() || now.Before(p.until))
}

// OnPage returns OnPage(ask, surveys). The lists are shared: callers must not change them.
func (p *Pages) OnPage(ask Ask) Matched {
	if !p.Hold(ask.Now) || len(ask.URL)+len(ask.Event) > maxPageKey {
		return OnPage(ask, p.surveys)
	}
	key := pageKey{ask.URL, ask.Event}
	p.mu.Lock()
	m, ok := p.answers[key]
	p.mu.Unlock()
	if ok {
		return m
	}
	m = OnPage(ask, p.surveys)
	p.mu.Lock()
	if len(p.answers) >= maxPages {
		clear(p.answers)
	}
	p.answers[key] = m
	p.mu.Unlock()
	return m
}
