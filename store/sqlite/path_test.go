package sqlite_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/svc-feedback/svc/store/sqlite"
)

// TestOpenSaysWhatIsWrongWithThePath: SQLite answers a missing directory, a read-only one and a
// read-only file alike ("unable to open database file: no such file or directory"); Open says
// which it is.
func TestOpenSaysWhatIsWrongWithThePath(t *testing.T) {
	if os.Geteuid() == 0 {
		// Root writes where permissions say no one may (and CI runs as root): the test runs
		// again as nobody, where they hold.
		runAsNobody(t)
		return
	}
	dir := t.TempDir()
	readOnlyDir := filepath.Join(dir, "ro")
	if err := os.Mkdir(readOnlyDir, 0o555); err != nil {
		t.Fatal(err)
	}
	readOnlyFile := filepath.Join(dir, "ro.db")
	if err := os.WriteFile(readOnlyFile, nil, 0o444); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing directory", filepath.Join(dir, "nope", "svc.db"), "the directory " + filepath.Join(dir, "nope") + " does not exist"},
		{"a directory", readOnlyDir, "it is a directory, not a file"},
		{"read-only directory", filepath.Join(readOnlyDir, "svc.db"), "the directory " + readOnlyDir + " is not writable"},
		{"read-only file", readOnlyFile, "the file is not writable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := sqlite.Open(t.Context(), tt.path, nil)
			if err == nil {
				st.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "migrate") {
				t.Errorf("Open = %q, want it to say %q", err, tt.want)
			}
		})
	}
}

// runAsNobody runs the calling test again in a copy of the test binary, as the user nobody,
// and fails with its output when it fails.
func runAsNobody(t *testing.T) {
	t.Helper()
	dir, err := os.MkdirTemp("", "svc-as-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "sqlite.test")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	const nobody = 65534
	cmd := exec.CommandContext(t.Context(), bin, "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Dir = dir
	cmd.Env = []string{"TMPDIR=" + os.TempDir(), "PATH=" + os.Getenv("PATH")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("as nobody (%v):\n%s", err, out)
	}
}
