package console

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// The list of a team's surveys: a table of each one's title, status, how it is shown, responses,
// latest response and NPS, sorted on the server by the column a header's link names (?sort= and
// &order=), so that it sorts without script; at narrow widths it scrolls inside its own region.

// surveyItem is a survey as the list shows it.
type surveyItem struct {
	store.Survey
	Stats    store.Stats
	Latest   string // the latest response's time, "" for none
	latestAt time.Time
	// Shown is how it reaches people (shownAs), ShownText the same as the list says it.
	Shown     []string
	ShownText string
	// NPS is its all-time Net Promoter Score, nil without an NPS question or a score.
	NPS     *float64
	NPSText string
}

// listColumn is a sortable column of the list: its header's label, the link that sorts by it,
// and its aria-sort when it is the one sorted by.
type listColumn struct {
	Key, Label, Href, Sort string
}

// listColumns are the list's sortable columns, and the order each sorts in first: text from A,
// numbers and dates from the largest and newest.
var listColumns = []struct {
	key, label, first string
}{
	{"title", "Title", "asc"}, {"status", "Status", "asc"}, {"shown", "How it is shown", "asc"},
	{"responses", "Responses", "desc"}, {"latest", "Last response", "desc"}, {"nps", "NPS", "desc"},
}

// Ways a survey is shown (shownAs).
const (
	shownRules = "rules"
	shownApp   = "your app"
	shownLink  = "link"
)

// shownAs says how a survey reaches people: by its display rules (svc picks it for the people
// and pages they name), else only where the app calls Svc.show ("your app"); and "link" too when
// its link page can be answered: anonymously (Definition.Link), or through links signed with the
// team's link secret, which it has (see internal/api/links.go).
func shownAs(def *survey.Definition, teamLinks bool) []string {
	ways := []string{shownApp}
	if def.Display != nil {
		ways = []string{shownRules}
	}
	if teamLinks || (def.Link != nil && def.Link.Anonymous) {
		ways = append(ways, shownLink)
	}
	return ways
}

// shownSentence says in words how a survey reaches people, once published.
func shownSentence(ways []string) string {
	link := slices.Contains(ways, shownLink)
	switch {
	case slices.Contains(ways, shownRules) && link:
		return "svc shows it by itself to the people and on the pages its display rules name, and it can be answered through its link."
	case slices.Contains(ways, shownRules):
		return "svc shows it by itself to the people and on the pages its display rules name."
	case link:
		return "It has no display rules: it shows only where your app calls Svc.show, or through its link."
	}
	return "It has no display rules: it shows only where your app calls Svc.show."
}

// teamLinks reports whether the team has a link secret to sign links with (now), with a store
// that keeps link surveys at all.
func (rs *Results) teamLinks(ctx context.Context) (bool, error) {
	ln, ok := rs.store.(store.Linker)
	if !ok {
		return false, nil
	}
	secrets, err := ln.LinkSecrets(ctx, rs.teamID)
	if err != nil {
		return false, err
	}
	return len(secrets.Valid(rs.now())) > 0, nil
}

