package report_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/svc-feedback/svc/internal/cuid2"
	"github.com/svc-feedback/svc/internal/report"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// noScan is a store whose reads of a range's responses oldest first (how a filter reads them
// all) fail, so a read that succeeds did not read them.
type noScan struct{ *sqlite.Store }

var errScanned = errors.New("the responses were read")

func (s noScan) Responses(ctx context.Context, q store.ResponseQuery) ([]store.Response, *store.Cursor, error) {
	if q.Oldest {
		return nil, nil, errScanned
	}
	return s.Store.Responses(ctx, q)
}

// A filter of one declared segment's values is read from its counts once they are complete,
// and from the responses before; any other filter reads the responses.
func TestSegmentFilterReadsCounts(t *testing.T) {
	ctx := t.Context()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	t0 := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	if err := s.CreateTeam(ctx, store.Team{ID: "a", Name: "A", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	sv := store.Survey{ID: cuid2.NewGenerator().New(), TeamID: "a", Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: t0, UpdatedAt: t0}
	if err := s.CreateSurvey(ctx, sv); err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		w := store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprint("r", i), Respondent: fmt.Sprint("p", i%7), At: t0.Add(time.Duration(i) * time.Hour),
			Data: survey.Answers{"nps": survey.Number(i % 11)}, Metadata: map[string]string{"plan": []string{"pro", "free"}[i%2]}, Language: "de-AT"}
		if _, _, err := s.PutResponse(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ModifySettings(ctx, "a", func(st *store.TeamSettings) error {
		st.Segments = []string{"metadata.plan", "language", "answer.nps"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	read := func(query string) (map[string]map[int]int64, store.Stats, error) {
		q, _ := url.ParseQuery(query)
		f, err := report.ParseFilter(q, sv.Definition)
		if err != nil {
			t.Fatal(err)
		}
		fs := report.Filtered(noScan{s}, sv, f, 1<<20)
		c, err := fs.Counts(ctx, sv.ID, []string{store.FunnelKey, "nps"}, t0, t0.Add(48*time.Hour))
		if err != nil {
			return nil, store.Stats{}, err
		}
		st, err := fs.RangeStats(ctx, sv.ID, t0, t0.Add(20*time.Hour))
		return c, st, err
	}
	if _, _, err := read("metadata.plan=pro"); !errors.Is(err, errScanned) {
		t.Fatalf("before the fill, a segment read: %v, want the responses read", err)
	}
	if _, err := s.FillSegments(ctx, "a", 100); err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]struct {
		responses, nps3      int64 // counted over two days
		inRange, respondents int64 // of the first 20 hours
	}{
		"metadata.plan=pro":         {15, 1, 10, 7}, // every other response
		"language=de":               {30, 3, 20, 7}, // a language picks its regional forms
		"answer.nps=3":              {3, 3, 2, 2},   // responses 3, 14 and 25
		"metadata.plan=nobody":      {0, 0, 0, 0},   // a value never seen: nothing counted
		"answer.nps=3&answer.nps=4": {6, 3, 4, 4},   // any of the values
	} {
		c, st, err := read(query)
		if err != nil {
			t.Errorf("%s: %v, want it read from the counts", query, err)
			continue
		}
		if c[store.FunnelKey][0] != want.responses || c["nps"][3] != want.nps3 {
			t.Errorf("%s: counts %v, want %d responses, %d scoring 3", query, c, want.responses, want.nps3)
		}
		if st.TotalResponses != want.inRange || st.UniqueResponders != want.respondents || st.FinishedResponses != 0 {
			t.Errorf("%s: stats %+v, want %d responses of %d people", query, st, want.inRange, want.respondents)
		}
	}
	// A summary and a trend of a segment read no more than the newest responses' texts.
	q, _ := url.ParseQuery("metadata.plan=pro")
	f, _ := report.ParseFilter(q, sv.Definition)
	fs := report.Filtered(noScan{s}, sv, f, 1<<20)
	period := report.Period{Start: t0, End: t0.Add(48 * time.Hour)}
	if sum, err := report.Summary(ctx, fs, sv, period, 1<<20); err != nil {
		t.Errorf("summary of a segment: %v", err)
	} else if sum.Funnel.Started != 15 {
		t.Errorf("summary of a segment: %d started, want 15", sum.Funnel.Started)
	}
	if _, err := report.Trends(ctx, fs, sv, period, "day", nil); err != nil {
		t.Errorf("trend of a segment: %v", err)
	}
	for _, query := range []string{"metadata.plan=pro&finished=true", "metadata.page=/x", "answer.nps.min=3"} {
		if _, _, err := read(query); !errors.Is(err, errScanned) {
			t.Errorf("%s: %v, want the responses read", query, err)
		}
	}
}
