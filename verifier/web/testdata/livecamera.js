// The liveness tests' camera: getUserMedia answers a canvas's stream that
// plays a real person's own clip for whichever step the page asks. Each
// segment is a list of frames, each shown from its time in ms (the clip's
// own timing; 100 ms apart when no times are given); the page's cue
// (.cue's class) picks the segment, which starts from its first frame
// when the cue changes and then holds its last frame (the person waits,
// looking at the camera), or, if again[name] is set, starts over once its
// last frame has stayed that many ms (a person who sees the cue still up
// does it again). Without a cue the "rest" segment plays. The canvas is
// redrawn every 33 ms, a phone camera's 30 fps, on the page's own thread:
// stall is the longest it went without a new frame (a page so busy that
// the person on camera froze, which no real camera does). fx moves, scales and
// darkens the picture (the ready-check states). log records when each
// segment started, to compare the person's pace with the page's. workers
// are the page's workers, so that a test can end one (a worker that dies),
// each with what it said (said: its messages' types but the frames');
// hold[name] holds each frame the page gives a worker while that cue is up
// ("rest": no cue) that many ms, or until the cue changes: a phone whose
// tracker is slow before the first cue, or stalls through a step (a worker
// silent 5 s is taken for lost: tracker.ts, answerMs). drop fails that
// many of the page's next liveness answers as a dropped upload does,
// without sending them (dropped counts them).
(() => {
  const cam = { segs: {}, fx: { scale: 1, dx: 0, dy: 0, light: 1 }, log: [], force: "", again: {}, repeats: 0, stall: 0, hold: {} };
  const cueNow = () => {
    const cue = document.querySelector(".cue");
    return cam.force || (cue && cue.className.split(" ")[1]) || "rest";
  };
  let held = [];
  const release = () => {
    const now = performance.now();
    const due = held.filter((h) => h.cue !== cueNow() || now >= h.until);
    held = held.filter((h) => !due.includes(h));
    due.forEach((h) => h.send());
  };
  setInterval(release, 20);
  window.idgateTestCamera = cam;
  cam.load = async (name, s) => {
    const imgs = await Promise.all(
      s.urls.map((u) => new Promise((ok, bad) => { const i = new Image(); i.onload = () => ok(i); i.onerror = bad; i.src = u; })),
    );
    cam.segs[name] = { imgs, at: s.at || imgs.map((_, i) => i * 100) };
    return imgs.length;
  };
  const Worker0 = window.Worker;
  cam.workers = [];
  window.Worker = class extends Worker0 {
    constructor(...args) {
      super(...args);
      cam.workers.push(this);
      this.said = [];
      this.addEventListener("message", (ev) => {
        const type = ev.data && ev.data.type;
        if (type !== "seen" && type !== "unseen") this.said.push(type);
      });
    }
    postMessage(m, transfer) {
      const cue = cueNow();
      if (m && m.type === "see" && cam.hold[cue] > 0) held.push({ cue, until: performance.now() + cam.hold[cue], send: () => super.postMessage(m, transfer) });
      else super.postMessage(m, transfer);
    }
  };
  // The page's liveness answer (an XMLHttpRequest: src/api.ts, upload):
  // the frames and their times it sent, and what the server said of them;
  // jpegs() gives the frames as data: URLs.
  cam.jpegs = () =>
    Promise.all((cam.frames || []).map((b) => new Promise((ok) => { const r = new FileReader(); r.onload = () => ok(r.result); r.readAsDataURL(b); })));
  const send0 = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    if (!(body instanceof FormData && body.has("timestamps"))) return send0.call(this, body);
    (cam.sent = JSON.parse(body.get("timestamps"))), (cam.frames = body.getAll("frame"));
    // drop: the next answers fail as a dropped upload does, unsent.
    if (cam.drop > 0) {
      cam.drop--;
      cam.dropped = (cam.dropped || 0) + 1;
      return void setTimeout(() => this.dispatchEvent(new ProgressEvent("error")), 0);
    }
    this.addEventListener("load", () => {
      if (!cam.answer) try { cam.answer = JSON.parse(this.responseText); } catch { cam.answer = null; }
    });
    return send0.call(this, body);
  };
  navigator.mediaDevices.getUserMedia = async () => {
    const first = cam.segs.rest.imgs[0];
    const cv = document.createElement("canvas");
    cv.width = first.naturalWidth;
    cv.height = first.naturalHeight;
    const ctx = cv.getContext("2d");
    let seg = "";
    let t0 = 0;
    const draw = () => {
      const step = cueNow();
      if (step !== seg) {
        seg = step;
        t0 = performance.now();
        cam.log.push({ seg, at: Math.round(t0) });
      }
      const s = cam.segs[seg] || cam.segs.rest;
      let el = performance.now() - t0;
      if (seg in cam.again && el >= s.at[s.at.length - 1] + cam.again[seg]) {
        t0 = performance.now();
        el = 0;
        cam.repeats++;
      }
      let k = 0;
      while (k + 1 < s.at.length && s.at[k + 1] <= el) k++;
      const img = s.imgs[k];
      const f = cam.fx;
      ctx.fillStyle = "#777";
      ctx.fillRect(0, 0, cv.width, cv.height);
      const w = cv.width * f.scale;
      const h = cv.height * f.scale;
      ctx.filter = f.light === 1 ? "none" : "brightness(" + f.light + ")";
      ctx.drawImage(img, (cv.width - w) / 2 + f.dx * cv.width, (cv.height - h) / 2 + f.dy * cv.height, w, h);
      ctx.filter = "none";
    };
    // Frames are pushed by hand: a stream at a fixed rate stalls in
    // headless Chromium once the canvas is not painted on screen.
    const stream = cv.captureStream(0);
    const track = stream.getVideoTracks()[0];
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      cam.stall = Math.max(cam.stall, Math.round(now - last));
      last = now;
      draw();
      track.requestFrame();
    };
    tick();
    // Once the page stops the camera it draws no more: a page opens one
    // per step and retry, and each left running would log its own
    // segment changes and take the page's thread from the one in use.
    const timer = setInterval(() => (track.readyState === "ended" ? clearInterval(timer) : tick()), 33);
    return stream;
  };
})();
