package main

import (
	"strings"
	"syscall"
	"testing"

	"github.com/svc-feedback/svc/client"
	"github.com/svc-feedback/svc/store/postgres/pgtest"
)

// The server runs on PostgreSQL when -db is a postgres:// URL: the demo's keys and survey are
// made there, a response is stored and listed, and the key commands work on it too.
func TestServerOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	db := pgtest.URL(t)
	bin := buildServer(t)
	p := startServer(t, bin, "-db", db)
	vars := map[string]string{}
	for _, line := range strings.Split(p.stdout.String(), "\n") {
		if kv, ok := strings.CutPrefix(line, "export "); ok {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
	}
	ctx := t.Context()
	pc, err := client.NewPublic(p.url, vars["SVC_PK"])
	if err != nil {
		t.Fatal(err)
	}
	id := client.NewResponseID()
	if _, err := pc.PutResponse(ctx, vars["SVC_SURVEY"], id, &client.ResponseInput{Respondent: "ann", Data: nil, Metadata: map[string]string{}}); err != nil {
		t.Fatalf("PUT on PostgreSQL: %v", err)
	}
	c, err := client.New(p.url, vars["SVC_SK"])
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.ListResponses(ctx, vars["SVC_SURVEY"], nil)
	if err != nil || len(page.Data) != 1 || page.Data[0].ID != id {
		t.Fatalf("responses on PostgreSQL: %+v, %v", page, err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("exit after SIGTERM: %v", err)
	}
	out, _, err := cmd(t, db, "key", "list", "-team", "demo")
	if err != nil || strings.Count(out, "\n") != 3 { // a header and the demo's two keys
		t.Errorf("key list on PostgreSQL = %q, %v", out, err)
	}
}
