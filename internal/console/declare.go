package console

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"github.com/svc-feedback/svc/internal/problem"
	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/store"
)

// What a filtered results page reads: from the counts of a declared segment, or each response
// of the period, in which case the console says how many and, for a filter that is one segment's
// values, offers to declare it (the team's settings), so that the next read costs what an
// unfiltered one does.

// reading is what the results page says of how its filter is read.
type reading struct {
	// FromCounts says the filter is read from a declared segment's counts; otherwise it reads
	// the period's Responses one by one.
	FromCounts bool
	Responses  int64
	// Segment is the segment the filter could be read from; Declared says the team declares
	// it, Filling that its counts are still being made (Done of Total).
	Segment     string
	Declared    bool
	Filling     bool
	Done, Total int64
	// Offer says the page may declare it: the console, a segment not yet declared, room left.
	Offer bool
}

// readingOf works out how the page's filter f is read over [from, to).
func (rs *Results) readingOf(ctx context.Context, sv store.Survey, f report.Filter, p report.Period) (*reading, error) {
	if f.Empty() {
		return nil, nil
	}
	rd := &reading{}
	seg, ok := report.SegmentOf(f, &sv.Definition)
	tg, isTargeter := rs.store.(store.Targeter)
	sc, isCounter := rs.store.(store.SegmentCounter)
	if ok && isTargeter && isCounter {
		settings, err := tg.Settings(ctx, rs.teamID)
		if err != nil {
			return nil, fmt.Errorf("read the team's segments: %w", err)
		}
		rd.Segment, rd.Declared = seg, slices.Contains(settings.Segments, seg)
		rd.Offer = rs.token != "" && !rd.Declared && len(settings.Segments) < store.MaxSegments
		if rd.Declared {
			st, err := sc.SegmentState(ctx, sv.ID)
			if err != nil {
				return nil, fmt.Errorf("read the survey's segment counts: %w", err)
			}
			if st.Complete {
				rd.FromCounts = true
				return rd, nil
			}
			prog, err := sc.SegmentsProgress(ctx, rs.teamID)
			if err != nil {
				return nil, fmt.Errorf("read the segments' fill: %w", err)
			}
			rd.Filling, rd.Done, rd.Total = true, prog.Done, prog.Total
		}
	}
	counts, err := rs.store.Counts(ctx, sv.ID, []string{store.FunnelKey}, p.Start, p.End)
	if err != nil {
		return nil, fmt.Errorf("count the period's responses: %w", err)
	}
	rd.Responses = counts[store.FunnelKey][0]
	return rd, nil
}

// declareSegment adds the form's segment to the team's declared segments and goes back to the
// results page it came from, whose filter is then read from the segment's counts once svc has
// counted the responses already stored.
func (rs *Results) declareSegment(r *http.Request) (string, error) {
	sv, err := rs.surveyOf(r)
	if err != nil {
		return "", err
	}
	tg, ok := rs.store.(store.Targeter)
	if _, counts := rs.store.(store.SegmentCounter); !ok || !counts {
		return "", problem.BadRequest("this store keeps no counts per segment.")
	}
	seg := r.PostForm.Get("segment")
	_, err = tg.ModifySettings(r.Context(), rs.teamID, func(st *store.TeamSettings) error {
		if slices.Contains(st.Segments, seg) {
			return nil // declared meanwhile, by another page or the API
		}
		next := append(slices.Clone(st.Segments), seg)
		if err := store.ValidateSegments(next); err != nil {
			return problem.BadRequest(fmt.Sprintf("the segment cannot be declared: %v.", err))
		}
		st.Segments = next
		return nil
	})
	if err != nil {
		return "", err
	}
	back, err := url.ParseQuery(r.PostForm.Get("back"))
	if err != nil {
		back = url.Values{}
	}
	keep := filterQuery(back)
	if tr := back.Get("timeRange"); tr != "" {
		keep.Set("timeRange", tr)
	}
	keep.Set("declared", "1")
	return "../" + url.PathEscape(sv.ID) + "?" + keep.Encode(), nil // from …/surveys/{id}/segments
}
