package systemtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// The fault test stops and restarts PostgreSQL and Redis. It must not touch
// the servers every other test shares, so it runs private ones: a throwaway
// PostgreSQL cluster (initdb) and a redis-server, each on a free loopback
// port, owned by the test and removed after it.

// absent skips a test whose server binaries are missing, loudly, and fails
// it under CI=true, where `scripts/deps.sh` has installed them.
func absent(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s not found", what)
	}
	t.Skipf("SKIPPED: %s not found", what)
}

// privatePG is a PostgreSQL cluster of the test's own.
type privatePG struct {
	bin, dir string
	port     int
	owner    *user.User // the cluster's OS user when the test runs as root (PostgreSQL refuses root)
	dsn      string
}

func newPrivatePG(t *testing.T) *privatePG {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	p := &privatePG{port: freePort(t)}
	if len(bins) > 0 {
		p.bin = filepath.Dir(bins[len(bins)-1])
	} else if path, err := exec.LookPath("pg_ctl"); err == nil {
		p.bin = filepath.Dir(path)
	} else {
		absent(t, "PostgreSQL's pg_ctl and initdb")
	}
	dir, err := os.MkdirTemp("", "idgate-faultpg-")
	if err != nil {
		t.Fatal(err)
	}
	p.dir = dir
	if os.Geteuid() == 0 {
		if p.owner, err = user.Lookup("postgres"); err != nil {
			absent(t, "the postgres OS user (PostgreSQL will not run as root)")
		}
		uid, _ := strconv.Atoi(p.owner.Uid)
		gid, _ := strconv.Atoi(p.owner.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		_ = p.ctl("stop", "-m", "immediate", "-w")
		os.RemoveAll(dir)
	})
	if out, err := p.command("initdb", "-D", p.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	p.dsn = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", p.port)
	p.start(t)
	return p
}

func (p *privatePG) data() string { return filepath.Join(p.dir, "data") }

// command runs one of PostgreSQL's programs, as the cluster's owner.
func (p *privatePG) command(prog string, args ...string) *exec.Cmd {
	path := filepath.Join(p.bin, prog)
	if p.owner != nil {
		return exec.Command("runuser", append([]string{"-u", p.owner.Username, "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

func (p *privatePG) ctl(args ...string) error {
	args = append([]string{"-D", p.data()}, args...)
	if out, err := p.command("pg_ctl", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("pg_ctl %v: %v\n%s", args, err, out)
	}
	return nil
}

// start starts the cluster and waits until it accepts connections.
// fsync is off: the test restarts the server cleanly (a fast shutdown
// writes everything out), it never crashes the machine.
func (p *privatePG) start(t *testing.T) {
	t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100", p.port, p.dir)
	if err := p.ctl("start", "-w", "-t", "60", "-l", filepath.Join(p.dir, "log"), "-o", opts); err != nil {
		t.Fatal(err)
	}
}

// stop is a fast shutdown: sessions are ended, in-flight transactions roll
// back, what committed is on disk.
func (p *privatePG) stop(t *testing.T) {
	t.Helper()
	if err := p.ctl("stop", "-m", "fast", "-w", "-t", "60"); err != nil {
		t.Fatal(err)
	}
}

// privateRedis is a redis-server of the test's own (nothing kept on disk,
// as the shared one).
type privateRedis struct {
	bin  string
	port int
	dir  string
	cmd  *exec.Cmd
	done chan struct{}
	url  string
}

func newPrivateRedis(t *testing.T) *privateRedis {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		absent(t, "redis-server")
	}
	r := &privateRedis{bin: bin, port: freePort(t), dir: t.TempDir()}
	r.url = fmt.Sprintf("redis://127.0.0.1:%d/0", r.port)
	r.start(t)
	t.Cleanup(func() { r.stop(t) })
	return r
}

func (r *privateRedis) start(t *testing.T) {
	t.Helper()
	r.cmd = exec.Command(r.bin, "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", r.dir)
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	r.done = done
	go func(cmd *exec.Cmd) { cmd.Wait(); close(done) }(r.cmd)
	c := goredis.NewClient(&goredis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", r.port)})
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); c.Ping(context.Background()).Err() != nil; {
		if time.Now().After(deadline) {
			t.Fatal("private redis-server did not answer")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (r *privateRedis) stop(t *testing.T) {
	t.Helper()
	select {
	case <-r.done:
		return
	default:
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.done
	}
}
