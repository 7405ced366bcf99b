package storetest

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/survey"
)

// testCountsThroughBurst writes responses from many goroutines at once while another reads
// the counts, over and over. Every read must lie between the writes acknowledged before it
// began and the writes begun before it ended: a backend that moves counts between places (a
// log folded into rollups, say) must never show one twice or not at all. Right after the
// burst, and after updates and deletes, the counts of every range equal a recount.
func testCountsThroughBurst(t *testing.T, s store.Store) {
	ctx := t.Context()
	mustTeam(t, s, "a")
	sv := mustSurvey(t, s, newSurvey("a", t0))
	const writers, each = 8, 150
	var begun, acked atomic.Int64
	type kept struct {
		nps int
		at  time.Time
	}
	var mu sync.Mutex
	kepts := map[string]kept{}
	at := func(g, i int) time.Time { // minutes shared by writers, and hours and days apart
		return t0.Add(time.Duration(i%40)*17*time.Minute + time.Duration(g*i%50)*time.Second + time.Duration(i/40)*25*time.Hour)
	}
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := fmt.Sprintf("g%dr%d", g, i)
				k := kept{(g + i) % 11, at(g, i)}
				begun.Add(1)
				_, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: fmt.Sprint("r", i%13),
					Data: survey.Answers{"nps": survey.Number(k.nps)}, At: k.at})
				if err != nil {
					t.Errorf("put %s: %v", id, err)
					return
				}
				acked.Add(1)
				mu.Lock()
				kepts[id] = k
				mu.Unlock()
			}
		}()
	}
	done := make(chan struct{})
	var reads atomic.Int64
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			low := acked.Load()
			got, err := s.Counts(ctx, sv.ID, []string{"nps", store.FunnelKey}, t0.Add(-time.Hour), t0.Add(100*24*time.Hour))
			high := begun.Load()
			if err != nil {
				t.Errorf("counts: %v", err)
				return
			}
			var n int64
			for _, c := range got["nps"] {
				n += c
			}
			if n < low || n > high || got[store.FunnelKey][0] != n {
				t.Errorf("counts mid-burst: %d scores and %d responses, with %d writes acknowledged before and %d begun after",
					n, got[store.FunnelKey][0], low, high)
				return
			}
			reads.Add(1)
		}
	}()
	wg.Wait()
	close(done)
	readers.Wait()
	if reads.Load() == 0 {
		t.Fatal("no read ran during the burst")
	}
	recount := func(from, to time.Time) map[int]int64 {
		out := map[int]int64{}
		for _, k := range kepts {
			if !k.at.Before(from) && k.at.Before(to) {
				out[k.nps]++
			}
		}
		return out
	}
	check := func(stage string) {
		t.Helper()
		for _, r := range [][2]time.Duration{{-time.Hour, 2400 * time.Hour}, {0, 24 * time.Hour}, {3*time.Hour + 17*time.Second, 51*time.Hour + 4*time.Minute + 9*time.Second}, {5 * time.Minute, 6*time.Minute + 30*time.Second}} {
			from, to := t0.Add(r[0]), t0.Add(r[1])
			got, err := s.Counts(ctx, sv.ID, []string{"nps"}, from, to)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(recount(from, to), got["nps"]); diff != "" {
				t.Errorf("%s, %v to %v: counts (-recount +store):\n%s", stage, r[0], r[1], diff)
			}
		}
	}
	check("right after the burst")
	for i := range 60 { // new scores for some, others gone
		id := fmt.Sprintf("g%dr%d", i%writers, i)
		k := kepts[id]
		if i%3 == 0 {
			if err := s.DeleteResponse(ctx, sv.ID, id); err != nil {
				t.Fatal(err)
			}
			delete(kepts, id)
			continue
		}
		k.nps = (k.nps + 5) % 11
		put(t, s, store.ResponseWrite{SurveyID: sv.ID, ID: id, Respondent: fmt.Sprint("r", i%13), Data: survey.Answers{"nps": survey.Number(k.nps)}, At: k.at.Add(time.Hour)})
		kepts[id] = k
	}
	check("after updates and deletes")
}
