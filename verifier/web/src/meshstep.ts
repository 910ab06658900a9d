// The tracker's own detector-and-mesh step, for the frames the page
// records (the lead-in, the turns and the blink):
// BlazeFace gives the face's box (blazebox.ts, decoded as the server
// decodes it), and the mesh model runs on a crop of it here, as the
// server crops every frame (verifier/face/facemesh: the detector's square
// box, cut and resized to the model's 192×192, black
// outside the frame, the points mapped back about the box's centre, the
// depth in the crop's units). Human cannot do this itself: once its mesh
// runs, the box it returns and keeps for the next frame is re-centred on
// the mesh, and on 16 real turns a mesh cropped from that kept box put 5
// turn peaks 1.2–5.3° past the server's, where the last frame's detector
// box, unmoved, put none past it by more than 0.7° (both on the server's
// own pipeline: bench/pages -levers, docs/end-user-flow.md).
// So the tracker runs the detector only on every other frame of a step
// and carries its box, unmoved, to the frame next to it (humantrack.ts).
// The eyelids too are the server's (verifier/face/pose, Eyelids.Refine):
// the iris model on a crop of each eye cut from the frame itself, where
// Human cuts it from the 192 px face crop, a second resampling.
import { findFace } from "./blazebox";
import type { Frame, Probe } from "./facetrack";

// The parts of TensorFlow.js (the tracker's library: verifier/web/tracker/tf.ts)
// the step uses.
export interface Tensor {
  shape: number[];
  data(): Promise<ArrayLike<number>>;
}
export interface TF {
  image: {
    cropAndResize(image: Tensor, boxes: number[][], boxInd: number[], cropSize: [number, number]): Tensor;
    resizeBilinear(image: Tensor, size: [number, number]): Tensor;
  };
  tensor(values: Float32Array, shape: number[]): Tensor;
  div(a: Tensor, b: number): Tensor;
  sub(a: Tensor, b: number): Tensor;
  dispose(t: Tensor | Tensor[]): void;
}
export interface GraphModel {
  execute(input: Tensor): Tensor | Tensor[];
  inputs: { shape?: number[] }[];
}

// Nets is TensorFlow.js and the models loaded so far (facetrack.ts loads
// the detector first, then the mesh, then the iris model); a step on a
// frame uses what is in when it gets there.
export interface Nets {
  tf: TF;
  detector?: GraphModel;
  mesh?: GraphModel;
  iris?: GraphModel;
}

// frameTensor is the frame as the [1, h, w, 3] tensor of 0..255 the
// models read, as the server decodes a frame; scratch is a 2D context
// made to be read (willReadFrequently), sized here to the frame. Human's
// image input (the tracker's loader before) made the same tensor through three canvas copies of the
// frame (its input, output and scratch canvases, for filters the tracker
// has off), a loop over every pixel into integers, and a cast to floats
// (14–16 ms a frame at 4×, bench/pages -levers, own step by stage); here
// the frame is drawn once and its RGBA read straight into floats.
// TensorFlow.js's own ways cost more: its read of the frame's own context
// (not made to be read), or RGBA read whole and its alpha sliced off in
// the backend (an element at a time), took 43–46 ms.
export function frameTensor(tf: TF, frame: Frame, scratch: Probe): Tensor {
  const [w, h] = [frame.width, frame.height];
  const c = scratch.canvas;
  if (c.width !== w || c.height !== h) [c.width, c.height] = [w, h];
  scratch.drawImage(frame, 0, 0);
  const px = scratch.getImageData(0, 0, w, h).data;
  const rgb = new Float32Array(w * h * 3);
  for (let i = 0, j = 0; i < px.length; i += 4, j += 3) {
    rgb[j] = px[i];
    rgb[j + 1] = px[i + 1];
    rgb[j + 2] = px[i + 2];
  }
  return tf.tensor(rgb, [1, h, w, 3]);
}

// Box is the detector's square box in frame pixels; it may reach past the
// frame (BlazeFace's box ×1.4).
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

// Meshed is the mesh on one box: points [x, y, z] in frame pixels (z in
// the crop's units), the crop's side in frame pixels, and the model's
// face score (0..1).
export interface Meshed {
  points: [number, number, number][];
  side: number;
  score: number;
}

// findBox runs BlazeFace (blazebox.ts) on input and returns the face's
// box, null when it finds none or the model is not loaded.
export function findBox(h: Nets, input: Tensor, minScore: number): Promise<Box | null> {
  const model = h.detector;
  return model ? findFace(h.tf, model, input, minScore) : Promise.resolve(null);
}

