// Liveness: the front camera, the challenge's steps shown one at a time
// with a visible cue, frames captured at the challenge's budget and sent
// in one request; a failed attempt says why and retries while attempts
// remain. The server decides when each step was done, from the frames, so
// the cues only pace the person.
import type { App } from "./app";
import type { Challenge, LivenessAnswer } from "./api";
import { CameraError, help, open, stop } from "./camera";
import { button, h, spinner } from "./dom";
import { has, t, type Key } from "./i18n";
import { canvasOf, fit, toJPEG } from "./image";

// perStepMs is how long each cue stays up (a turn and back takes about
// 1.5 s; a blink far less).
const perStepMs = 2500;
// readyMs is the pause on "Look at the camera" before the first cue.
const readyMs = 1200;

export function liveness(app: App, done: () => void): void {
  app.show(
    "live",
    t("live.title"),
    h("p", null, t("live.hint", { n: 3 })),
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
    app.show(
      "live-nocamera",
      hp.title,
      h("p", { class: "err" }, t("live.needcam")),
      h("p", null, hp.body),
      h("div", { class: "actions" }, button(t("camera.retry"), () => void attempt(app, done))),
    );
    return;
  }
  let ch: Challenge;
  try {
    ch = await app.api.challenge();
  } catch (e) {
    stop(stream);
    app.fail(e, () => void attempt(app, done));
    return;
  }
  say.textContent = t("live.ready");
  await sleep(readyMs);
  const shot = await capture(video, ch, (i) => {
    const step = ch.steps[i];
    cue.className = "cue " + step;
    say.textContent = t("app.step", { n: i + 1, total: ch.steps.length }) + ": " + stepText(step);
  });
  stop(stream);
  app.show("live-sending", t("live.title"), spinner(t("live.sending")));
  let ans: LivenessAnswer;
  try {
    ans = await app.api.answer(ch.challenge_id, shot.frames, shot.times);
  } catch (e) {
    app.fail(e, () => void attempt(app, done));
    return;
  }
  if (ans.passed) return done();
  failed(app, ans, done);
}

function failed(app: App, ans: LivenessAnswer, done: () => void): void {
  const reasons = new Set<string>();
  for (const f of ans.failures) reasons.add(reasonText(f));
  for (const s of ans.steps) if (!s.passed && s.reason) reasons.add(reasonText(s.reason));
  if (reasons.size === 0) reasons.add(t("live.reason.other"));
  const list = h("ul", { class: "problems" }, ...[...reasons].map((r) => h("li", null, r)));
  if (ans.attempts_left <= 0) {
    app.show("live-nomore", t("live.nomore.title"), list, h("p", null, t("live.nomore.body")));
    return;
  }
  app.show(
    "live-failed",
    t("live.failed.title"),
    h("div", { class: "alert", role: "alert" }, list, h("p", null, ans.attempts_left === 1 ? t("live.attempt") : t("live.attempts", { n: ans.attempts_left }))),
    h("div", { class: "actions" }, button(t("live.failed.retry"), () => void attempt(app, done))),
  );
}

function stepText(step: string): string {
  return has("live.step." + step) ? t(("live.step." + step) as Key) : step;
}

function reasonText(code: string): string {
  return has("live.reason." + code) ? t(("live.reason." + code) as Key) : t("live.reason.other");
}

// capture grabs frames at the budget's rate and size for as long as the
// cues take (bounded by the budget's frame count), calling onStep as each
// cue comes up. Times are ms since the first frame.
async function capture(video: HTMLVideoElement, ch: Challenge, onStep: (i: number) => void): Promise<{ frames: Blob[]; times: number[] }> {
  const b = ch.frames;
  const fps = Math.max(1, b.fps);
  const total = Math.min(ch.steps.length * perStepMs, ((b.max - 1) / fps) * 1000);
  const [w, h0] = fit(video.videoWidth, video.videoHeight, Math.min(b.width, b.height));
  const canvas = canvasOf(w, h0);
  const ctx = canvas.getContext("2d")!;
  const frames: Promise<Blob>[] = [];
  const times: number[] = [];
  const t0 = performance.now();
  let step = -1;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now() - t0;
      const i = Math.min(ch.steps.length - 1, Math.floor(now / (total / ch.steps.length)));
      if (i !== step) onStep((step = i));
      ctx.drawImage(video, 0, 0, w, h0);
      frames.push(toJPEG(canvas, 0.8));
      times.push(Math.round(now));
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
