package svc_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/store"
	"github.com/svc-feedback/svc/store/sqlite"
)

// TestBootstrap: the first start makes the team and one key of each kind, which open the API;
// later starts, and a start after a failure between the team and its keys, make only what is
// missing and return nil when nothing is.
func TestBootstrap(t *testing.T) {
	ctx := t.Context()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "svc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys, err := svc.Bootstrap(ctx, st, "myapp", "My App")
	if err != nil || keys == nil {
		t.Fatalf("first Bootstrap = %v, %v", keys, err)
	}
	for kind, plain := range map[store.KeyKind]string{store.Publishable: keys.Publishable, store.Secret: keys.Secret} {
		if k, err := st.LookupKey(ctx, plain); err != nil || k.TeamID != "myapp" || k.Kind != kind {
			t.Errorf("the %s key %q: %+v, %v", kind, plain, k, err)
		}
	}
	if team, err := st.Team(ctx, "myapp"); err != nil || team.Name != "My App" {
		t.Errorf("the team: %+v, %v", team, err)
	}
	again, err := svc.Bootstrap(ctx, st, "myapp", "My App")
	if err != nil || again != nil {
		t.Errorf("second Bootstrap = %+v, %v, want nil, nil", again, err)
	}
	if ks, _ := st.Keys(ctx, "myapp"); len(ks) != 2 {
		t.Errorf("after two starts the team has %d keys, want 2", len(ks))
	}

	// A start that made the team and failed before its keys.
	if err := st.CreateTeam(ctx, store.Team{ID: "half", Name: "Half"}); err != nil {
		t.Fatal(err)
	}
	if keys, err := svc.Bootstrap(ctx, st, "half", "Half"); err != nil || keys == nil || keys.Publishable == "" || keys.Secret == "" {
		t.Errorf("Bootstrap of a team without keys = %+v, %v", keys, err)
	}
	if _, err := svc.Bootstrap(ctx, nil, "x", "X"); err == nil {
		t.Error("Bootstrap with no store: no error")
	}
	if _, err := svc.Bootstrap(ctx, st, "", "X"); err == nil {
		t.Error("Bootstrap with no team id: no error")
	}
}

// TestVersionIsTheChangelogs: svc.Version is the newest release the CHANGELOG dates.
func TestVersionIsTheChangelogs(t *testing.T) {
	b, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^## (\d+\.\d+\.\d+) - \d{4}-\d{2}-\d{2}$`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("the CHANGELOG dates no release")
	}
	if m[1] != svc.Version {
		t.Errorf("svc.Version = %s, the CHANGELOG's newest release is %s", svc.Version, m[1])
	}
	if !strings.Contains(string(b), "## "+svc.Version+" - ") {
		t.Errorf("the CHANGELOG has no heading for %s", svc.Version)
	}
}