// meshOn runs the mesh model on input cropped at box, null while the
// model is not loaded.
export async function meshOn(h: Nets, input: Tensor, box: Box): Promise<Meshed | null> {
  const model = h.mesh;
  if (!model) return null;
  const size = model.inputs[0]?.shape?.[2] || 192;
  const [hh, w] = [input.shape[1], input.shape[2]];
  const crop = h.tf.image.cropAndResize(input, [[box.y0 / hh, box.x0 / w, box.y1 / hh, box.x1 / w]], [0], [size, size]);
  const scaled = h.tf.div(crop, 255);
  const run = model.execute(scaled);
  const outs = Array.isArray(run) ? run : [run];
  try {
    const last = (t: Tensor) => t.shape[t.shape.length - 1];
    const flag = outs.find((t) => last(t) === 1);
    const mesh = outs.find((t) => last(t) === 3 * 468);
    if (!flag || !mesh) throw new Error("face mesh: the model lacks the mesh or face-flag output");
    const [score, raw] = [(await flag.data())[0], await mesh.data()];
    const [cx, cy] = [(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2];
    const [sx, sy] = [(box.x1 - box.x0) / size, (box.y1 - box.y0) / size];
    const points: [number, number, number][] = [];
    for (let i = 0; i < 468; i++)
      points.push([sx * (raw[3 * i] - size / 2) + cx, sy * (raw[3 * i + 1] - size / 2) + cy, raw[3 * i + 2]]);
    return { points, side: box.x1 - box.x0, score };
  } finally {
    h.tf.dispose([crop, scaled, ...outs]);
  }
}

// The iris model (Human's iris.json, the server's pose.IrisModelFile):
// a 64×64 eye crop in, 71 eye-contour points (and 5 of the iris) out,
// x and y in crop pixels, z in crop pixels too. eyeEnlarge widens the
// corner-to-corner box into the crop, as MediaPipe, Human and the
// server do.
export const irisInput = 64;
const eyeEnlarge = 2.3;
const irisContour = 71;

// Each eye's lid contours in mesh indices, in the iris model's output
// order (its points 0–8 the lower lid corner to corner, 9–15 the upper),
// and whether the model sees it mirrored: it is trained on the subject's
// right eye (the image's left), so the left eye goes in mirrored and its
// points come back mirrored (pose/iris.go).
const eyeLids: { lower: number[]; upper: number[]; flip: boolean }[] = [
  { lower: [33, 7, 163, 144, 145, 153, 154, 155, 133], upper: [246, 161, 160, 159, 158, 157, 173], flip: false },
  { lower: [263, 249, 390, 373, 374, 380, 381, 382, 362], upper: [466, 388, 387, 386, 385, 384, 398], flip: true },
];

// eyelidsOn replaces m's eyelid points with the iris model's, as the
// server's Eyelids.Refine does: each eye's crop is the square about its
// corners enlarged 2.3 times, cut from input (the frame) and resized to
// 64×64, black outside the frame; depth becomes the mean of the mesh's and
// the model's. Both eyes go through the model at once (a batch of two, as
// Human runs it); the left eye is mirrored by cutting its crop with the
// box's sides swapped, which samples the very columns the server's
// mirror() swaps. False while the model is not loaded.
export async function eyelidsOn(h: Nets, input: Tensor, m: Meshed): Promise<boolean> {
  const model = h.iris;
  if (!model) return false;
  const [hh, w] = [input.shape[1], input.shape[2]];
  // The mesh's depth is in 192 px crop units of the face's box.
  const zs = m.side / 192;
  const boxes = eyeLids.map((e) => {
    const [a, b] = [m.points[e.lower[0]], m.points[e.lower[e.lower.length - 1]]];
    const [cx, cy] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const half = (eyeEnlarge * Math.max(Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1]))) / 2;
    return { x0: cx - half, y0: cy - half, x1: cx + half, y1: cy + half };
  });
  const crop = h.tf.image.cropAndResize(
    input,
    boxes.map((b, i) => (eyeLids[i].flip ? [b.y0 / hh, b.x1 / w, b.y1 / hh, b.x0 / w] : [b.y0 / hh, b.x0 / w, b.y1 / hh, b.x1 / w])),
    [0, 0],
    [irisInput, irisInput],
  );
  const scaled = h.tf.div(crop, 255);
  const run = model.execute(scaled);
  const outs = Array.isArray(run) ? run : [run];
  try {
    // The contour is the output with 71 points an eye, or the first 71 of
    // 76 (the export has one output or two).
    const per = (t: Tensor) => t.shape.slice(1).reduce((n, d) => n * d, 1) / 3;
    const out = outs.find((t) => t.shape[0] === 2 && (per(t) === irisContour + 5 || per(t) === irisContour));
    if (!out) throw new Error("face tracker: the iris model lacks the eye-contour output");
    const raw = await out.data();
    eyeLids.forEach((e, i) => {
      const b = boxes[i];
      const side = b.x1 - b.x0;
      const base = i * 3 * per(out);
      const set = (idx: number, k: number) => {
        const u = raw[base + 3 * k] / irisInput;
        const z = (raw[base + 3 * k + 2] * side) / irisInput / zs;
        m.points[idx] = [b.x0 + (e.flip ? 1 - u : u) * side, b.y0 + (raw[base + 3 * k + 1] / irisInput) * (b.y1 - b.y0), (m.points[idx][2] + z) / 2];
      };
      e.lower.forEach((idx, k) => set(idx, k));
      e.upper.forEach((idx, k) => set(idx, e.lower.length + k));
    });
    return true;
  } finally {
    h.tf.dispose([crop, scaled, ...outs]);
  }
}
