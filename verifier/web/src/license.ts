// The license steps: the rear camera with a card-shaped guide and a
// shutter, or a file input when the camera is unavailable; the photo is
// downscaled here, checked by the server, and its retake reasons shown in
// plain words. While the camera runs, autocapture.ts says what is wrong
// and takes the photo by itself when the card is right (the back: when
// its barcode reads on the device); the shutter stays.
import { APIError } from "./api";
import type { App } from "./app";
import { guide, type Guide } from "./autocapture";
import { available, barcodeReader } from "./barcode";
import { CameraError, help, open, stop } from "./camera";
import { button, h, spinner } from "./dom";
import { has, t } from "./i18n";
import { fromFile, fromVideo, toJPEG } from "./image";

type Side = "front" | "back";

// maxSide per side: the barcode's thin bars need more pixels than the
// card's edges and portrait do.
const maxSide: Record<Side, number> = { front: 1600, back: 2400 };

// After the server refused a photo taken by itself, the guide waits this
// long before it may take another, so the reasons can be read.
const resumeAfterRefusal = 3000;

// retakeFront, given on the back's step, offers to photograph the front
// again: an accepted photo may be replaced until the verification is
// submitted (the API takes a new one), and the person who saw a poor
// front should not have to start over.
export function license(app: App, side: Side, done: () => void, retakeFront?: () => void): void {
  let stream: MediaStream | null = null;
  let live: Guide | null = null;
  // Marks on the page's timeline (step, camera, guide, capture, accepted):
  // bench/licenseguide reads them; they cost nothing and never leave the page.
  performance.mark("idgate:step:" + side);
  // The back's reader starts loading with the step, beside the camera.
  const reader = side === "back" && available() ? barcodeReader() : null;
  const title = t(side === "front" ? "front.title" : "back.title");
  const status = h("div", { class: "status", "aria-live": "polite" });
  const video = h("video", { muted: true, playsinline: true, autoplay: true, "aria-hidden": "true" });
  const stage = h(
    "div",
    { class: "stage " + side },
    video,
    h("div", { class: "guide", role: "img", "aria-label": t("license.guide") }),
  );
  const file = h("input", { type: "file", accept: "image/*", capture: "environment", id: "file-" + side, class: "vh" });
  const fileLabel = h("label", { for: "file-" + side, class: "button sec" }, t("license.upload"));
  const shutter = button(t("license.shutter"), () => void shoot());
  const retryCam = button(t("camera.retry"), () => void startCamera(), "sec");
  retryCam.hidden = true;
  const again =
    retakeFront &&
    button(t("license.retakefront"), () => {
      live?.stop();
      stop(stream);
      retakeFront();
    }, "sec");
  const actions = h("div", { class: "actions" }, shutter, file, fileLabel, retryCam, again || null);
  const autoNote = h("p", { class: "note" }, t("guide.auto"));
  autoNote.hidden = true;

  app.show(side, title, h("p", null, t(side === "front" ? "front.hint" : "back.hint")), stage, status, actions, autoNote);
  stage.hidden = true;
  shutter.hidden = true;
  status.replaceChildren(spinner(t("camera.starting")));

  const busy = (on: boolean) => {
    shutter.disabled = on;
    file.disabled = on;
    fileLabel.classList.toggle("off", on);
  };

  const send = async (img: Blob) => {
    live?.stop();
    busy(true);
    status.replaceChildren(spinner(t("license.checking")));
    try {
      await (side === "front" ? app.api.front(img) : app.api.back(img));
    } catch (e) {
      busy(false);
      if (e instanceof APIError && e.status === 422) {
        retake(e);
        return;
      }
      stop(stream);
      app.fail(e, () => license(app, side, done));
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
    const list = h("ul", { class: "problems" }, ...items.map((d) => h("li", null, has("problem." + d.code) ? t(("problem." + d.code) as any) : d.message || t("error.generic"))));
    status.replaceChildren(h("div", { class: "alert", role: "alert" }, h("h2", null, t("license.retake")), list));
    // The reasons push the shutter down: on a small phone (360×640) it
    // went below the screen, and the person, card in one hand, had to
    // scroll to retake. Bring it back into view, the reasons just above.
    actions.scrollIntoView({ block: "nearest" });
    // The button that sent the photo was disabled while it was checked,
    // which drops keyboard focus to the page's top; give it back, so a
    // keyboard or switch user retakes from where they were.
    if (!app.root.contains(document.activeElement)) (stream && !shutter.hidden ? shutter : file).focus({ preventScroll: true });
    if (!video.paused || stream) void video.play().catch(() => undefined);
    if (stream) setTimeout(startGuide, resumeAfterRefusal);
  };

  // startGuide runs the live guidance in the stage; it captures by itself
  // (the back sends the very frame whose barcode read).
  const startGuide = () => {
    // Not while a photo is being checked (one pressed during the pause
    // after a refusal): the guide would send a second.
    if (!stream || !video.isConnected || shutter.disabled) return;
    live?.stop();
    live?.overlay.remove();
    live?.words.remove();
    live = guide(video, side, reader, (frame) => void (frame ? (video.pause(), toJPEG(frame, 0.9).then(send)) : shoot()));
    stage.append(live.overlay);
    stage.after(live.words);
    autoNote.hidden = false;
  };

  const shoot = async () => {
    if (!stream) return;
    live?.stop();
    const img = await fromVideo(video, maxSide[side], 0.9);
    video.pause();
    await send(img);
  };

  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    file.value = "";
    if (!f) return;
    await send(await fromFile(f, maxSide[side], 0.9));
  });

  const startCamera = async () => {
    status.replaceChildren(spinner(t("camera.starting")));
    try {
      stream = await open(video, "environment", { width: 1920, height: 1080 });
    } catch (e) {
      const p = e instanceof CameraError ? e.problem : "none";
      const hp = help(p);
      status.replaceChildren(
        h("div", { class: "alert", role: "alert" }, h("h2", null, hp.title), h("p", null, hp.body), h("p", null, t("camera.fallback"))),
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
