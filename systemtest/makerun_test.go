package systemtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	facemodels "github.com/idgate/idgate/verifier/face/models"
)

// makeRun is one scripts/run.sh (what `make run` runs) in a process group
// of its own, on free loopback ports, with its state in a directory of its
// own. The group is stopped when the test ends.
type makeRun struct {
	state                string
	verifier, storefront string // http://host:port
	app                  string // the store that installs the BigCommerce app, http://host:port
	cmd                  *exec.Cmd
	log                  *testkit.LogBuffer // run.sh's and its children's output
	done                 chan struct{}      // closed once run.sh has ended and its output is all read
	began                time.Time
}

// launchMakeRun starts scripts/run.sh as a newcomer's shell would (no
// IDGATE_* settings but the face models and the ports). A state directory
// that already holds an up-to-date idgate spares run.sh the link (go build
// then leaves it as it is); extra environment settings come last.
func launchMakeRun(t *testing.T, state string, extra ...string) *makeRun {
	t.Helper()
	models := facemodels.DefaultDir()
	if entries, err := os.ReadDir(models); err != nil || len(entries) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("face models absent from %s (make models)", models)
		}
		t.Skipf("SKIPPED: face models absent from %s (make models, or set IDGATE_MODELS_DIR)", models)
	}
	addr := func() string { return fmt.Sprintf("127.0.0.1:%d", freePort(t)) }
	verifier, storefront, app := addr(), addr(), addr()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "IDGATE_") {
			env = append(env, kv)
		}
	}
	env = append(env, "IDGATE_DEMO_STATE="+state, facemodels.EnvDir+"="+models,
		"IDGATE_ADDR="+verifier, "IDGATE_DEMO_ADDR="+storefront, "IDGATE_DEMO_PROXY_ADDR="+addr(), "IDGATE_DEMO_WEBHOOK_ADDR="+addr(), "IDGATE_DEMO_APP_ADDR="+app)
	m := &makeRun{
		state: state, verifier: "http://" + verifier, storefront: "http://" + storefront, app: "http://" + app,
		cmd: exec.Command("bash", filepath.Join(testkit.RepoRoot(t), "scripts", "run.sh")),
		log: &testkit.LogBuffer{}, done: make(chan struct{}),
	}
	m.cmd.Env = append(env, extra...)
	m.cmd.Stdout, m.cmd.Stderr = m.log, m.log
	m.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // run.sh and its two children
	m.began = time.Now()
	if err := m.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = m.cmd.Wait(); close(m.done) }()
	t.Cleanup(func() { m.stop(syscall.SIGTERM) })
	return m
}

// stop signals the whole group and waits for run.sh; what is left after
// 15 s is killed.
func (m *makeRun) stop(sig syscall.Signal) {
	_ = syscall.Kill(-m.cmd.Process.Pid, sig)
	select {
	case <-m.done:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-m.cmd.Process.Pid, syscall.SIGKILL)
		<-m.done
	}
}

// ended says whether run.sh has ended.
func (m *makeRun) ended() bool {
	select {
	case <-m.done:
		return true
	default:
		return false
	}
}

