// Liveness: the front camera, the challenge's steps shown one at a time
// with a visible cue, frames captured at the challenge's budget and sent
// in one request; a failed attempt says why and retries while attempts
// remain. The server decides whether each step was done, from the frames.
//
// With the face tracker (tracker.ts, loaded when the step starts; its
// detector first, then the mesh, then the eyelids) the page guides: before
// the first cue it waits for a face in the oval, close enough and lit; during each step it shows how far the head has turned
// against the server's own angle (the challenge's guide) or that a blink
// was seen, and the next cue comes when the tracker saw the step done (or
// at the step's time limit). Without it (no WebAssembly, a failed load, a
// binary built without make npm) the cues are paced by the clock, at a
// pace real people keep (pacedStepMs).
import { APIError, NetworkError, type Challenge, type LivenessAnswer } from "./api";
import type { App } from "./app";
import type { Other } from "./capture";
import { CameraError, help, open, stop } from "./camera";
import { button, h, spinner } from "./dom";
import { back } from "./finish";
import { isDesktop } from "./start";
import { has, t, type Key } from "./i18n";
import { canvasOf, toJPEG } from "./image";
import { load as loadTracker, maxLanes, type Seen, type Tracker } from "./tracker";
import { margin, problem, readyHold, Steps, type Problem, type Progress, type Visible } from "./trackersteps";

// pacedStepMs is how long each cue may stay up without a tracker. The
// real person of ../shared/testdata/liveness/real (smartlive) turns and is
// back in 1.4–1.9 s once he moves, and the walks took 2–4 s from
// cue to done; the server allows step_timeout_ms (8 s). The frame budget
// bounds it further (paced): at the budget's 15 fps its 150 frames hold
// 0.6 s of lead and 3 cues of 3.1 s. The rate is not lowered to make cues
// longer: a blink can be a single frame at 15 fps (Foreman's).
const pacedStepMs = 4000;
// blinkAgainMs: a blink the tracker has not seen this long after its cue
// is asked for again, a little longer ("Not seen yet: …"). A prompted
// blink comes within about a second (smartlive's 0.2 s after his prompt);
// a tracker that reads the eyelids a few times a second can miss one of
// 70–210 ms (session 32's CI rehearsal: the cue up 7.8 s), and a longer
// closure gives it more frames to read closed. The server times the next
// step from the last blink before it (liveness Config.BlinkLast), so the
// blink asked again is not judged late; 3 s leaves 5 of the step's 8 for it.
const blinkAgainMs = 3000;
// readyMs is the pause on "Look at the camera" before the first cue when
// nothing tracks the face; the last leadMs of it are captured too, so the
// stream opens with the person at rest: the server takes their own
// straight-ahead from the frames that face the camera (the median of those
// within 20°), of which a turn has only its start and end, and judges turns
// from there; the tracked page's lead-in gives its first frames too.
const readyMs = 1200;
const leadMs = 600;
// leadRest and leadMaxMs: with a tracker, the first cue also waits for
// leadRest frames of the lead-in tracked with the head's pose, for at
// most leadMaxMs from the recording's start. The server takes the
// straight-ahead from every frame sent, the lead-in's 7 or more at rest
// among them; the page only from those it tracked (each standing for the
// frames sent around it: trackersteps.ts, Steps.settle). A tracker that
// read no posed frame in the lead-in (a slow phone, or the iris model's
// first run, which the lead-in is the first to ask for) took the page's
// straight-ahead from the first turn's own frames under 20°; and the
// server's own, over a 600 ms lead-in and the left turn's frames, moved
// too: with the test camera holding the tracker's lead-in frames 700 ms
// and the cue at 600 ms, the page measured his right turn from −5.0°, the
// server from 9.5°, which took his way back from the left turn for the
// right turn; with the wait, both −5.8° and −6.0°
// (TestTrackedLivenessSlowTrackerWaitsForRestInChromium). Three is what
// the worker tracks in the 600 ms at 4–7 fps, and the fewest whose median
// ignores one misread frame. The bound: 2500 ms lets a tracker read its
// three at 1.2 fps with the eyelids (the lead-in asks them), about the
// rate of the page's thread at 4× with every model under a load of 20–30
// (1.4–2.2 fps, 0.2–1.0 with eyelids: docs/end-user-flow.md); slower than
// that, the cue comes at the bound with what was read. It costs at most
// 23 of the budget's 150 frames at 12 fps, leaving 10.5 s for three steps
// a real person does in 2–4 s each.
const leadRest = 3;
const leadMaxMs = 2500;
// trackedFps: the capture rate with a tracker. 12 fps keeps a prompted
// blink (about 500 ms closed) in several frames, above the server's 8 fps
// floor, and leaves 150 frames for 12.5 s of steps.
const trackedFps = 12;
// pairMs: the most two frames tracked as a pair may be apart. The tracker
// takes two frames at a time, one just after the other: the later with
// the detector, the earlier on the later one's box (facetrack.ts,
// carry). Carried forward to the next frame, the box is read only if that
// frame comes within carryMs (110 ms); on the page's thread at 4× a
// detector frame holds up the recorder's timer, and the next frame came
// later than that on 4 frames in 5 (bench/pages -only-liveness,
// 2026-11-30: 17% carried there, 49% in the worker), so the detector ran
// on nearly every frame. A pair's two frames are taken while the tracker
// waits, one timer's period apart. Carried back to the frame 100 ms
// before, the box put none of the 16 real turns' peaks over the server's
// by more than 1° (worst +0.8°; forward +0.7°), 125 ms before 5 of 16
// (worst +4.0°; bench/pages -go-levers, the server's pipeline): so 110,
// as forward.
const pairMs = 110;
// tailMs: frames kept after the tracker saw the last step done, so the
// server sees the head back too.
const tailMs = 300;
// trackerWaitMs: how long "Start the video" waits for a tracker still
// loading before it paces without one.
const trackerWaitMs = 20000;

