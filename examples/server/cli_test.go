package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/fixture"
	"github.com/svc-feedback/svc/store/sqlite"
)

// cmd runs the program with args against db, as a user's shell would.
func cmd(t *testing.T, db string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	getenv := func(k string) string {
		if k == "SVC_DB" {
			return db
		}
		return ""
	}
	err = run(t.Context(), args, getenv, &out, &errOut)
	return out.String(), errOut.String(), err
}

// A lost key is replaced with one command, without touching the data; the old one is revoked
// with another, and stops working at once.
func TestKeyCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "svc.db")
	if _, _, err := cmd(t, db, "team", "create", "-id", "acme", "-name", "Acme"); err != nil {
		t.Fatal(err)
	}
	out, _, err := cmd(t, db, "key", "create", "-team", "acme", "-kind", "secret")
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSpace(out)
	if err := store.ValidateKey(store.Secret, key); err != nil {
		t.Fatalf("key create printed %q: %v", out, err)
	}
	list, _, err := cmd(t, db, "key", "list", "-team", "acme")
	if err != nil || !strings.Contains(list, key[len(key)-4:]) || !strings.Contains(list, "secret") {
		t.Fatalf("key list = %q, %v; want the new key's last four characters", list, err)
	}
	st, err := sqlite.Open(t.Context(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	k, err := st.LookupKey(t.Context(), key)
	st.Close()
	if err != nil || k.TeamID != "acme" {
		t.Fatalf("the printed key does not open team acme: %+v, %v", k, err)
	}
	if _, _, err := cmd(t, db, "key", "revoke", "-team", "acme", k.ID); err != nil {
		t.Fatal(err)
	}
	st, err = sqlite.Open(t.Context(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.LookupKey(t.Context(), key); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the revoked key still opens: %v", err)
	}
}

// fixture export writes a team's surveys as a fixture without keys, secrets or history, and
// importing it into another database gives the same surveys.
func TestFixtureCommands(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src.db")
	path, _, _, surveyID := writeFixture(t, "http://127.0.0.1:9/hook")
	if _, _, err := cmd(t, src, "fixture", "import", path); err != nil {
		t.Fatal(err)
	}
	out, _, err := cmd(t, src, "fixture", "export", "-team", "acme")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "svc_pk_") || strings.Contains(out, "svc_sk_") || strings.Contains(out, "webhookSecret") ||
		strings.Contains(out, "responses") {
		t.Errorf("the export holds keys, secrets or history:\n%s", out)
	}
	var fx fixture.File
	if err := json.Unmarshal([]byte(out), &fx); err != nil || len(fx.Teams) != 1 || len(fx.Teams[0].Surveys) != 1 ||
		fx.Teams[0].Surveys[0].ID != surveyID {
		t.Fatalf("export = %s (%v), want team acme's one survey", out, err)
	}
	exported := filepath.Join(t.TempDir(), "surveys.json")
	dst := filepath.Join(t.TempDir(), "dst.db")
	if _, _, err := cmd(t, src, "fixture", "export", "-team", "acme", "-o", exported); err != nil {
		t.Fatal(err)
	}
	if _, _, err := cmd(t, dst, "fixture", "import", exported); err != nil {
		t.Fatalf("importing the export: %v", err)
	}
	st, err := sqlite.Open(t.Context(), dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sv, err := st.Survey(t.Context(), "acme", surveyID)
	if err != nil || sv.Title != fx.Teams[0].Surveys[0].Title || sv.WebhookSecret != "" {
		t.Errorf("imported survey = %+v, %v", sv, err)
	}
}

// Every command answers -h with its usage and no error status; a wrong command line is a usage
// error (exit status 2).
func TestCommandUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "svc.db")
	for _, c := range commands {
		args := append(strings.Fields(c.name), "-h")
		_, stderr, err := cmd(t, db, args...)
		if !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr, "-db") {
			t.Errorf("%s -h: %v, usage %q; want flag.ErrHelp and the flags", c.name, err, stderr)
		}
	}
	for _, args := range [][]string{
		{"key", "frob"}, {"key", "create", "-team", "acme"}, {"key", "create", "-team", "acme", "-kind", "root"},
		{"key", "revoke", "-team", "acme"}, {"team", "create", "-id", "x"}, {"fixture", "import"}, {"-no-such-flag"},
		{"team", "create", "-id", "x", "-name", "X", "extra"},
	} {
		if _, _, err := cmd(t, db, args...); !errors.Is(err, errUsage) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	if out, _, err := cmd(t, db, "help"); err != nil || !strings.Contains(out, "key create") {
		t.Errorf("help = %q, %v", out, err)
	}
}
