// Package screenreader runs a real screen reader, Orca, for browser tests:
// a virtual X display (Xvfb) with a window manager (openbox, so the
// browser's window is active and Orca follows it), a D-Bus session with
// the AT-SPI bus, and Orca with its debug log, from which the tests read
// what Orca said (each "SPEECH OUTPUT" line: the words a user would hear).
// Speech goes to speech-dispatcher with ALSA's null device, so nothing is
// played and nothing blocks on a missing sound card.
//
// Each Session has its own HOME, display and bus, and stops only the
// processes it started (other browser tests run beside it).
package screenreader

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Session is one running screen reader on its own display.
type Session struct {
	t       testing.TB
	home    string
	display string
	env     []string // DISPLAY, HOME, XDG_*, DBUS_SESSION_BUS_ADDRESS
	log     string   // Orca's debug file
	procs   []*exec.Cmd
	busPID  int
	lock    *os.File // held while the session runs (takeOrca)
}

// takeOrca waits until no other session on the machine runs Orca, and
// holds that until the session stops: Orca allows one instance per user
// (started with --replace it kills every other orca process of the user,
// without it it refuses to start beside one), so two walks run together,
// in one test binary or two, silenced each other's Orca. The lock is a
// file lock, so a test killed mid-walk releases it.
func takeOrca(t testing.TB) *os.File {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "idgate-screenreader.lock"), os.O_CREATE|os.O_RDWR, 0o666)
	check(t, err)
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		t.Log("screen reader: waiting for another walk's Orca to stop")
		check(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX))
	}
	return f
}

// needs are the programs a Session runs (Debian: xvfb, dbus-x11, at-spi2-core,
// openbox, orca, speech-dispatcher, xdotool; scripts/deps.sh installs them).
var needs = []string{"Xvfb", "dbus-launch", "openbox", "orca", "xdotool", "/usr/libexec/at-spi-bus-launcher"}

// lineBuffered is Orca's user customization that makes its debug log
// line-buffered: Orca writes the log through Python's buffer, so the last
// utterances would reach the file only when more follow. Orca loads it
// after the log is opened.
const lineBuffered = `import orca.debug as debug
if debug.debugFile is not None:
    debug.debugFile.flush()
    debug.debugFile = open(debug.debugFile.name, "a", buffering=1)
`

// Start runs Xvfb, D-Bus, AT-SPI, openbox and Orca until the test ends.
// Under CI=true a missing program fails the test; elsewhere it skips
// loudly, as the browser tests do without Chromium.
func Start(t testing.TB) *Session {
	t.Helper()
	for _, n := range needs {
		if _, err := exec.LookPath(n); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not found under CI (scripts/deps.sh installs it): %v", n, err)
			}
			t.Skipf("SKIPPING the screen-reader walk — %s not found (%v); it runs in CI", n, err)
		}
	}
	s := &Session{t: t, home: t.TempDir()}
	s.lock = takeOrca(t)
	t.Cleanup(s.stop)
	run := filepath.Join(s.home, "run")
	conf := filepath.Join(s.home, ".config")
	orcaDir := filepath.Join(s.home, ".local", "share", "orca")
	for _, d := range []string{run, filepath.Join(conf, "speech-dispatcher"), orcaDir} {
		check(t, os.MkdirAll(d, 0o700))
	}
	speechd, err := os.ReadFile("/etc/speech-dispatcher/speechd.conf")
	check(t, err)
	speechd = regexp.MustCompile(`(?m)^#?\s*AudioOutputMethod .*$`).ReplaceAll(speechd, []byte(`AudioOutputMethod "alsa"`))
	check(t, os.WriteFile(filepath.Join(conf, "speech-dispatcher", "speechd.conf"), speechd, 0o644))
	check(t, os.WriteFile(filepath.Join(s.home, ".asoundrc"), []byte("pcm.!default { type null }\n"), 0o644))
	check(t, os.WriteFile(filepath.Join(orcaDir, "orca-customizations.py"), []byte(lineBuffered), 0o644))

	s.display = freeDisplay(t)
	s.env = []string{"HOME=" + s.home, "XDG_RUNTIME_DIR=" + run, "XDG_CONFIG_HOME=" + conf,
		"XDG_CACHE_HOME=" + filepath.Join(s.home, ".cache"), "DISPLAY=" + s.display, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	s.spawn("Xvfb", s.display, "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	s.waitFor(func() bool { _, err := os.Stat("/tmp/.X11-unix/X" + s.display[1:]); return err == nil }, "X display", 30*time.Second)

	out, err := s.command("dbus-launch", "--sh-syntax").Output()
	check(t, err)
	addr := shellValue(out, "DBUS_SESSION_BUS_ADDRESS")
	s.busPID, _ = strconv.Atoi(shellValue(out, "DBUS_SESSION_BUS_PID"))
	if addr == "" {
		t.Fatalf("dbus-launch gave no address: %s", out)
	}
	s.env = append(s.env, "DBUS_SESSION_BUS_ADDRESS="+addr)
	s.spawn("/usr/libexec/at-spi-bus-launcher", "--launch-immediately")
	s.spawn("openbox")
	s.log = filepath.Join(s.home, "orca-debug.txt")
	s.spawn("orca", "--replace", "--debug-file="+s.log)
	// Orca is Python and GTK: at a load of 22 (this machine with three
	// engineers' browser tests) it had not written a line of its debug
	// log after 30 s; alone it speaks in 2-3 s.
	s.waitFor(func() bool { return len(s.Said()) > 0 }, `"Screen reader on" from Orca`, 120*time.Second)
	return s
}

// Browser is the allocator options that put Chromium on the session's
// display with its accessibility tree exposed to AT-SPI (not headless: a
// headless browser has no window for Orca to read).
func (s *Session) Browser() []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.Flag("headless", false),
		chromedp.Flag("force-renderer-accessibility", true),
		chromedp.Env(s.env...),
	}
}