func (rs *Results) list(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var surveys []store.Survey
	var cursor *store.Cursor
	for {
		page, next, err := rs.store.Surveys(ctx, rs.teamID, cursor, 100)
		if err != nil {
			rs.fail(w, r, err)
			return
		}
		surveys = append(surveys, page...)
		if next == nil || len(surveys) >= 1000 {
			break
		}
		cursor = next
	}
	links, err := rs.teamLinks(ctx)
	if err != nil {
		rs.fail(w, r, err)
		return
	}
	// Each survey's lifetime counters and latest response, and its NPS's score counts: indexed
	// reads, at most three each, of at most 1,000 surveys.
	now := rs.now()
	items := make([]surveyItem, 0, len(surveys))
	for _, sv := range surveys {
		st, err := rs.store.Stats(ctx, sv.ID)
		if err != nil {
			rs.fail(w, r, err)
			return
		}
		item := surveyItem{Survey: sv, Stats: st, Shown: shownAs(&sv.Definition, links)}
		item.ShownText = strings.Join(item.Shown, ", ")
		if st.TotalResponses > 0 {
			// The newest response: the first of a page, newest first, read by index.
			latest, _, err := rs.store.Responses(ctx, store.ResponseQuery{SurveyID: sv.ID, Limit: 1})
			if err != nil {
				rs.fail(w, r, err)
				return
			}
			if len(latest) == 1 {
				item.latestAt = latest[0].CreatedAt
				item.Latest = latest[0].CreatedAt.UTC().Format("2 Jan 2006 15:04 UTC")
			}
			// All time, as the survey's page counts it, up to this moment included.
			if item.NPS, err = report.NPS(ctx, rs.store, sv, report.Period{Start: sv.CreatedAt, End: now.Add(time.Second)}); err != nil {
				rs.fail(w, r, err)
				return
			}
			if item.NPS != nil {
				item.NPSText = strconv.FormatFloat(*item.NPS, 'f', -1, 64)
			}
		}
		items = append(items, item)
	}
	key, order := sortOf(r.URL.Query())
	sortItems(items, key, order)
	cols := make([]listColumn, len(listColumns))
	sortedBy := ""
	for i, c := range listColumns {
		next := c.first
		cols[i] = listColumn{Key: c.key, Label: c.label}
		if c.key == key {
			cols[i].Sort = map[string]string{"asc": "ascending", "desc": "descending"}[order]
			next = map[string]string{"asc": "desc", "desc": "asc"}[order]
			sortedBy = strings.ToLower(c.label) + ", " + cols[i].Sort
		}
		cols[i].Href = "?" + url.Values{"sort": {c.key}, "order": {next}}.Encode()
	}
	rs.render(w, r, "list.html", struct {
		Surveys   []surveyItem
		Columns   []listColumn
		SortedBy  string
		Token     string // the console's form token; empty on the read-only pages
		Templates []surveyTemplate
	}{items, cols, sortedBy, rs.token, surveyTemplates})
}

// sortOf is the column and order a list's query asks for; "" for the store's order (newest
// first).
func sortOf(q url.Values) (key, order string) {
	key, order = q.Get("sort"), q.Get("order")
	i := slices.IndexFunc(listColumns, func(c struct{ key, label, first string }) bool { return c.key == key })
	if i < 0 {
		return "", ""
	}
	if order != "asc" && order != "desc" {
		order = listColumns[i].first
	}
	return key, order
}

// sortItems sorts the list by a column; surveys with nothing in it (no response, no NPS) come
// last either way, and ties keep the store's order.
func sortItems(items []surveyItem, key, order string) {
	if key == "" {
		return
	}
	dir := 1
	if order == "desc" {
		dir = -1
	}
	slices.SortStableFunc(items, func(a, b surveyItem) int {
		switch key {
		case "title":
			return dir * cmp.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title))
		case "status":
			return dir * cmp.Compare(statusText(a.Status), statusText(b.Status))
		case "shown":
			return dir * cmp.Compare(a.ShownText, b.ShownText)
		case "responses":
			return dir * cmp.Compare(a.Stats.TotalResponses, b.Stats.TotalResponses)
		case "latest":
			if a.latestAt.IsZero() || b.latestAt.IsZero() {
				return boolInt(a.latestAt.IsZero()) - boolInt(b.latestAt.IsZero())
			}
			return dir * a.latestAt.Compare(b.latestAt)
		case "nps":
			if a.NPS == nil || b.NPS == nil {
				return boolInt(a.NPS == nil) - boolInt(b.NPS == nil)
			}
			return dir * cmp.Compare(*a.NPS, *b.NPS)
		}
		return 0
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// statusText is a survey's status as the console says it.
func statusText(s store.Status) string {
	switch s {
	case store.StatusActive:
		return "published"
	case store.StatusInactive:
		return "paused"
	}
	return string(s)
}

// StatusText is the survey's status as the list says it.
func (i surveyItem) StatusText() string { return statusText(i.Status) }