// retake, given when the document's steps are done, offers on the step's
// first screen to photograph the document's last side again (an accepted
// photo may be replaced until submit; the license's back offers the front
// in turn).
export function liveness(app: App, done: () => void, retake?: Other): void {
  // A link whose attempts are used is normally completed (main.ts shows
  // the ended page); one whose completion failed says so at once: its
  // "Start the video" would open the camera only to be refused.
  if (app.session.liveness_attempts_left <= 0) return noMore(app);
  // The step starts: the tracker loads while the person reads.
  void loadTracker();
  app.show(
    "live",
    t("live.title"),
    h("p", null, t("live.hint")),
    h("p", { class: "note" }, t("live.needcam")),
    h("div", { class: "actions" }, button(t("live.start"), () => void attempt(app, done)), retake ? button(retake.label, retake.go, "sec") : null),
  );
}

// UI is the capture screen's moving parts.
interface UI {
  stage: HTMLElement;
  video: HTMLVideoElement;
  cue: HTMLElement;
  say: HTMLElement;
  meter: HTMLElement;
}

async function attempt(app: App, done: () => void): Promise<void> {
  const video = h("video", { muted: true, playsinline: true, autoplay: true, "aria-hidden": "true" });
  const cue = h("div", { class: "cue", "aria-hidden": "true" });
  const say = h("p", { class: "say", "aria-live": "assertive" }, t("camera.starting"));
  // The meter shows a step's progress as a bar and in words; it is not
  // announced (it changes every frame): say announces the milestones.
  const meter = h("div", { class: "meter", hidden: true, "aria-hidden": "true" }, h("span", { class: "bar" }), h("span", { class: "label" }));
  const stage = h("div", { class: "stage face" }, video, h("div", { class: "oval" }), cue);
  const ui: UI = { stage, video, cue, say, meter };
  app.show("live-capture", t("live.title"), stage, say, meter);
  const t0 = performance.now();
  let stream: MediaStream | null = null;
  try {
    stream = await open(video, "user", { width: 640, height: 480 });
  } catch (e) {
    const hp = help(e instanceof CameraError ? e.problem : "none");
    // A computer with no camera can still finish on a phone: the same
    // link, as the start page offers it.
    app.show(
      "live-nocamera",
      hp.title,
      h("p", { class: "err" }, t("live.needcam")),
      h("p", null, hp.body),
      h("div", { class: "actions" }, button(t("camera.retry"), () => void attempt(app, done))),
      isDesktop() &&
        h(
          "section",
          { class: "handoff after", "aria-labelledby": "handoff-h" },
          h("h2", { id: "handoff-h" }, t("handoff.title")),
          h("img", { class: "qr", src: app.api.base + "/qr.svg", alt: t("handoff.qr"), width: "200", height: "200" }),
          h("p", null, t("handoff.body")),
        ),
    );
    return;
  }
  // When the camera and then the tracker were ready, in ms from the
  // attempt's start, for the page budget's benchmark (bench/pages -first:
  // where the time to the first guidance goes).
  stage.dataset.cameraAt = String(Math.round(performance.now() - t0));
  tell(ui, t("live.guide.loading"));
  const tracker = await Promise.race([loadTracker(), sleep(trackerWaitMs).then(() => null)]);
  stage.dataset.trackerAt = String(Math.round(performance.now() - t0));
  if (tracker) {
    stage.dataset.tracker = "on";
    stage.dataset.trackerIn = tracker.where;
    await ready(ui, tracker, t0);
  }
  let ch: Challenge;
  try {
    ch = await app.api.challenge();
  } catch (e) {
    stop(stream);
    // The link's last attempt used elsewhere (another tab or phone)
    // completed the verification: that is a 410, and app.fail shows the
    // completed link. A 429 is the challenge rate limit, or, should that
    // completion have failed, no attempts left, which waiting does not
    // cure: the session tells the two apart.
    if (e instanceof APIError && e.status === 429) return void exhausted(app, e, done);
    app.fail(e, () => void attempt(app, done));
    return;
  }
  let shot: Shot;
  if (tracker && tracker.where !== "none") {
    shot = await guided(ui, tracker, ch);
  } else {
    tell(ui, t("live.ready"));
    await sleep(readyMs - leadMs);
    shot = await paced(ui, ch);
  }
  stop(stream);
  await send(app, ch, shot, done);
}

