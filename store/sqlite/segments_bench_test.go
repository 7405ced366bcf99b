package sqlite_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// BenchmarkPutResponseSegments creates responses from many goroutines at once with 0 and 5
// declared segments (each response has a value of every one), and reports the process's CPU
// time per write (cpu-µs/op): what keeping the counts per segment value costs a write.
//
//	go test ./store/sqlite -run '^$' -bench PutResponseSegments -count 6
func BenchmarkPutResponseSegments(b *testing.B) {
	five := []string{"metadata.plan", "metadata.page", "language", "answer.favourite", "answer.nps"}
	for _, segments := range [][]string{nil, five} {
		b.Run("segments="+strconv.Itoa(len(segments)), func(b *testing.B) {
			s, sv := benchStore(b, &sqlite.Options{Synchronous: sqlite.SynchronousNormal})
			if _, err := s.ModifySettings(context.Background(), sv.TeamID, func(st *store.TeamSettings) error {
				st.Segments = segments
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			plans, pages := []string{"free", "pro", "team"}, []string{"/", "/billing", "/settings", "/docs"}
			start := processCPU()
			parallel(b, func(i int64) error {
				_, _, err := s.PutResponse(context.Background(), store.ResponseWrite{SurveyID: sv.ID, ID: "r" + strconv.FormatInt(i, 10),
					Respondent: "user" + strconv.FormatInt(i%1000, 10), Language: "de",
					Metadata: map[string]string{"plan": plans[i%3], "page": pages[i%4]},
					Data: survey.Answers{"nps": survey.Number(i % 11), "stars": survey.Number(i%5 + 1), "comments": survey.Text("fine"),
						"favourite": survey.Text("Reports")},
					At: t0.Add(time.Duration(i) * time.Second)})
				return err
			})
			if start >= 0 {
				b.ReportMetric(float64(processCPU()-start)/float64(b.N)/float64(time.Microsecond), "cpu-µs/op")
			}
		})
	}
}
