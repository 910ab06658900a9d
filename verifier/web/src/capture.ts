// One document photo step (the license's front and back, the passport's
// data page, the ID card's front and back): the rear camera with a guide framed to the document and a
// shutter, or a file input when the camera is unavailable; the photo is
// downscaled here, checked by the server, and its retake reasons shown in
// plain words. Where the step has live guidance (autocapture.ts: the
// license's and the ID card's sides, the passport's data page), it says
// what is wrong while the camera runs and takes the photo by itself when
// the document is right; the shutter stays.
import { APIError } from "./api";
import type { App } from "./app";
import { guide, type Advice, type Guide, type Refused, type Side } from "./autocapture";
import type { BarcodeReader } from "./barcode";
import { CameraError, help, open, stop } from "./camera";
import { button, h, spinner } from "./dom";
import { has, t, type Key } from "./i18n";
import { fromFile, fromVideo, toJPEG } from "./image";

// PhotoStep is what differs between the steps.
export interface PhotoStep {
  // screen names the screen (data-screen), the file input (file-<screen>),
  // the stage's class (the guide's shape, app.css) and the timeline's marks.
  screen: "front" | "back" | "passport" | "idfront" | "idback";
  title: Key;
  hint: Key;
  // frame names the guide for assistive technology; fallback says, when
  // the camera cannot be used, that a photo can be uploaded instead.
  frame: Key;
  fallback: Key;
  // maxSide is the photo's long side after downscaling: the barcode's thin
  // bars and the machine-readable zone's characters need more pixels than
  // a card's edges and portrait do.
  maxSide: number;
  send: (img: Blob) => Promise<unknown>;
  // live is the live guidance's side, if the step has it; reader is the
  // back's barcode reader, loading.
  live?: Side;
  reader?: Promise<BarcodeReader> | null;
  // words are the live guidance's own words where the step names its
  // document its own way (the ID card, the passport's page), auto its
  // note that the photo is taken by itself.
  words?: Partial<Record<Advice, Key>>;
  auto?: Key;
  // problems is a prefix tried before "problem." for the server's codes,
  // where the step words a shared code its own way ("problem.passport.").
  problems?: string;
}

// Other is a way off the step (retake an earlier photo, choose another
// document): the camera is released before it is taken.
export interface Other {
  label: string;
  go: () => void;
}

// After the server refused a photo taken by itself, the guide waits this
// long before it may take another, so the reasons can be read.
const resumeAfterRefusal = 3000;