// send uploads the recording and shows the answer. An upload that got no
// answer (the network dropped, or the server cut a stalled upload: 408),
// or a server error, offers to send the same frames again, not to record
// again, and says so: the person's movements are not lost to a network
// (the challenge stays answerable for its TTL, and the server answers a
// repeated answer it already judged with the same reply). A busy server
// (503) counts down and sends again (app.fail). A challenge that expired
// meanwhile is a 409, on which the page resumes the step.
async function send(app: App, ch: Challenge, shot: Shot, done: () => void): Promise<void> {
  // While the frames go up: "Sending the video…", a bar and its share in
  // words; once they are all sent, "Checking the video…" while the server
  // judges them. The announced line says each of the two once.
  const status = spinner(t("live.uploading"));
  const bar = h("progress", { class: "upload", max: "1", value: "0", "aria-label": t("live.uploading") }) as HTMLProgressElement;
  const share = h("p", { class: "note upload-share", "aria-hidden": "true" }, "0%");
  app.show("live-sending", t("live.title"), status, bar, share);
  const progress = (sent: number, total: number) => {
    bar.value = total > 0 ? sent / total : 0;
    share.textContent = Math.floor(bar.value * 100) + "%";
    if (sent < total || bar.hidden) return;
    bar.hidden = share.hidden = true;
    status.lastChild!.textContent = t("live.sending");
  };
  let ans: LivenessAnswer;
  try {
    ans = await app.api.answer(ch.challenge_id, shot.frames, shot.times, progress);
  } catch (e) {
    // Frames the server refused before judging them leave the attempt
    // unused: say why and try again.
    if (e instanceof APIError && e.status === 422) {
      const lines = e.details.map((d) => (has("problem." + d.code) ? t(("problem." + d.code) as Key) : d.message || t("live.reason.other")));
      return retry(app, lines, ch.attempts_left, done);
    }
    const again = () => void send(app, ch, shot, done);
    if (e instanceof NetworkError || (e instanceof APIError && (e.status === 408 || (e.status >= 500 && e.status !== 503)))) {
      app.show(
        "live-unsent",
        t("live.title"),
        h("div", { role: "alert" }, h("p", { class: "err" }, t(e instanceof NetworkError ? "error.network" : "error.generic")), h("p", null, t("live.unsent"))),
        h("div", { class: "actions" }, button(t("live.sendagain"), again)),
      );
      return;
    }
    app.fail(e, e instanceof APIError && e.status === 503 ? again : () => void attempt(app, done));
    return;
  }
  if (ans.passed) return done();
  failed(app, ans, done);
}

