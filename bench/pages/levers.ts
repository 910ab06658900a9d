// The levers' harness (levers.go): the page's tracker itself
// (facetrack.ts's track, its own step: meshstep.ts) driven frame by frame
// on the page's thread, asked as the page asks during a step, each frame
// with or without the detector and the eyelids as a lever's plan says;
// and each stage of that step timed alone (stages); and other detectors
// in the place of the page's (detectors).
import { track, type Files, type Frame, type TFLib, type Tracker } from "./src/facetrack";
import { findFace } from "./src/blazebox";
import { pose } from "./src/facepose";
import { eyelidsOn, findBox, frameTensor, meshOn, type Box, type GraphModel, type Nets, type Tensor } from "./src/meshstep";

// probe makes a 2D context to read, as the page's tracker does (tracker.ts).
const probe = () => document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
let tracker: Tracker<Frame> | null = null;
// nets: the same models loaded apart, for the stages.
let nets: Nets | null = null;
let tfLib: TFLib | null = null;
const frames: HTMLCanvasElement[] = [];

// start loads the page's tracker with every model the page loads.
export async function start(lib: TFLib, files: Files): Promise<void> {
  const t = await track(lib, files, probe);
  if (!(await t.mesh) || !(await t.iris)) throw new Error("levers: the tracker's models did not load");
  tracker = t;
  const [detector, mesh, iris] = await Promise.all([files.models.detector, files.models.mesh, files.models.iris].map((u) => lib.loadGraphModel(u)));
  nets = { tf: lib, detector, mesh, iris };
  tfLib = lib;
}

// decode draws JPEG data URLs into canvases, off the clock.
export async function decode(urls: string[]): Promise<number> {
  frames.length = 0;
  for (const u of urls) {
    const img = new Image();
    img.src = u;
    await img.decode();
    const c = document.createElement("canvas");
    [c.width, c.height] = [img.naturalWidth, img.naturalHeight];
    c.getContext("2d")!.drawImage(img, 0, 0);
    frames.push(c);
  }
  return frames.length;
}

// One frame's reading: ms of its step, found, yaw, eye ratio, and
// whether the detector ran on it (asked, or a carried box that failed
// its checks: facetrack.ts, carry).
type Reading = [number, boolean, number, number, boolean];

// runTracker tracks the decoded frames in order with the page's tracker,
// asking the detector's own box on frame i when det[i] (else letting it
// carry the last frame's box) and the eyelids when eyes[i]; frames are
// taken at msApart (the clips' rate).
export async function runTracker(det: boolean[], eyes: boolean[], msApart: number): Promise<Reading[]> {
  const out: Reading[] = [];
  for (let i = 0; i < frames.length; i++) {
    const t0 = performance.now();
    const s = await tracker!.see(frames[i], { eyes: eyes[i], exact: det[i], at: i * msApart });
    const ms = performance.now() - t0;
    out.push(s.pose ? [ms, true, s.pose.yaw, s.eyes, s.exact] : [ms, false, NaN, NaN, s.exact]);
  }
  return out;
}

// stages times each stage of the tracker's own step on every decoded
// frame, one after the other on the page's thread: the frame made a
// tensor (meshstep.ts, frameTensor), BlazeFace (blazebox.ts), the mesh on
// its box, and the eyelids. ms per frame and stage, in that order.
export async function stages(): Promise<number[][]> {
  const h = nets!;
  const scratch = probe();
  const out: number[][] = [];
  for (const f of frames) {
    const ms: number[] = [];
    const lap = async <T>(work: () => T | Promise<T>): Promise<T> => {
      const t0 = performance.now();
      const r = await work();
      ms.push(performance.now() - t0);
      return r;
    };
    const input = await lap(() => frameTensor(h.tf, f, scratch));
    const box = await lap(() => findBox(h, input, 0.3));
    const m = box && (await lap(() => meshOn(h, input, box)));
    if (m) await lap(() => eyelidsOn(h, input, m));
    h.tf.dispose(input);
    if (ms.length === 4) out.push(ms);
  }
  return out;
}

// Detectors measured against the page's own, by name (loadDetectors).
const others: { name: string; model: GraphModel; halve?: boolean }[] = [];

// loadDetectors loads other face detectors' graph models (name to URL).
// The first one also runs "halved": the frame halved (2×2 pixels
// averaged: a bilinear resize with half-pixel centres, TensorFlow.js's
// kind) while over twice the model's side, so the model's own resize
// samples an image smoothed the way a 5× step does not (a bilinear
// resize reads 4 pixels of each 5×5 block).
export async function loadDetectors(urls: Record<string, string>): Promise<string[]> {
  for (const [name, url] of Object.entries(urls)) others.push({ name, model: await tfLib!.loadGraphModel(url) });
  if (others.length > 0) others.push({ name: others[0].name + " halved", model: others[0].model, halve: true });
  return ["page", ...others.map((o) => o.name)];
}