export function photoStep(app: App, step: PhotoStep, done: () => void, others: Other[] = []): void {
  let stream: MediaStream | null = null;
  let live: Guide | null = null;
  // taken: the card the guide saw when the camera's photo was taken (by
  // the guide or the shutter); the guide started after a refusal holds
  // back until it moved or changed (autocapture.ts, Refused).
  let taken: Refused | null = null;
  const side = step.screen;
  // Marks on the page's timeline (step, camera, guide, capture, accepted):
  // bench/licenseguide reads them; they cost nothing and never leave the page.
  performance.mark("idgate:step:" + side);
  const status = h("div", { class: "status", "aria-live": "polite" });
  const video = h("video", { muted: true, playsinline: true, autoplay: true, "aria-hidden": "true" });
  const stage = h("div", { class: "stage " + side }, video, h("div", { class: "guide", role: "img", "aria-label": t(step.frame) }));
  const file = h("input", { type: "file", accept: "image/*", capture: "environment", id: "file-" + side, class: "vh" });
  const fileLabel = h("label", { for: "file-" + side, class: "button sec" }, t("license.upload"));
  const shutter = button(t("license.shutter"), () => void shoot());
  const retryCam = button(t("camera.retry"), () => void startCamera(), "sec");
  retryCam.hidden = true;
  const ways = others.map((o) =>
    button(o.label, () => {
      live?.stop();
      stop(stream);
      o.go();
    }, "sec"),
  );
  const actions = h("div", { class: "actions" }, shutter, file, fileLabel, retryCam, ...ways);
  const autoNote = h("p", { class: "note" }, t(step.auto ?? "guide.auto"));
  autoNote.hidden = true;

  app.show(side, t(step.title), h("p", null, t(step.hint)), stage, status, actions, autoNote);
  stage.hidden = true;
  shutter.hidden = true;
  status.replaceChildren(spinner(t("camera.starting")));

  // checking: a photo is being sent and checked. The shutter and the
  // upload are then marked unavailable (aria-disabled, greyed as
  // disabled) rather than disabled: a disabled control drops the
  // keyboard focus to nowhere, and Orca, left on the control it was
  // reading, did not announce the next screen (the ID card's back taken
  // from the shutter, then the selfie step's heading unsaid even when
  // asked for: TestScreenReaderIDCardWalkInChromium).
  let checking = false;
  const busy = (on: boolean) => {
    checking = on;
    for (const el of [shutter, file]) {
      if (on) el.setAttribute("aria-disabled", "true");
      else el.removeAttribute("aria-disabled");
    }
    fileLabel.classList.toggle("off", on);
  };

  const send = async (img: Blob) => {
    live?.stop();
    busy(true);
    status.replaceChildren(spinner(t("license.checking")));
    try {
      await step.send(img);
    } catch (e) {
      busy(false);
      if (e instanceof APIError && e.status === 422) {
        retake(e);
        return;
      }
      stop(stream);
      app.fail(e, () => photoStep(app, step, done, others));
      return;
    }
    stop(stream);
    performance.mark("idgate:accepted:" + side);
    status.replaceChildren(h("p", null, t("license.ok")));
    done();
  };

  // retake lists the server's reasons, each in the table's words.
  const retake = (e: APIError) => {
    const items = e.details.length > 0 ? e.details : [{ code: "", message: "" }];
    const list = h("ul", { class: "problems" }, ...items.map((d) => h("li", null, reason(step, d.code) || d.message || t("error.generic"))));
    status.replaceChildren(h("div", { class: "alert", role: "alert" }, h("h2", null, t("license.retake")), list));
    // The reasons push the shutter down: on a small phone (360×640) it
    // went below the screen, and the person, card in one hand, had to
    // scroll to retake. Bring it back into view, the reasons just above.
    actions.scrollIntoView({ block: "nearest" });
    if (!video.paused || stream) void video.play().catch(() => undefined);
    // The guide's last words ("Got it. Taking the photo…") and its green
    // outline would contradict the reasons until it starts again.
    live?.overlay.remove();
    live?.words.remove();
    if (stream) setTimeout(startGuide, resumeAfterRefusal);
  };

  // startGuide runs the live guidance in the stage, where the step has
  // it; it captures by itself (the back sends the very frame whose
  // barcode read).
  const startGuide = () => {
    // Not while a photo is being checked (one pressed during the pause
    // after a refusal): the guide would send a second.
    if (!step.live || !stream || !video.isConnected || checking) return;
    live?.stop();
    live?.overlay.remove();
    live?.words.remove();
    const g: Guide = guide(
      video,
      step.live,
      step.reader ?? null,
      (frame) => {
        if (!frame) return void shoot();
        taken = g.seen();
        video.pause();
        void toJPEG(frame, 0.9).then(send);
      },
      { words: step.words, after: taken, maxSide: step.maxSide },
    );
    live = g;
    stage.append(live.overlay);
    stage.after(live.words);
    autoNote.hidden = false;
  };

  const shoot = async () => {
    if (!stream || checking) return;
    taken = live?.seen() ?? null;
    live?.stop();
    const img = await fromVideo(video, step.maxSide, 0.9);
    video.pause();
    await send(img);
  };

  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    file.value = "";
    if (!f || checking) return;
    taken = null; // a file's card is not the camera's
    await send(await fromFile(f, step.maxSide, 0.9));
  });

  const startCamera = async () => {
    status.replaceChildren(spinner(t("camera.starting")));
    try {
      stream = await open(video, "environment", { width: 1920, height: 1080 });
    } catch (e) {
      const p = e instanceof CameraError ? e.problem : "none";
      const hp = help(p);
      status.replaceChildren(
        h("div", { class: "alert", role: "alert" }, h("h2", null, hp.title), h("p", null, hp.body), h("p", null, t(step.fallback))),
      );
      fileLabel.textContent = t("license.choose");
      fileLabel.className = "button";
      retryCam.hidden = p !== "denied";
      return;
    }
    stage.hidden = false;
    shutter.hidden = false;
    retryCam.hidden = true;
    // Back from the no-camera wording ("Take or choose a photo"), which
    // beside the shutter read as a second way to take the same photo.
    fileLabel.textContent = t("license.upload");
    fileLabel.className = "button sec";
    status.replaceChildren();
    performance.mark("idgate:camera:" + side);
    startGuide();
  };
  void startCamera();
}

// reason is the table's words for a refusal's code: the step's own first,
// then the shared ones; "" when the table has none (a newer server's code:
// its message is shown).
function reason(step: PhotoStep, code: string): string {
  for (const key of [step.problems && step.problems + code, "problem." + code]) if (key && code && has(key)) return t(key as Key);
  return "";
}
