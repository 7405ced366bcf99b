package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// Store operation benchmarks, benchstat-friendly:
//
//	go test ./store/sqlite -run '^$' -bench . -benchmem -count 6 | tee new.txt
func benchStore(b *testing.B, o *sqlite.Options) (*sqlite.Store, store.Survey) {
	b.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "svc.db"), o)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, seedSurveyTB(b, s)
}

// BenchmarkPutResponse creates responses from many goroutines at once, as a loaded server does,
// so writes share group commits; durable (FULL) and NORMAL.
func BenchmarkPutResponse(b *testing.B) {
	for _, sync := range []sqlite.Synchronous{sqlite.SynchronousFull, sqlite.SynchronousNormal} {
		b.Run(string(sync), func(b *testing.B) {
			s, sv := benchStore(b, &sqlite.Options{Synchronous: sync})
			putResponsesParallel(b, s, sv)
		})
	}
}

// BenchmarkGroupCommit creates responses from 32 goroutines per CPU (64 on two CPUs) with at
// most 1, 4, 16 or 64 writes per transaction, and reports the process's CPU time per write
// (cpu-µs/op) beside the wall time: what a commit costs in itself (BEGIN, COMMIT, the WAL's
// frames and its sync) is shared by the writes of its batch.
func BenchmarkGroupCommit(b *testing.B) {
	for _, max := range []int{1, 4, 16, 64} {
		b.Run("max="+strconv.Itoa(max), func(b *testing.B) {
			s, sv := benchStore(b, &sqlite.Options{MaxBatch: max})
			start := processCPU()
			putResponsesParallel(b, s, sv)
			if start >= 0 {
				b.ReportMetric(float64(processCPU()-start)/float64(b.N)/float64(time.Microsecond), "cpu-µs/op")
			}
		})
	}
}

// putResponsesParallel creates b.N new responses from 32 goroutines per CPU.
func putResponsesParallel(b *testing.B, s *sqlite.Store, sv store.Survey) {
	parallel(b, func(i int64) error {
		_, _, err := s.PutResponse(context.Background(), store.ResponseWrite{SurveyID: sv.ID, ID: "r" + strconv.FormatInt(i, 10),
			Respondent: "user" + strconv.FormatInt(i%1000, 10), Metadata: map[string]string{"page": "/"},
			Data: survey.Answers{"nps": survey.Number(i % 11), "stars": survey.Number(i%5 + 1), "comments": survey.Text("fine")},
			At:   t0.Add(time.Duration(i) * time.Second)})
		return err
	})
}

// BenchmarkRecordEvent records views from many goroutines at once.
func BenchmarkRecordEvent(b *testing.B) {
	s, sv := benchStore(b, nil)
	start := processCPU()
	parallel(b, func(i int64) error {
		return s.RecordEvent(context.Background(), store.Event{SurveyID: sv.ID, Respondent: "user" + strconv.FormatInt(i%1000, 10),
			Type: store.EventView, At: t0.Add(time.Duration(i) * time.Second)})
	})
	if start >= 0 {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N)/float64(time.Microsecond), "cpu-µs/op")
	}
}

// parallel runs op b.N times from 32 goroutines per CPU, numbering the calls from 1, and stops
// the timer once they are done.
func parallel(b *testing.B, op func(i int64) error) {
	var n atomic.Int64
	b.SetParallelism(32)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := op(n.Add(1)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.StopTimer()
}

// BenchmarkSurveyAndKey reads a survey and looks up a key, as every widget request does.
func BenchmarkSurveyAndKey(b *testing.B) {
	s, sv := benchStore(b, nil)
	key := store.NewKeyPlaintext(store.Publishable)
	if err := s.AddKey(context.Background(), store.NewKey("acme", store.Publishable, key, t0), key); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.LookupKey(context.Background(), key); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Survey(context.Background(), "acme", sv.ID); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCountsShape counts a last-30-days range over the same number of responses
// spread over the 30 days or written in one burst a few minutes before now, as after an email
// campaign, behind one response a year old: the cost must not depend on the shape
// (SVC_BENCH_BURST sets the count, 50,000 by default).
//
//	go test ./store/sqlite -run '^$' -bench CountsShape -count 6
func BenchmarkCountsShape(b *testing.B) {
	n := 50_000
	if v, err := strconv.Atoi(os.Getenv("SVC_BENCH_BURST")); err == nil && v > 0 {
		n = v
	}
	now := time.Date(2026, 11, 24, 14, 42, 47, 653_000_000, time.UTC)
	shapes := map[string]func(i int) time.Time{
		"spread": func(i int) time.Time {
			return now.Add(-30 * 24 * time.Hour).Add(time.Duration(i) * (30 * 24 * time.Hour / time.Duration(n)))
		},
		"burst": func(i int) time.Time {
			return now.Add(-3 * time.Minute).Add(time.Duration(i) * (40 * time.Second / time.Duration(n)))
		},
	}
	for _, name := range []string{"spread", "burst"} {
		b.Run(name, func(b *testing.B) {
			s, sv := benchStore(b, nil)
			at := shapes[name]
			var wg sync.WaitGroup
			var next atomic.Int64
			for range 64 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
						w := store.ResponseWrite{SurveyID: sv.ID, ID: "r" + strconv.Itoa(i), Respondent: "u" + strconv.Itoa(i%5000),
							Data: survey.Answers{"nps": survey.Number(i % 11)}, Metadata: map[string]string{}, At: at(i), Imported: true}
						if _, _, err := s.PutResponse(context.Background(), w); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			old := store.ResponseWrite{SurveyID: sv.ID, ID: "rold", Respondent: "u", Data: survey.Answers{"nps": survey.Number(5)},
				Metadata: map[string]string{}, At: now.Add(-365 * 24 * time.Hour), Imported: true}
			if _, _, err := s.PutResponse(context.Background(), old); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				counts, err := s.Counts(context.Background(), sv.ID, []string{"nps"}, now.Add(-30*24*time.Hour), now)
				if err != nil {
					b.Fatal(err)
				}
				if total := sumCounts(counts["nps"]); total != int64(n) {
					b.Fatalf("counted %d ratings, want %d", total, n)
				}
			}
		})
	}
}

func sumCounts(m map[int]int64) int64 {
	var t int64
	for _, n := range m {
		t += n
	}
	return t
}

// BenchmarkPerson reads a person new to the team, as next-survey does for a first visit, asking
// about one survey: the read that is about half of a next-survey's time.
func BenchmarkPerson(b *testing.B) {
	s, sv := benchStore(b, nil)
	asked := []string{sv.ID}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if _, err := s.Person(context.Background(), "acme", "new-person-"+strconv.Itoa(i), asked); err != nil {
			b.Fatal(err)
		}
	}
}
