// Package systemtest runs idgate as users deploy it when one machine is not
// enough: several `idgate serve` processes behind a load balancer, sharing
// one PostgreSQL and one Redis (docs/operations.md, Topology). Tests only; loopback
// only; each test has a schema and a Redis database of its own.
package systemtest

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/idgate/idgate/internal/testkit"
	facemodels "github.com/idgate/idgate/verifier/face/models"
)

// binary is the idgate built once for the package (TestMain).
var binary string

// parallel is how many of the package's tests run at once unless -parallel
// says otherwise: all five. They wait on the clock far more than they
// compute (PostgreSQL down 3 s, a webhook's lease running out, make run's
// start-up), and one after the other they took 159 s of CI's budget, the
// longest of them 53 s.
const parallel = "5"

func TestMain(m *testing.M) {
	flag.Parse()
	if !flagSet("test.parallel") {
		_ = flag.Set("test.parallel", parallel)
	}
	dir, err := os.MkdirTemp("", "idgate-systemtest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "systemtest:", err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "idgate")
	build := exec.Command("go", "build", "-o", binary, "github.com/idgate/idgate/cmd/idgate")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "systemtest: build idgate:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// flagSet reports whether the command line gave the flag.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// instance is one `idgate serve` process.
type instance struct {
	name string
	url  string
	cmd  *exec.Cmd
	log  *testkit.LogBuffer // the child's stderr (its JSON log)
	done chan struct{}
}

// cluster is the shared environment of the instances: what every verifier
// of one deployment must be given alike.
type cluster struct {
	dsn, redisURL string
	env           []string
}

// newCluster makes a fresh schema and a free Redis database and the keys
// every instance shares; extra adds IDGATE_* settings.
func newCluster(t *testing.T, extra ...string) *cluster {
	t.Helper()
	return newClusterAt(t, testkit.PostgresURL(t), freeRedisDB(t), extra...)
}

// newClusterAt is newCluster on a given database and Redis.
func newClusterAt(t *testing.T, dsn, redisURL string, extra ...string) *cluster {
	t.Helper()
	jwt := make([]byte, 32)
	secret := make([]byte, 32)
	rand.Read(jwt)
	rand.Read(secret)
	env := append(os.Environ(),
		"IDGATE_ENV=production",
		"IDGATE_DATABASE_URL="+dsn,
		"IDGATE_REDIS_URL="+redisURL,
		"IDGATE_JWT_KEYS=k1:"+base64.StdEncoding.EncodeToString(jwt),
		"IDGATE_SECRET_KEY="+base64.StdEncoding.EncodeToString(secret),
		"IDGATE_ADDR=127.0.0.1:0",
		"IDGATE_PUBLIC_URL=https://verify.example.com",
		"IDGATE_WEBHOOK_ALLOW_LOOPBACK=true",
		"IDGATE_SHUTDOWN_TIMEOUT=2s",
	)
	models := facemodels.DefaultDir()
	env = append(env, facemodels.EnvDir+"="+models)
	if entries, err := os.ReadDir(models); err != nil || len(entries) == 0 {
		// serve refuses to start without its face models.
		if os.Getenv("CI") == "true" {
			t.Fatalf("face models absent from %s (make models)", models)
		}
		t.Skipf("SKIPPED: face models absent from %s (make models, or set IDGATE_MODELS_DIR)", models)
	}
	return &cluster{dsn: dsn, redisURL: redisURL, env: append(env, extra...)}
}

// freeRedisDB picks an empty Redis database (1-15) and empties it again
// at the end: the verifier's rate-limit keys have a fixed prefix, so a
// database of its own keeps this test's counters apart.
func freeRedisDB(t *testing.T) string {
	t.Helper()
	addr := os.Getenv("IDGATE_TEST_REDIS_ADDR")
	if addr == "" {
		addr = "127.0.0.1:6379"
	}
	start := time.Now().Nanosecond()
	for i := range 15 {
		db := 1 + (start+i)%15
		c := goredis.NewClient(&goredis.Options{Addr: addr, DB: db})
		n, err := c.DBSize(context.Background()).Result()
		if err != nil {
			c.Close()
			if os.Getenv("CI") == "true" {
				t.Fatalf("Redis at %s: %v", addr, err)
			}
			t.Skipf("SKIPPED: Redis at %s unreachable: %v", addr, err)
		}
		if n == 0 {
			t.Cleanup(func() { c.FlushDB(context.Background()); c.Close() })
			return fmt.Sprintf("redis://%s/%d", addr, db)
		}
		c.Close()
	}
	t.Fatalf("no empty Redis database on %s", addr)
	return ""
}

// start runs one `idgate serve` and waits until it answers /healthz.
func (c *cluster) start(t *testing.T, name string, extraEnv ...string) *instance {
	t.Helper()
	cmd := exec.Command(binary, "serve")
	cmd.Env = append(append([]string{}, c.env...), extraEnv...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in := &instance{name: name, cmd: cmd, log: &testkit.LogBuffer{}, done: make(chan struct{})}
	cmd.Stderr = in.log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() { cmd.Wait(); close(in.done) }()
	t.Cleanup(func() { in.stop() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "idgate verifier listening on "); ok {
				addr <- a
			}
		}
	}()
	select {
	case in.url = <-addr:
	case <-in.done:
		t.Fatalf("%s exited at start: %s", name, in.log.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not start: %s", name, in.log.String())
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		resp, err := http.Get(in.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return in
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s /healthz: %v", name, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends the process gracefully (SIGTERM), or kills it after a while.
func (in *instance) stop() {
	if in.cmd.Process == nil {
		return
	}
	select {
	case <-in.done:
		return
	default:
	}
	_ = in.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-in.done:
	case <-time.After(10 * time.Second):
		_ = in.cmd.Process.Kill()
		<-in.done
	}
}

// kill is kill -9: no drain, no outcome recorded.
func (in *instance) kill(t *testing.T) {
	t.Helper()
	if err := in.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill -9 %s: %v", in.name, err)
	}
	<-in.done
}

// balancer is the load balancer: round robin over the instances still up,
// as a real one would after its health check drops a dead one.
type balancer struct {
	url   string
	next  atomic.Int64
	mu    sync.Mutex
	ups   []*instance
	count map[string]int // requests each instance served
}

func newBalancer(t *testing.T, ins ...*instance) *balancer {
	b := &balancer{ups: ins, count: map[string]int{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(b.serve)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	b.url = "http://" + ln.Addr().String()
	return b
}

func (b *balancer) serve(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	var live []*instance
	for _, in := range b.ups {
		select {
		case <-in.done:
		default:
			live = append(live, in)
		}
	}
	if len(live) == 0 {
		b.mu.Unlock()
		http.Error(w, "no instance up", http.StatusBadGateway)
		return
	}
	in := live[int(b.next.Add(1))%len(live)]
	b.count[in.name]++
	b.mu.Unlock()
	target, _ := url.Parse(in.url)
	httputil.NewSingleHostReverseProxy(target).ServeHTTP(w, r)
}

// add puts a new instance into the rotation (a replacement coming up).
func (b *balancer) add(in *instance) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ups = append(b.ups, in)
}

func (b *balancer) served() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]int{}
	for k, v := range b.count {
		out[k] = v
	}
	return out
}

// readAll reads and closes a response body.
func readAll(r io.ReadCloser) []byte {
	defer r.Close()
	b, _ := io.ReadAll(r)
	return b
}
