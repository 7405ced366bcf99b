// Package benchdata builds the large survey that benchmarks read: one survey with n responses
// and n events spread evenly over the same span of about a year whatever n is (so comparing
// sizes compares history, not the length of time), kept in a database file later runs reuse.
package benchdata

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// The benchmark team, keys and survey.
const (
	SurveyID       = "benchsurvey0001"
	TeamID         = "bench"
	SecretKey      = "svc_sk_benchbenchbenchbenchbenchbenchbench"
	PublishableKey = "svc_pk_benchbenchbenchbenchbenchbenchbench"
	// Span is the time the responses cover: 1,000,000 responses 30 s apart.
	Span = 1_000_000 * 30 * time.Second
)

// Step is the time between two of n responses.
func Step(n int) time.Duration { return Span / time.Duration(n) }

// Start is the creation time of the survey and of its first response.
var Start = time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)

// ResponseID is the id of the i-th response.
func ResponseID(i int) string { return fmt.Sprintf("r%09d", i) }

// At is the creation time of response i of n.
func At(i, n int) time.Time { return Start.Add(time.Duration(i) * Step(n)) }

// End is the time just after the last of n responses.
func End(n int) time.Time { return At(n, n) }

// Cursor is the page cursor (in the handler's opaque format) that ends a page at response i
// of n.
func Cursor(i, n int) string {
	at := At(i, n).UnixMilli()
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, `{"t":%d,"i":%q}`, at, ResponseID(i)))
}

// Open opens the SQLite database at path holding the benchmark survey with n responses and n
// events, seeding it first if it does not hold them yet. logf reports progress.
func Open(ctx context.Context, path string, n int, logf func(string, ...any)) (*sqlite.Store, error) {
	_, statErr := os.Stat(path)
	st, err := sqlite.Open(ctx, path, &sqlite.Options{Synchronous: sqlite.SynchronousNormal})
	if err != nil {
		return nil, err
	}
	if statErr == nil {
		if Holds(ctx, st, n) {
			return st, ensureKeys(ctx, st)
		}
		st.Close()
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(path + suffix)
		}
		if st, err = sqlite.Open(ctx, path, &sqlite.Options{Synchronous: sqlite.SynchronousNormal}); err != nil {
			return nil, err
		}
	}
	if err := Seed(ctx, st, n, logf); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// Holds reports whether st holds the whole benchmark survey of n responses and n events.
func Holds(ctx context.Context, st store.Store, n int) bool {
	s, err := st.Stats(ctx, SurveyID)
	last, lerr := st.Response(ctx, SurveyID, ResponseID(n-1))
	return err == nil && lerr == nil && s.TotalResponses == int64(n) && s.TotalViews+s.TotalDismissals == int64(n) &&
		last.CreatedAt.Equal(At(n-1, n))
}

// Seed writes the benchmark team, keys and survey with n responses and n events into st, which
// must not hold them yet. logf reports progress.
func Seed(ctx context.Context, st store.Store, n int, logf func(string, ...any)) error {
	logf("seeding %d responses and %d events", n, n)
	t0 := time.Now()
	if err := seed(ctx, st, n); err != nil {
		return err
	}
	logf("seeded in %v", time.Since(t0).Round(time.Second))
	return nil
}

// ensureKeys adds the benchmark keys unless they are there.
func ensureKeys(ctx context.Context, st store.Store) error {
	for _, k := range []struct {
		kind store.KeyKind
		key  string
	}{{store.Secret, SecretKey}, {store.Publishable, PublishableKey}} {
		if err := st.AddKey(ctx, store.NewKey(TeamID, k.kind, k.key, Start), k.key); err != nil && !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return nil
}

func seed(ctx context.Context, st store.Store, n int) error {
	if err := st.CreateTeam(ctx, store.Team{ID: TeamID, Name: "Bench", CreatedAt: Start}); err != nil {
		return err
	}
	if err := ensureKeys(ctx, st); err != nil {
		return err
	}
	sv := store.Survey{ID: SurveyID, TeamID: TeamID, Status: store.StatusActive, Definition: survey.Sample(), CreatedAt: Start, UpdatedAt: Start}
	if err := st.CreateSurvey(ctx, sv); err != nil {
		return err
	}
	// Concurrent writers let the store group commits.
	const workers = 128
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				at := At(i, n)
				who := "user" + strconv.Itoa(i%100_000)
				_, _, err := st.PutResponse(ctx, store.ResponseWrite{SurveyID: SurveyID, ID: ResponseID(i), Respondent: who,
					Data:     survey.Answers{"nps": survey.Number(i % 11), "stars": survey.Number(i%5 + 1), "comments": survey.Text("Fine, thanks")},
					Metadata: map[string]string{"page": "/home", "plan": "pro"}, At: at})
				if err != nil {
					errs <- err
					return
				}
				typ := store.EventView
				if i%4 == 0 {
					typ = store.EventDismiss
				}
				if err := st.RecordEvent(ctx, store.Event{SurveyID: SurveyID, Respondent: who, Type: typ, At: at}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}
