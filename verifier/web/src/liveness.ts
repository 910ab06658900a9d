// Liveness: the front camera, the challenge's steps shown one at a time
// with a visible cue, frames captured at the challenge's budget and sent
// in one request; a failed attempt says why and retries while attempts
// remain. The server decides when each step was done, from the frames, so
// the cues only pace the person.
import { APIError, type Challenge, type LivenessAnswer } from "./api";
import type { App } from "./app";
import { CameraError, help, open, stop } from "./camera";
import { button, h, spinner } from "./dom";
import { back } from "./finish";
import { isDesktop } from "./start";
import { has, t, type Key } from "./i18n";
import { canvasOf, toJPEG } from "./image";

// perStepMs is how long each cue stays up (a turn and back takes about
// 1.5 s; a blink far less).
const perStepMs = 2500;
// readyMs is the pause on "Look at the camera" before the first cue; the
// last leadMs of it are captured too, so the stream opens with the person
// at rest: the server takes their own straight-ahead from its first
// 500 ms and judges turns from there.
const readyMs = 1200;
const leadMs = 600;

export function liveness(app: App, done: () => void): void {
  // A link whose attempts are used is normally completed (main.ts shows
  // the ended page); one whose completion failed says so at once: its
  // "Start the video" would open the camera only to be refused.
  if (app.session.liveness_attempts_left <= 0) return noMore(app);
  app.show(
    "live",
    t("live.title"),
    h("p", null, t("live.hint")),
    h("p", { class: "note" }, t("live.needcam")),
    h("div", { class: "actions" }, button(t("live.start"), () => void attempt(app, done))),
  );
}

async function attempt(app: App, done: () => void): Promise<void> {
  const video = h("video", { muted: true, playsinline: true, autoplay: true, "aria-hidden": "true" });
  const cue = h("div", { class: "cue", "aria-hidden": "true" });
  const say = h("p", { class: "say", "aria-live": "assertive" }, t("camera.starting"));
  const stage = h("div", { class: "stage face" }, video, h("div", { class: "oval" }), cue);
  app.show("live-capture", t("live.title"), stage, say);
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
  say.textContent = t("live.ready");
  await sleep(readyMs - leadMs);
  const shot = await capture(video, ch, (i) => {
    // The arrows point the way the head turns in the mirrored preview:
    // left for turn_left (the person's own left).
    const step = ch.steps[i];
    cue.className = "cue " + step;
    say.textContent = t("live.move", { n: i + 1, total: ch.steps.length }) + ": " + stepText(step);
  });
  stop(stream);
  app.show("live-sending", t("live.title"), spinner(t("live.sending")));
  let ans: LivenessAnswer;
  try {
    ans = await app.api.answer(ch.challenge_id, shot.frames, shot.times);
  } catch (e) {
    // Frames the server refused before judging them leave the attempt
    // unused: say why and try again.
    if (e instanceof APIError && e.status === 422) {
      const lines = e.details.map((d) => (has("problem." + d.code) ? t(("problem." + d.code) as Key) : d.message || t("live.reason.other")));
      return retry(app, lines, ch.attempts_left, done);
    }
    app.fail(e, () => void attempt(app, done));
    return;
  }
  if (ans.passed) return done();
  failed(app, ans, done);
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

// capture grabs frames at the budget's rate and size for leadMs and then
// as long as the cues take (bounded by the budget's frame count), calling
// onStep as each cue comes up. Times are ms since the first frame.
async function capture(video: HTMLVideoElement, ch: Challenge, onStep: (i: number) => void): Promise<{ frames: Blob[]; times: number[] }> {
  const b = ch.budget;
  const fps = Math.max(1, b.fps);
  const total = Math.min(leadMs + ch.steps.length * Math.min(perStepMs, ch.step_timeout_ms), ((b.max - 1) / fps) * 1000);
  const lead = Math.min(leadMs, total / (ch.steps.length + 1));
  const scale = Math.min(1, b.width / video.videoWidth, b.height / video.videoHeight);
  const [w, h0] = [Math.round(video.videoWidth * scale), Math.round(video.videoHeight * scale)];
  const canvas = canvasOf(w, h0);
  const ctx = canvas.getContext("2d")!;
  const frames: Promise<Blob>[] = [];
  const times: number[] = [];
  let t0 = -1;
  let step = -1;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const at = performance.now();
      if (t0 < 0) t0 = at;
      const now = at - t0;
      const i = now < lead ? -1 : Math.min(ch.steps.length - 1, Math.floor((now - lead) / ((total - lead) / ch.steps.length)));
      if (i !== step && i >= 0) onStep((step = i));
      ctx.drawImage(video, 0, 0, w, h0);
      frames.push(toJPEG(canvas, 0.8));
      // Strictly increasing, as the server requires.
      times.push(Math.max(Math.round(now), times.length ? times[times.length - 1] + 1 : 0));
      if (now >= total || frames.length >= b.max) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = window.setInterval(tick, 1000 / fps);
    tick();
  });
  return { frames: await Promise.all(frames), times };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
