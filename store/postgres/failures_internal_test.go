package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
	"github.com/svc-feedback/svc/survey"
)

// TestPanicInWriteRollsBack panics inside a write's transaction, as a bug in the writer's code
// would: the write fails with an error rather than ending the process, what it had written is
// rolled back, and the Store goes on writing.
func TestPanicInWriteRollsBack(t *testing.T) {
	ctx := context.Background()
	s, sv := openWithSurvey(t, store.NewSurveyID(), nil)
	err := s.pipelined(ctx, "a write", func(conn querier) error {
		var b pgx.Batch
		b.Queue(`BEGIN`)
		b.Queue(`INSERT INTO events (survey_id, respondent, type, created_at) VALUES ($1, 'ann', 'view', 0)`, sv.ID)
		if err := conn.SendBatch(ctx, &b).Close(); err != nil {
			return err
		}
		panic("a bug")
	})
	if err == nil || !strings.Contains(err.Error(), "panicked: a bug") {
		t.Fatalf("the write returned %v, want its panic as an error", err)
	}
	for range 2 * int(s.pool.Config().MaxConns) { // every connection of the pool, the one that panicked too
		if err := s.RecordEvent(ctx, store.Event{SurveyID: sv.ID, Respondent: "bob", Type: store.EventView, At: t0}); err != nil {
			t.Fatal(err)
		}
	}
	if got := column(t, s, `SELECT respondent FROM events ORDER BY 1 LIMIT 1`); !cmp.Equal(got, []string{"bob"}) {
		t.Errorf("events %v: the panicked write's insert was kept", got)
	}
}

// TestDatabaseGoneFailsWritesAtOnce cuts the connection to PostgreSQL (through a loopback proxy
// the test controls) under a load of writes: every write fails with store.ErrUnavailable (the
// HTTP layer's 503 and Retry-After) rather than with an unknown error (a 500). After the
// database is back, writes succeed again.
func TestDatabaseGoneFailsWritesAtOnce(t *testing.T) {
	ctx := context.Background()
	p := newProxy(t, pgtest.URL(t))
	s, sv := openAt(t, p.url, store.NewSurveyID(), nil)
	write := func(i int) error {
		_, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprint("r", i), Respondent: "u", Data: survey.Answers{}, At: t0})
		return err
	}
	if err := write(0); err != nil {
		t.Fatal(err)
	}
	p.cut()
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := write(i + 1); !errors.Is(err, store.ErrUnavailable) {
				t.Errorf("write %d with the database gone: %v, want store.ErrUnavailable", i+1, err)
			}
		}()
	}
	wg.Wait()
	p.restore()
	if err := write(100); err != nil {
		t.Errorf("a write after the database came back: %v", err)
	}
}