// tell puts a sentence in the announced line, only when it changes: a
// screen reader hears each piece of guidance once, not every frame.
function tell(ui: UI, text: string): void {
  if (ui.say.textContent !== text) ui.say.textContent = text;
}

// showCue shows step i's cue. The arrows point the way the head turns in
// the mirrored preview: left for turn_left (the person's own left).
// With a tracker the meter shows the step's progress.
function showCue(ui: UI, ch: Challenge, i: number, tracked: boolean): void {
  const step = ch.steps[i];
  ui.cue.className = "cue " + step;
  ui.stage.dataset.step = String(i);
  tell(ui, t("live.move", { n: i + 1, total: ch.steps.length }) + ": " + stepText(step));
  ui.meter.hidden = !tracked;
  if (tracked) show(ui, { share: 0, done: false, degrees: 0 }, ch, step, false);
}

// show draws a step's progress: the bar and its words ("12° of 20°",
// "Blink seen"), so nothing rests on colour or on the bar's length alone;
// again: a blink not seen in blinkAgainMs.
function show(ui: UI, p: Progress, ch: Challenge, step: string, again: boolean): void {
  const bar = ui.meter.firstElementChild as HTMLElement;
  const label = ui.meter.lastElementChild as HTMLElement;
  bar.style.setProperty("--share", String(p.share));
  ui.meter.classList.toggle("full", p.share >= 1);
  const words =
    step === "blink"
      ? t(p.done ? "live.guide.blinked" : again ? "live.guide.blinkagain" : "live.guide.blinkwait")
      : p.share >= 1
        ? t("live.guide.turnback")
        : t("live.guide.degrees", { n: Math.max(0, p.degrees), of: ch.guide.turn_degrees + margin });
  if (label.textContent !== words) label.textContent = words;
}

// visible is the part of a w×h frame the 3:4 preview shows (the video is
// cut to cover the stage), in frame pixels.
function visible(ui: UI, w: number, h0: number): Visible {
  const sw = ui.stage.clientWidth || 3;
  const sh = ui.stage.clientHeight || 4;
  const s = Math.max(sw / w, sh / h0);
  const [vw, vh] = [sw / s, sh / s];
  return { x: (w - vw) / 2, y: (h0 - vh) / 2, w: vw, h: vh };
}

const problemKey: Record<Exclude<Problem, "">, Key> = {
  noface: "live.guide.noface",
  closer: "live.guide.closer",
  farther: "live.guide.farther",
  centre: "live.guide.centre",
  dark: "live.guide.dark",
  straight: "live.guide.straight",
};

// irisWaitMs: how long the first cue waits, once the head's pose is in,
// for the iris model (2.4 MB, loading last: 2.4 s on Fast 4G).
const irisWaitMs = 6000;

// readyFrontal: how far from facing the camera the face may be before
// the first cue (the page's own tolerance; the server takes whatever
// straight-ahead the person keeps, up to 20°).
const readyFrontal = 15;