// Key presses keys (X keysyms: "Tab", "Return", "F6", "KP_Enter") on the
// real (virtual) keyboard, one after another, into the active window, as a
// person would; Orca hears them as it would a person's. Keys sent to the
// page over the DevTools protocol do not do: the browser starts with its
// focus in the address bar, and they move the page's focus without the
// browser's window following, so Orca says nothing.
func (s *Session) Key(keys ...string) {
	s.t.Helper()
	args := append([]string{"key", "--delay", "150"}, keys...)
	if out, err := s.command("xdotool", args...).CombinedOutput(); err != nil {
		s.t.Fatalf("xdotool %v: %v: %s", keys, err, out)
	}
}

// speech is one line of Orca's debug log that it spoke.
var speech = regexp.MustCompile(`SPEECH OUTPUT: '(.*)'\s*\{`)

// Said is everything Orca has said so far, in order.
func (s *Session) Said() []string {
	f, err := os.Open(s.log)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := speech.FindStringSubmatch(sc.Text()); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// Heard waits up to timeout until Orca, after its first `from`
// utterances, has said something containing one of wants; it returns that
// utterance, the index just past it (the next call's from) and whether it
// came.
func (s *Session) Heard(from int, timeout time.Duration, wants ...string) (string, int, bool) {
	deadline := time.Now().Add(timeout)
	for {
		said := s.Said()
		for i := from; i < len(said); i++ {
			for _, w := range wants {
				if strings.Contains(said[i], w) {
					return said[i], i + 1, true
				}
			}
		}
		if time.Now().After(deadline) {
			return "", from, false
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// WaitSaid is Heard that fails the test, with what Orca said instead, when
// nothing of wants came.
func (s *Session) WaitSaid(from int, timeout time.Duration, wants ...string) (string, int) {
	s.t.Helper()
	said, at, ok := s.Heard(from, timeout, wants...)
	if !ok {
		all := s.Said()
		s.t.Fatalf("Orca did not say any of %q within %v; it said: %q", wants, timeout, all[min(from, len(all)):])
	}
	return said, at
}

func (s *Session) command(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Env = s.env
	c.Dir = s.home
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return c
}

func (s *Session) spawn(name string, args ...string) {
	s.t.Helper()
	c := s.command(name, args...)
	if err := c.Start(); err != nil {
		s.t.Fatalf("start %s: %v", name, err)
	}
	s.procs = append(s.procs, c)
}

func (s *Session) waitFor(ok func() bool, what string, limit time.Duration) {
	s.t.Helper()
	for deadline := time.Now().Add(limit); !ok(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			s.t.Fatalf("screen reader: no %s after %v", what, limit)
		}
	}
}

// stop keeps Orca's debug log of a failed test (in the system's temporary
// directory, named in the test's log) and ends the session's processes,
// newest first, then the ones Orca spawned that left its process group
// (speech-dispatcher and its modules), found by the session's HOME in their
// environment.
func (s *Session) stop() {
	if s.t.Failed() && s.log != "" {
		if data, err := os.ReadFile(s.log); err == nil {
			keep := filepath.Join(os.TempDir(), "orca-"+strings.ReplaceAll(s.t.Name(), "/", "_")+".log")
			if os.WriteFile(keep, data, 0o644) == nil {
				s.t.Logf("Orca's debug log: %s", keep)
			}
		}
	}
	for i := len(s.procs) - 1; i >= 0; i-- {
		if p := s.procs[i].Process; p != nil {
			_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
			_, _ = p.Wait()
		}
	}
	if s.busPID > 0 {
		_ = syscall.Kill(s.busPID, syscall.SIGKILL)
	}
	environs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, e := range environs {
		env, err := os.ReadFile(e)
		if err != nil || !bytes.Contains(env, []byte("HOME="+s.home+"\x00")) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(e))); err == nil && pid != os.Getpid() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	_ = s.lock.Close() // releases the lock
}

// freeDisplay is an X display number no server holds.
func freeDisplay(t testing.TB) string {
	for n := 90 + os.Getpid()%100; n < 400; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); os.IsNotExist(err) {
			return fmt.Sprintf(":%d", n)
		}
	}
	t.Fatal("screen reader: no free X display")
	return ""
}

// shellValue reads NAME='value'; from dbus-launch --sh-syntax.
func shellValue(out []byte, name string) string {
	m := regexp.MustCompile(name + `='?([^';\n]*)'?;`).FindSubmatch(out)
	if m == nil {
		return ""
	}
	return string(m[1])
}

func check(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