type Resize = (image: Tensor, size: [number, number], alignCorners: boolean, halfPixelCenters: boolean) => Tensor;

// halvedFace is findFace on the frame halved while its shorter side is
// over twice the model's input side, the box mapped back to the frame.
async function halvedFace(h: Nets, model: GraphModel, input: Tensor): Promise<Box | null> {
  const size = model.inputs[0]?.shape?.[1] || 256;
  const resize = h.tf.image.resizeBilinear as unknown as Resize;
  const made: Tensor[] = [];
  let x = input;
  while (Math.min(x.shape[1], x.shape[2]) > 2 * size) {
    x = resize(x, [Math.round(x.shape[1] / 2), Math.round(x.shape[2] / 2)], false, true);
    made.push(x);
  }
  try {
    const b = await findFace(h.tf, model, x, 0.3);
    const [fy, fx] = [input.shape[1] / x.shape[1], input.shape[2] / x.shape[2]];
    return b && { x0: Math.round(b.x0 * fx), y0: Math.round(b.y0 * fy), x1: Math.round(b.x1 * fx), y1: Math.round(b.y1 * fy) };
  } finally {
    h.tf.dispose(made);
  }
}

// One detector's reading of a frame: ms of the detector alone, whether
// the mesh on its box found a face (the tracker's minScore, 0.3, for
// both), the yaw, the face's width (the mesh's extent) over the frame's,
// and the detector's box (x0, y0, x1, y1; NaN for none).
type DetReading = [number, boolean, number, number, number, number, number, number];

// A box's correction: its side times scale, its centre moved by dx, dy
// of its side.
type Fit = [number, number, number];

// detectors runs, on every decoded frame, each detector (the page's
// first, then loadDetectors' in order; the order turned one place a
// frame, so no detector always runs first on a frame) and the mesh on
// its box: a DetReading per frame and detector, in loadDetectors' order,
// then one for each detector fits names, its box corrected by the fit
// (the mesh again, not the detector).
export async function detectors(fits: Record<string, Fit>): Promise<DetReading[][]> {
  const h = nets!;
  const all: { name: string; model: GraphModel; halve?: boolean }[] = [{ name: "page", model: h.detector! }, ...others];
  const fitted = all.map((d, i) => ({ i, fit: fits[d.name] })).filter((x) => x.fit);
  const scratch = probe();
  const out: DetReading[][] = [];
  const read = async (input: Tensor, frame: HTMLCanvasElement, ms: number, box: Box | null): Promise<DetReading> => {
    const m = box && (await meshOn(h, input, box));
    const b: [number, number, number, number] = box ? [box.x0, box.y0, box.x1, box.y1] : [NaN, NaN, NaN, NaN];
    if (!m || !(m.score >= 0.3)) return [ms, false, NaN, NaN, ...b];
    const xs = m.points.map((p) => p[0]);
    return [ms, true, pose(m).yaw, (Math.max(...xs) - Math.min(...xs)) / frame.width, ...b];
  };
  for (let f = 0; f < frames.length; f++) {
    const input = frameTensor(h.tf, frames[f], scratch);
    const row: DetReading[] = new Array(all.length + fitted.length);
    const boxes: (Box | null)[] = new Array(all.length);
    for (let k = 0; k < all.length; k++) {
      const d = (f + k) % all.length;
      const t0 = performance.now();
      boxes[d] = await (all[d].halve ? halvedFace(h, all[d].model, input) : findFace(h.tf, all[d].model, input, 0.3));
      row[d] = await read(input, frames[f], performance.now() - t0, boxes[d]);
    }
    for (let k = 0; k < fitted.length; k++) {
      const { i, fit } = fitted[k];
      const b = boxes[i];
      let moved: Box | null = null;
      if (b) {
        const side = b.x1 - b.x0;
        const [cx, cy] = [(b.x0 + b.x1) / 2 + fit[1] * side, (b.y0 + b.y1) / 2 + fit[2] * side];
        const half = (side * fit[0]) / 2;
        moved = { x0: Math.round(cx - half), y0: Math.round(cy - half), x1: Math.round(cx + half), y1: Math.round(cy + half) };
      }
      row[all.length + k] = await read(input, frames[f], NaN, moved);
    }
    h.tf.dispose(input);
    out.push(row);
  }
  return out;
}
