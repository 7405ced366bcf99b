package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/survey"
)

// webhookSlots is how many attempts at once svc makes to one destination by default (half its
// 8 workers), and so how many at once the baseline makes.
const webhookSlots = 4

// runWebhooks measures how fast svc's sender drains a burst of n deliveries to one fast
// receiver on loopback (it answers 204 at once), against a baseline of the same n signed-size
// POSTs to the same receiver from webhookSlots loops: the ceiling of the receiver and the
// loopback. It runs in this process, on a fresh SQLite file (or a fresh schema's worth of
// surveys in the PostgreSQL db), rounds times, alternating, and prints deliveries/s, the ratio,
// and this process's CPU per delivery (the receiver's included on both sides).
func runWebhooks(db string, n, rounds int) error {
	var got atomic.Int64
	rv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		got.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rv.Close()
	var svcRate, baseRate []float64
	var svcCPU, baseCPU time.Duration
	for round := range rounds {
		rate, cpu, err := drainOnce(db, rv.URL, n, round, &got)
		if err != nil {
			return err
		}
		svcRate, svcCPU = append(svcRate, rate), svcCPU+cpu
		rate, cpu, err = postLoop(rv.URL, n, &got)
		if err != nil {
			return err
		}
		baseRate, baseCPU = append(baseRate, rate), baseCPU+cpu
	}
	per := func(d time.Duration) time.Duration { return d / time.Duration(n*rounds) }
	fmt.Printf("\nwebhook deliveries to one fast receiver, %d a round, %d rounds (this process's CPU, the receiver's included):\n", n, rounds)
	fmt.Printf("  %-30s %s deliveries/s, %v CPU each\n", "baseline: raw POST loops", rates(baseRate), per(baseCPU))
	fmt.Printf("  %-30s %s deliveries/s, %v CPU each\n", "svc: outbox drained", rates(svcRate), per(svcCPU))
	for i := range svcRate {
		fmt.Printf("  round %d: svc/baseline %.2fx\n", i+1, svcRate[i]/baseRate[i])
	}
	return nil
}

func rates(rs []float64) string {
	lo, hi := rs[0], rs[0]
	for _, r := range rs {
		lo, hi = min(lo, r), max(hi, r)
	}
	return fmt.Sprintf("%.0f-%.0f", lo, hi)
}

// drainOnce writes n responses to a new survey whose webhook is url, each with its pending
// delivery, then starts svc's sender and times it until the receiver has them all.
func drainOnce(db, url string, n, round int, got *atomic.Int64) (float64, time.Duration, error) {
	ctx := context.Background()
	var st store.Store
	var err error
	if isPostgres(db) {
		st, err = postgres.Open(ctx, db, nil)
	} else {
		dir, derr := os.MkdirTemp("", "svc-webhooks-")
		if derr != nil {
			return 0, 0, derr
		}
		defer os.RemoveAll(dir)
		st, err = sqlite.Open(ctx, filepath.Join(dir, "svc.db"), nil)
	}
	if err != nil {
		return 0, 0, err
	}
	defer st.Close()
	now := time.Now().UTC()
	team := fmt.Sprintf("hooks%d%d", now.UnixNano(), round)
	if err := st.CreateTeam(ctx, store.Team{ID: team, Name: "Webhooks", CreatedAt: now}); err != nil {
		return 0, 0, err
	}
	sv := store.Survey{ID: store.NewSurveyID(), TeamID: team, Status: store.StatusActive, Definition: survey.Sample(),
		WebhookURL: url, WebhookSecret: "whsec_bench", CreatedAt: now, UpdatedAt: now}
	if err := st.CreateSurvey(ctx, sv); err != nil {
		return 0, 0, err
	}
	var wg sync.WaitGroup
	var werr atomic.Value
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 16 {
				_, _, err := st.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprintf("r%d", i), Respondent: "u",
					Data: survey.Answers{"nps": survey.Number(9)}, Metadata: map[string]string{"page": "/"}, At: now})
				if err != nil {
					werr.Store(err)
				}
			}
		}()
	}
	wg.Wait()
	if err, _ := werr.Load().(error); err != nil {
		return 0, 0, err
	}
	start, cpu0 := time.Now(), selfCPU()
	before := got.Load()
	h, err := svc.NewHandler(st, &svc.Options{Logger: slog.New(slog.DiscardHandler), Webhooks: svc.WebhookOptions{AllowPrivate: true}})
	if err != nil {
		return 0, 0, err
	}
	defer h.Close(ctx)
	for got.Load()-before < int64(n) {
		if time.Since(start) > 5*time.Minute {
			return 0, 0, fmt.Errorf("%d of %d deliveries after 5 minutes", got.Load()-before, n)
		}
		time.Sleep(time.Millisecond)
	}
	return float64(n) / time.Since(start).Seconds(), selfCPU() - cpu0, nil
}

// postLoop POSTs n bodies of a delivery's size to url from webhookSlots loops.
func postLoop(url string, n int, got *atomic.Int64) (float64, time.Duration, error) {
	body := bytes.Repeat([]byte("x"), 900)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: webhookSlots}}
	defer client.CloseIdleConnections()
	var next atomic.Int64
	var wg sync.WaitGroup
	var perr atomic.Value
	start, cpu0 := time.Now(), selfCPU()
	for range webhookSlots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					perr.Store(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	if err, _ := perr.Load().(error); err != nil {
		return 0, 0, err
	}
	return float64(n) / time.Since(start).Seconds(), selfCPU() - cpu0, nil
}

// selfCPU is this process's CPU time so far.
func selfCPU() time.Duration {
	d, _ := cpuTime(os.Getpid())
	return d
}
