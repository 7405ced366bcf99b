package sqlite_test

import (
	"context"
	"path/filepath"
	"strconv"
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
	parallel(b, func(i int64) error {
		return s.RecordEvent(context.Background(), store.Event{SurveyID: sv.ID, Respondent: "user" + strconv.FormatInt(i%1000, 10),
			Type: store.EventView, At: t0.Add(time.Duration(i) * time.Second)})
	})
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