// ready tracks the preview until the face has been in the oval, close
// enough, lit and facing the camera for readyHold, saying what to change
// meanwhile. It records the time to the first guidance (ms since the
// attempt began) and to the first frame with the head's pose on the stage
// for the page budget's benchmark.
async function ready(ui: UI, tracker: Tracker, t0: number): Promise<void> {
  const [w, h0] = size(ui.video, 480, 480);
  const canvas = canvasOf(w, h0);
  const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
  let okSince = -1;
  let posedAt = -1;
  let irisSettled = false;
  void tracker.iris.then(() => (irisSettled = true));
  for (;;) {
    ctx.drawImage(ui.video, 0, 0, w, h0);
    let s: Seen;
    try {
      s = await tracker.see(canvas, { eyes: false, exact: false });
    } catch {
      // A lost worker hands over to the page's thread (tracker.ts); with
      // no tracker left the attempt is paced.
      if (tracker.where === "none") return;
      await sleep(100);
      continue;
    }
    // Let the page paint and the camera move on between frames.
    await sleep(0);
    const now = performance.now();
    const p = problem(s, visible(ui, w, h0), readyFrontal);
    if (!ui.stage.dataset.firstGuidance) ui.stage.dataset.firstGuidance = String(Math.round(now - t0));
    if (s.pose && !ui.stage.dataset.firstPose) ui.stage.dataset.firstPose = String(Math.round(now - t0));
    ui.stage.classList.toggle("ready", p === "");
    ui.stage.dataset.guide = p || "ok";
    if (p) {
      okSince = -1;
      tell(ui, t(problemKey[p]));
      continue;
    }
    tell(ui, t("live.guide.hold"));
    // The first cue waits for the head's pose (the mesh model, loading
    // after the detector whose box gave the guidance so far), then for the
    // eyelids (the iris model, last) for at most irisWaitMs: without them
    // the page cannot see a blink, and the step would run to its limit.
    if (!s.pose) continue;
    if (posedAt < 0) posedAt = now;
    if (!irisSettled && now - posedAt < irisWaitMs) continue;
    if (okSince < 0) okSince = now;
    if (now - okSince >= readyHold) return;
  }
}

interface Shot {
  frames: Blob[];
  times: number[];
}

// size is the video's size scaled down to fit w×h.
function size(video: HTMLVideoElement, w: number, h0: number): [number, number] {
  const scale = Math.min(1, w / video.videoWidth, h0 / video.videoHeight);
  return [Math.round(video.videoWidth * scale), Math.round(video.videoHeight * scale)];
}

// Recorder grabs frames at a steady rate into JPEGs with times in ms since
// the first frame, strictly increasing as the server requires.
class Recorder {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly frames: Promise<Blob>[] = [];
  readonly times: number[] = [];
  // gap: the longest time between two frames so far, ms (the server
  // refuses more than 400 ms).
  gap = 0;
  private t0 = -1;
  constructor(
    private readonly video: HTMLVideoElement,
    ch: Challenge,
  ) {
    const [w, h0] = size(video, ch.budget.width, ch.budget.height);
    this.canvas = canvasOf(w, h0);
    this.ctx = this.canvas.getContext("2d", { willReadFrequently: true })!;
  }
  // grab draws the current frame and returns its time.
  grab(): number {
    const at = performance.now();
    if (this.t0 < 0) this.t0 = at;
    this.ctx.drawImage(this.video, 0, 0, this.canvas.width, this.canvas.height);
    this.frames.push(toJPEG(this.canvas, 0.8));
    const n = this.times.length;
    this.times.push(Math.max(Math.round(at - this.t0), n ? this.times[n - 1] + 1 : 0));
    if (n) this.gap = Math.max(this.gap, this.times[n] - this.times[n - 1]);
    return this.times[n];
  }
  get count(): number {
    return this.times.length;
  }
  async shot(): Promise<Shot> {
    return { frames: await Promise.all(this.frames), times: this.times };
  }
}

