// The liveness tests' camera: getUserMedia answers a canvas's stream that
// plays a real person's own clip for whichever step the page asks. Each
// segment is a list of frames at 10 fps; the page's cue (.cue's class)
// picks the segment, which starts from its first frame when the cue
// changes and then holds its last frame (the person waits, looking at the
// camera). Without a cue the "rest" segment plays. fx moves, scales and
// darkens the picture (the ready-check states). log records when each
// segment started, to compare the person's pace with the page's.
(() => {
  const cam = { segs: {}, fx: { scale: 1, dx: 0, dy: 0, light: 1 }, log: [], force: "" };
  window.idgateTestCamera = cam;
  cam.load = async (name, urls) => {
    cam.segs[name] = await Promise.all(
      urls.map((u) => new Promise((ok, bad) => { const i = new Image(); i.onload = () => ok(i); i.onerror = bad; i.src = u; })),
    );
    return cam.segs[name].length;
  };
  navigator.mediaDevices.getUserMedia = async () => {
    const first = cam.segs.rest[0];
    const cv = document.createElement("canvas");
    cv.width = first.naturalWidth;
    cv.height = first.naturalHeight;
    const ctx = cv.getContext("2d");
    let seg = "";
    let t0 = 0;
    const draw = () => {
      const cue = document.querySelector(".cue");
      const step = cam.force || (cue && cue.className.split(" ")[1]) || "rest";
      if (step !== seg) {
        seg = step;
        t0 = performance.now();
        cam.log.push({ seg, at: Math.round(t0) });
      }
      const frames = cam.segs[seg] || cam.segs.rest;
      const img = frames[Math.min(frames.length - 1, Math.floor((performance.now() - t0) / 100))];
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
    const tick = () => {
      draw();
      track.requestFrame();
    };
    tick();
    setInterval(tick, 33);
    return stream;
  };
})();