// waitReady waits until the demo store's page answers 200 (the verifier
// answers by then: run.sh starts the store only after its /healthz). It
// fails the test, with everything make run printed, if run.sh ends first.
func (m *makeRun) waitReady(t *testing.T, within time.Duration) time.Duration {
	t.Helper()
	for deadline := time.Now().Add(within); ; {
		if resp, err := http.Get(m.storefront + "/"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(m.began)
			}
		}
		if m.ended() {
			t.Fatalf("make run (scripts/run.sh) exited (%v):\n%s", m.cmd.ProcessState, m.log.String())
		}
		if time.Now().After(deadline) {
			t.Fatalf("the demo store did not answer within %s:\n%s", within, m.log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// seededState is a fresh state directory holding the idgate TestMain
// built, so run.sh's go build finds it up to date.
func seededState(t *testing.T) string {
	t.Helper()
	state := t.TempDir()
	src, err := os.Open(binary)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(filepath.Join(state, "idgate"), os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return state
}

// lastLine is the last line make run printed.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestMakeRunStartStop starts and stops scripts/run.sh the way the
// storefront demo's test does, several times in a row, each time in a fresh
// state directory (new database, keys, certificate and store account): it
// once ended by itself there with an empty log. Every start must answer,
// and every stop must end run.sh with a last line saying it was stopped,
// its two children gone with it: SIGTERM to the process group with 143;
// SIGINT, what Ctrl-C on `make run` sends, with 0 (it once ended 1 saying
// "the demo store (idgate store demo) ended (exit status 0) while running",
// and make printed Error 1, which read like a crash).
func TestMakeRunStartStop(t *testing.T) {
	t.Parallel()
	const runs = 4
	for i := range runs {
		sig, code, last := syscall.SIGTERM, 143, "make run: stopped by SIGTERM (running)"
		switch i {
		case 1:
			sig, code, last = syscall.SIGINT, 0, "make run: stopped by SIGINT (running)"
		case 3:
			// The demo store alone: what run.sh sees when the children
			// caught Ctrl-C and exited before bash ran its INT trap.
			sig, code, last = syscall.SIGINT, 0, "make run: stopped (the demo store (idgate store demo) shut down on a signal, as on Ctrl-C; the rest with it)"
		}
		m := launchMakeRun(t, seededState(t))
		startup := m.waitReady(t, 2*time.Minute)
		if i == 3 {
			if err := syscall.Kill(m.awaitChild(t, "store"), sig); err != nil {
				t.Fatal(err)
			}
			m.awaitEnd(t)
		}
		m.stop(sig)
		out := m.log.String()
		if got := m.cmd.ProcessState.ExitCode(); got != code {
			t.Fatalf("run %d: stopped with %v, run.sh exited %v, want %d:\n%s", i+1, sig, m.cmd.ProcessState, code, out)
		}
		if got := lastLine(out); got != last {
			t.Fatalf("run %d: stopped with %v, last line %q, want %q:\n%s", i+1, sig, got, last, out)
		}
		if err := syscall.Kill(-m.cmd.Process.Pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Fatalf("run %d: processes of make run's group outlived it (kill -0: %v):\n%s", i+1, err, out)
		}
		t.Logf("run %d: answered in %s, stopped by %v", i+1, startup.Round(100*time.Millisecond), sig)
	}
}

// TestMakeRunNeverEndsSilently: the ways scripts/run.sh used to end without
// a word (a child killed by a signal, a signal during start-up, a quiet step
// failing) each end it with a line that says which and how.
func TestMakeRunNeverEndsSilently(t *testing.T) {
	t.Parallel()
	t.Run("verifier killed", func(t *testing.T) {
		m := launchMakeRun(t, seededState(t))
		pid := m.awaitChild(t, "serve")
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		out := m.awaitEnd(t)
		if code := m.cmd.ProcessState.ExitCode(); code != 128+int(syscall.SIGKILL) {
			t.Errorf("run.sh exited %v, want 137 (its verifier's)", m.cmd.ProcessState)
		}
		// Killed as it starts, or just after it answered: either way it is named.
		if last := lastLine(out); !strings.HasPrefix(last, "make run: the verifier (idgate serve) ended (killed by SIGKILL) ") {
			t.Errorf("last line %q:\n%s", last, out)
		}
	})
	t.Run("stopped during start-up", func(t *testing.T) {
		m := launchMakeRun(t, seededState(t))
		m.awaitChild(t, "serve")
		_ = syscall.Kill(-m.cmd.Process.Pid, syscall.SIGTERM)
		out := m.awaitEnd(t)
		if code := m.cmd.ProcessState.ExitCode(); code != 143 {
			t.Errorf("run.sh exited %v, want 143", m.cmd.ProcessState)
		}
		if last := lastLine(out); !strings.HasPrefix(last, "make run: stopped by SIGTERM (starting the ") {
			t.Errorf("last line %q:\n%s", last, out)
		}
	})
	t.Run("step fails", func(t *testing.T) {
		state := seededState(t)
		// A database under a file: migrate cannot create its directory.
		if err := os.WriteFile(filepath.Join(state, "file"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		m := launchMakeRun(t, state, "IDGATE_DATABASE_URL=sqlite:"+filepath.Join(state, "file", "idgate.db"))
		out := m.awaitEnd(t)
		if code := m.cmd.ProcessState.ExitCode(); code != 1 {
			t.Errorf("run.sh exited %v, want 1", m.cmd.ProcessState)
		}
		want := fmt.Sprintf("make run: migrate failed (exit status 1): %s/idgate migrate; the end of its output (%s/run-log/migrate.log):\n  idgate migrate: ", state, state)
		if !strings.Contains(out, want) || !strings.Contains(out, "not a directory") {
			t.Errorf("output lacks %q and migrate's reason:\n%s", want, out)
		}
	})
}

// awaitChild is the pid of run.sh's `idgate <sub>` once it has started.
func (m *makeRun) awaitChild(t *testing.T, sub string) int {
	t.Helper()
	want := []byte(filepath.Join(m.state, "idgate") + "\x00" + sub + "\x00")
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, p := range procs {
			if cmdline, err := os.ReadFile(p); err == nil && bytes.HasPrefix(cmdline, want) {
				var pid int
				if _, err := fmt.Sscanf(p, "/proc/%d/cmdline", &pid); err == nil {
					return pid
				}
			}
		}
		if m.ended() {
			t.Fatalf("make run ended before idgate %s started (%v):\n%s", sub, m.cmd.ProcessState, m.log.String())
		}
	}
	t.Fatalf("idgate %s did not start within a minute:\n%s", sub, m.log.String())
	return 0
}

// awaitEnd waits (bounded) for run.sh to end by itself and returns its output.
func (m *makeRun) awaitEnd(t *testing.T) string {
	t.Helper()
	select {
	case <-m.done:
		return m.log.String()
	case <-time.After(time.Minute):
		t.Fatalf("make run did not end within a minute:\n%s", m.log.String())
		return ""
	}
}