// guided records while the tracker follows the face: a lead-in at rest
// (the first of straight-ahead's frames), then each cue until the tracker sees it
// done or its time is up, then tailMs more; within the frame budget. The
// tracker reads copies of frames as they were sent, two at a time (pump,
// pairMs); frames taken while it is busy are sent untracked (the
// recording keeps its rate) but for the latest two, which wait in copies
// and are tracked the moment the tracker is free. Each pair's detector
// frame makes straight-ahead (Steps.settle), its carried frame standing
// for its time with the detector frame's yaw; every frame, the lead-in's
// too, is tracked so (the lead-in ran the detector and the eyelids on
// every frame until 2026-11-30: the costliest frame there is, on the
// page's thread at 4× the stages' medians add up to 138 ms, against 67
// on a carried box: bench/pages -levers -lever "by stage").
// Tracked and sent frame counts, the longest gap between frames, where
// the tracker runs and the straight-ahead it read go on the stage
// (data-tracked, data-posed: those with the head's pose, data-carried:
// those on a box from another frame, data-frames,
// data-eyes, data-gap, data-tracker-in, data-lanes: how many pairs it
// may track at once (tracker.ts, lanes), data-straight, data-settled:
// the frames straight-ahead was taken from; data-rest: the
// lead-in's posed frames when the first cue came, data-cue-at: when it
// came; data-judged: for each
// turn the page saw far enough, its step, the time of the frame that
// showed it (as sent) and the straight-ahead it was measured from) for
// the tests and the benchmark.
function guided(ui: UI, tracker: Tracker, ch: Challenge): Promise<Shot> {
  const rec = new Recorder(ui.video, ch);
  // Copies of recorded frames for the tracker: the pair being tracked on
  // each lane (tracker.ts) and the two latest taken meanwhile (queue,
  // oldest first).
  const pool = Array.from({ length: 2 * maxLanes + 2 }, () => {
    const c = canvasOf(rec.canvas.width, rec.canvas.height);
    return { canvas: c, ctx: c.getContext("2d", { willReadFrequently: true })! };
  });
  type Copy = (typeof pool)[number];
  const queue: { copy: Copy; at: number; during: number }[] = [];
  let last: Seen | null = null;
  const fps = Math.max(1, Math.min(ch.budget.fps, trackedFps));
  const steps = new Steps(ch.guide, rec.times);
  let step = -1;
  let askedAt = 0;
  let again = false;
  let endAt = Infinity;
  // busy: the lanes tracking a pair; observed: the pairs' readings,
  // observed in the order they were taken whichever lane is done first.
  // turn: the lane asked first next, so that the lanes take pairs in turn.
  const busy: boolean[] = [];
  let observed = Promise.resolve();
  let turn = 0;
  let tracked = 0;
  let posed = 0;
  let eyes = 0;
  let carried = 0;
  let rest = 0;
  const judged: { step: number; at: number; straight: number }[] = [];
  const advance = (now: number) => {
    if (step + 1 >= ch.steps.length) {
      endAt = Math.min(endAt, now + tailMs);
      return;
    }
    if (step < 0) {
      ui.stage.dataset.rest = String(rest);
      ui.stage.dataset.cueAt = String(Math.round(now));
    }
    step++;
    askedAt = now;
    again = false;
    steps.next(now);
    showCue(ui, ch, step, tracker.where !== "none");
  };
  const observe = (at: number, s: Seen, during: number) => {
    tracked++;
    if (!isNaN(s.eyes)) eyes++;
    ui.stage.dataset.tracked = String(tracked);
    if (s.pose) ui.stage.dataset.posed = String(++posed);
    if (s.pose && !s.exact) ui.stage.dataset.carried = String(++carried);
    ui.stage.dataset.eyes = String(eyes);
    steps.settle(at, s, during < 0);
    ui.stage.dataset.straight = steps.straight.toFixed(1);
    ui.stage.dataset.settled = steps.trace();
    if (during < 0) {
      if (s.pose) rest++;
      return steps.rest(at, s);
    }
    if (during !== step || endAt < Infinity) return;
    const p = steps.see(ch.steps[step], at, s);
    if (p.reached) {
      judged.push({ step, at, straight: Math.round(steps.straight * 100) / 100 });
      ui.stage.dataset.judged = JSON.stringify(judged);
    }
    show(ui, p, ch, ch.steps[step], again);
    if (p.done) {
      tell(ui, t("live.guide.stepdone"));
      advance(at);
    }
  };
  tell(ui, t("live.guide.hold"));
  ui.stage.classList.remove("ready");
  return new Promise((resolve) => {
    const tick = () => {
      const at = rec.grab();
      ui.stage.dataset.frames = String(rec.count);
      ui.stage.dataset.gap = String(rec.gap);
      ui.stage.dataset.trackerIn = tracker.where;
      // A lost worker with no tracker behind it (tracker.ts): the cues
      // left are paced as without a tracker, their meter hidden.
      const untracked = tracker.where === "none";
      ui.meter.hidden ||= untracked;
      const limit = untracked ? Math.min(pacedStepMs, ch.step_timeout_ms) : ch.step_timeout_ms;
      // The lead-in: leadMs at least, and leadRest posed frames tracked
      // (at most leadMaxMs), so that straight-ahead is taken at rest.
      if (step < 0 && at >= leadMs && (rest >= leadRest || at >= leadMaxMs || untracked)) advance(at);
      // The server times the first step from the recording's first frame
      // (the lead-in's), not from its cue: past step_timeout_ms of the
      // recording it refuses the first step as late, so its cue ends there.
      else if (step >= 0 && endAt === Infinity && (at - askedAt >= limit || (step === 0 && at >= ch.step_timeout_ms))) advance(at);
      else if (!untracked && !again && ch.steps[step] === "blink" && endAt === Infinity && at - askedAt >= blinkAgainMs) {
        again = true;
        tell(ui, t("live.move", { n: step + 1, total: ch.steps.length }) + ": " + t("live.step.blinkagain"));
        show(ui, { share: 0, done: false, degrees: 0 }, ch, "blink", true);
      }
      if (at >= endAt || rec.count >= ch.budget.max) {
        clearInterval(timer);
        endAt = -1;
        ui.meter.hidden = true;
        return void rec.shot().then(resolve);
      }
      // The frame is copied for the tracker; with two copies already
      // waiting (a slow tracker), the oldest goes untracked.
      const copy = pool.pop() ?? queue.shift()!.copy;
      copy.ctx.drawImage(rec.canvas, 0, 0);
      queue.push({ copy, at, during: step });
      pump();
    };
    // pump tracks the two frames waiting, when a lane of the tracker is
    // free and they were taken one after the other: the later with the
    // detector, the earlier on its box (facetrack.ts, carry). A frame
    // further than pairMs from the one after it goes untracked.
    const pump = () => {
      if (endAt < 0) return;
      const n = tracker.lanes;
      ui.stage.dataset.lanes = String(n);
      const lane = [...Array(n).keys()].map((k) => (turn + k) % n).find((l) => !busy[l]);
      if (lane === undefined) return;
      while (queue.length >= 2 && queue[1].at - queue[0].at > pairMs) pool.push(queue.shift()!.copy);
      if (queue.length < 2) return;
      const [a, b] = queue.splice(0, 2);
      busy[lane] = true;
      turn = lane + 1;
      const seen = pair(a, b, lane);
      observed = observed
        .then(() => seen)
        .then((r) => {
          if (r) settle(a, b, r);
        })
        .catch((e) => console.error("liveness: a tracked pair not observed:", e));
      void seen.finally(() => {
        pool.push(a.copy, b.copy);
        busy[lane] = false;
        pump();
      });
      pump();
    };
    // Eyelids on the lead-in (the blink baseline) and on blink steps,
    // while the head is near enough straight-ahead for them to count;
    // turns need only the pose.
    const eyesFor = (during: number) => (during < 0 || ch.steps[during] === "blink") && steps.eyesCount(last);
    // pair tracks b with the detector, then a on b's box, on one lane.
    // A failed frame (a lost worker) goes untracked: null for both when
    // b's failed.
    const pair = async (a: (typeof queue)[number], b: (typeof queue)[number], lane: number): Promise<[Seen | null, Seen] | null> => {
      const eyesA = eyesFor(a.during);
      let sb: Seen;
      try {
        sb = await tracker.see(b.copy.canvas, { eyes: eyesFor(b.during), exact: true, at: b.at }, lane);
      } catch {
        return null;
      }
      // a's frame from a task of its own: a frame on the WebAssembly
      // backend rarely yields to the event loop, and the recorder's timer,
      // whose frames must keep their rate (the server refuses gaps over
      // 400 ms), runs first when due.
      await new Promise((r) => setTimeout(r, 0));
      const sa = await tracker.see(a.copy.canvas, { eyes: eyesA, exact: false, at: a.at }, lane).catch(() => null);
      return [sa, sb];
    };
    // settle observes a pair's frames in the order they were taken.
    const settle = (a: (typeof queue)[number], b: (typeof queue)[number], [sa, sb]: [Seen | null, Seen]) => {
      if (endAt < 0) return;
      if (sa) observe(a.at, sa, a.during);
      last = sb;
      observe(b.at, sb, b.during);
    };
    const timer = window.setInterval(tick, 1000 / fps);
    tick();
  });
}

