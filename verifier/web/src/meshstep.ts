// The tracker's own detector-and-mesh step, for the frames of a step that
// need the head's pose alone (the turns):
// Human's BlazeFace gives the face's box, and the mesh model runs on a
// crop of it here, as the server crops every frame (verifier/face/facemesh:
// the detector's square box, cut and resized to the model's 192×192, black
// outside the frame, the points mapped back about the box's centre, the
// depth in the crop's units). Human cannot do this itself: once its mesh
// runs, the box it returns and keeps for the next frame is re-centred on
// the mesh, and on 16 real turns a mesh cropped from that kept box put 5
// turn peaks 1.2–5.3° past the server's, where the last frame's detector
// box, unmoved, put none past it by more than 0.7° (both on the server's
// own pipeline: bench/pages -levers, docs/end-user-flow.md).
// So the tracker runs the detector only on every other frame of a turn
// and carries its box, unmoved, to the frame after (humantrack.ts).
import type { Frame, HumanFace } from "./humantrack";

// The parts of TensorFlow.js (as Human bundles it) the step uses.
export interface Tensor {
  shape: number[];
  data(): Promise<ArrayLike<number>>;
}
export interface TF {
  image: { cropAndResize(image: Tensor, boxes: number[][], boxInd: number[], cropSize: [number, number]): Tensor };
  div(a: Tensor, b: number): Tensor;
  dispose(t: Tensor | Tensor[]): void;
}
interface GraphModel {
  execute(input: Tensor): Tensor | Tensor[];
  inputs: { shape?: number[] }[];
}

// The parts of Human the step uses: its image input (the frame as the
// [1, h, w, 3] tensor of 0..255 its models read), its detector (a detect()
// with the mesh off returns the detector's own box, boxRaw unclamped), and
// its loaded mesh model.
export interface StepHuman {
  tf: TF;
  models: { models: Record<string, GraphModel | null | undefined> };
  image(input: Frame, getTensor: true): Promise<{ tensor: Tensor | null }>;
  detect(input: Frame | Tensor, config?: object): Promise<{ face: HumanFace[]; error?: string | null }>;
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

// findBox runs Human's BlazeFace alone on input and returns the
// face's box, null when it finds none.
export async function findBox(h: StepHuman, input: Tensor): Promise<Box | null> {
  const r = await h.detect(input, { cacheSensitivity: 0, face: { mesh: { enabled: false }, iris: { enabled: false } } });
  const f = r.face[0];
  if (!f || !f.boxRaw) return null;
  const [w, hh] = [input.shape[2], input.shape[1]];
  const [x, y, bw, bh] = f.boxRaw;
  const b = { x0: x * w, y0: y * hh, x1: (x + bw) * w, y1: (y + bh) * hh };
  return b.x1 > b.x0 && b.y1 > b.y0 ? b : null;
}

// meshOn runs the mesh model on input cropped at box, null while the
// model is not loaded.
export async function meshOn(h: StepHuman, input: Tensor, box: Box): Promise<Meshed | null> {
  const model = h.models.models.facemesh;
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