// TestTerminatedConnectionsAreUnavailable: PostgreSQL stopping or restarting ends its
// connections with admin_shutdown (SQLSTATE 57P01), as pg_terminate_backend does here to the
// store's own connections while writes and reads are in flight. Every one that fails says the
// store is unavailable (a 503 with Retry-After over HTTP), none is an internal error, and the
// store serves again at once.
func TestTerminatedConnectionsAreUnavailable(t *testing.T) {
	ctx := context.Background()
	base := pgtest.URL(t)
	s, sv := openAt(t, base+"&application_name=svc_terminated", store.NewSurveyID(), nil)
	// Directly: through a pooler, the admin's statement may run on a server session last
	// named svc_terminated, and end itself.
	admin, err := pgx.Connect(ctx, pgtest.Direct(t, base))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				_, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: fmt.Sprintf("r%d-%d", w, i), Respondent: "u", Data: survey.Answers{}, At: t0})
				if err == nil {
					_, err = s.Stats(ctx, sv.ID)
				}
				if err != nil {
					failed.Add(1)
					if !errors.Is(err, store.ErrUnavailable) {
						t.Errorf("a call while the connections were terminated: %v, want store.ErrUnavailable", err)
					}
				}
			}
		}()
	}
	for range 5 {
		if _, err := admin.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'svc_terminated'`); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	t.Logf("%d of 320 calls failed while the connections were terminated", failed.Load())
	if _, _, err := s.PutResponse(ctx, store.ResponseWrite{SurveyID: sv.ID, ID: "after", Respondent: "u", Data: survey.Answers{}, At: t0}); err != nil {
		t.Errorf("a write after: %v", err)
	}
}

// proxy forwards TCP connections to a PostgreSQL server until cut.
type proxy struct {
	url    string
	target string
	ln     net.Listener
	mu     sync.Mutex
	conns  []net.Conn
	down   bool
}

func newProxy(t *testing.T, dbURL string) *proxy {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{target: u.Host, ln: ln}
	u.Host = ln.Addr().String()
	p.url = u.String()
	t.Cleanup(func() { ln.Close(); p.cut() })
	go p.serve()
	return p
}

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		p.mu.Unlock()
		if down {
			c.Close() // refused, as by a server that is down
			continue
		}
		d, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, d)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(d, c); d.Close() }()
		go func() { _, _ = io.Copy(c, d); c.Close() }()
	}
}

// cut closes every forwarded connection and refuses new ones until restore.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *proxy) restore() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}

// TestErrorsMapped checks how PostgreSQL's errors reach callers, and which make a failed batch
// run its writes again one by one (the database answered: only some writes may be at fault)
// rather than fail them all (it could not be reached: each would wait for the same outage).
func TestErrorsMapped(t *testing.T) {
	s := &Store{}
	for _, c := range []struct {
		err      error
		want     error
		oneByOne bool
	}{
		{&pgconn.PgError{Code: "23503"}, store.ErrNotFound, true},
		{&pgconn.PgError{Code: "23505"}, store.ErrConflict, true},
		{&pgconn.PgError{Code: "22021"}, store.ErrInvalid, true},
		{&pgconn.PgError{Code: "40P01"}, store.ErrUnavailable, true}, // a deadlock with another batch
		{&pgconn.PgError{Code: "40001"}, store.ErrUnavailable, true},
		{&pgconn.PgError{Code: "57P03"}, store.ErrUnavailable, true},
		{&pgconn.PgError{Code: "57P01"}, store.ErrUnavailable, false}, // a stop, a restart, a terminated connection
		{&pgconn.PgError{Code: "57P02"}, store.ErrUnavailable, false},
		{&pgconn.PgError{Code: "08006"}, store.ErrUnavailable, false},
		{&pgconn.PgError{Code: "25006"}, store.ErrUnavailable, false}, // a standby, after a failover
		{net.ErrClosed, store.ErrUnavailable, false},
		{&net.OpError{Op: "dial", Err: errors.New("connection refused")}, store.ErrUnavailable, false},
		{fmt.Errorf("batch: %w", context.DeadlineExceeded), store.ErrUnavailable, false},
		{io.ErrUnexpectedEOF, store.ErrUnavailable, false},
	} {
		got := s.mapErr(c.err, "write")
		if !errors.Is(got, c.want) {
			t.Errorf("%v: mapped to %v, want %v", c.err, got, c.want)
		}
		if oneByOne := !unreachable(got); oneByOne != c.oneByOne {
			t.Errorf("%v: a batch failing with it runs again one by one: %v, want %v", c.err, oneByOne, c.oneByOne)
		}
	}
}

// TestWatchReconnects loses the listening connection (the one that wakes the webhook sender and
// drops other instances' cached keys and surveys) with the database, through a loopback proxy
// the test cuts: the watcher says it lost the connection, connects again once the database is
// back, and hears what is announced after. It listens on a channel of its own, since other
// tests' instances announce on the store's channels of the same database.
func TestWatchReconnects(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// LISTEN needs a direct connection: the store's, through the proxy, goes to the server.
	url := pgtest.Direct(t, pgtest.URL(t))
	p := newProxy(t, url)
	s, _ := openAt(t, p.url, store.NewSurveyID(), nil)
	direct, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close(context.Background())
	channel := fmt.Sprintf("svc_test_watch_%d", os.Getpid())
	heard, lost := make(chan string, 1000), make(chan struct{}, 1000)
	done := make(chan error, 1)
	go func() {
		done <- s.watch(ctx, listener{channels: []string{channel},
			notify: func(_, payload string) {
				select {
				case heard <- payload:
				default:
				}
			},
			down: func() {
				select {
				case lost <- struct{}{}:
				default:
				}
			}})
	}()
	// hears announces payload until the watcher hears it: it listens from a moment after it
	// starts or reconnects that the test cannot see.
	hears := func(payload string) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			if _, err := direct.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, payload); err != nil {
				t.Fatal(err)
			}
			select {
			case got := <-heard:
				if got == payload {
					return
				}
			case <-time.After(50 * time.Millisecond):
			case <-deadline:
				t.Fatalf("after 30 s the watcher has not heard %q", payload)
			}
		}
	}
	hears("before the cut")
	if len(lost) != 0 {
		t.Fatal("the watcher said it lost its connection before it was lost")
	}
	p.cut()
	select {
	case <-lost:
	case <-time.After(30 * time.Second):
		t.Fatal("after 30 s the watcher has not noticed its connection was lost")
	}
	p.restore()
	hears("after the database came back")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the watcher ended with %v, want context.Canceled", err)
	}
}