// paced records without a tracker: a lead-in, then each cue for
// pacedStepMs, or less where the step's time limit or the frame budget at
// the budget's rate says so.
function paced(ui: UI, ch: Challenge): Promise<Shot> {
  const b = ch.budget;
  const fps = Math.max(1, b.fps);
  const per = Math.min(pacedStepMs, ch.step_timeout_ms, (((b.max - 1) / fps) * 1000 - leadMs) / ch.steps.length);
  const total = leadMs + ch.steps.length * per;
  const rec = new Recorder(ui.video, ch);
  let step = -1;
  return new Promise((resolve) => {
    const tick = () => {
      const at = rec.grab();
      const i = at < leadMs ? -1 : Math.min(ch.steps.length - 1, Math.floor((at - leadMs) / per));
      if (i !== step && i >= 0) showCue(ui, ch, (step = i), false);
      if (at >= total || rec.count >= b.max) {
        clearInterval(timer);
        return void rec.shot().then(resolve);
      }
    };
    const timer = window.setInterval(tick, 1000 / fps);
    tick();
  });
}

function failed(app: App, ans: LivenessAnswer, done: () => void): void {
  const lines = new Set<string>();
  for (const s of ans.steps) {
    // A sentence for this step and reason ("Turn your head further to
    // your left"), else one for the reason naming the step.
    const own = "live.stepfail." + s.step + "." + (s.reason || "");
    const key = has(own) ? own : "live.stepfail." + (s.reason || "");
    if (!s.passed && has(key)) lines.add(t(key, { step: stepText(s.step) }));
  }
  for (const f of ans.failures) if (f !== "steps_not_completed" || lines.size === 0) lines.add(reasonText(f));
  if (lines.size === 0) lines.add(t("live.reason.other"));
  retry(app, [...lines], ans.attempts_left, done);
}

// retry explains a failed attempt and offers another while attempts remain.
function retry(app: App, lines: string[], attemptsLeft: number, done: () => void): void {
  if (attemptsLeft <= 0) return noMore(app);
  const list = h("ul", { class: "problems" }, ...lines.map((r) => h("li", null, r)));
  app.show(
    "live-failed",
    t("live.failed.title"),
    h("div", { class: "alert", role: "alert" }, list, h("p", null, attemptsLeft === 1 ? t("live.attempt") : t("live.attempts", { n: attemptsLeft }))),
    h("div", { class: "actions" }, button(t("live.failed.retry"), () => void attempt(app, done))),
  );
}

// noMore is the end of the link: its last liveness attempt failed, which
// completed the verification on the server (webcam_appears_live false), so
// the page reads as finished, with the way back to the site as on the done
// page, and says how to try again. The last attempt's problems are not
// listed: they read as advice ("Turn it to your right") nobody can follow.
function noMore(app: App): void {
  const ret = back(app.session.site_origin);
  app.show("live-nomore", t("live.nomore.title"), h("p", null, t(ret ? "live.nomore.back" : "live.nomore.body")), ret);
}

// exhausted answers a 429 on a new challenge: no attempts left, or else
// the rate limit's "wait a minute".
async function exhausted(app: App, err: APIError, done: () => void): Promise<void> {
  try {
    app.session = await app.api.session();
  } catch {
    // Unknown: the rate limit's words below still offer a way on.
  }
  if (app.session.liveness_attempts_left <= 0) return noMore(app);
  app.fail(err, () => void attempt(app, done));
}

function stepText(step: string): string {
  return has("live.step." + step) ? t(("live.step." + step) as Key) : step;
}

function reasonText(code: string): string {
  return has("live.reason." + code) ? t(("live.reason." + code) as Key) : t("live.reason.other");
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
