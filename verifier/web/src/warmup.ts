// The backend's kernels called once before the detector's weights are in.
// The detector's first run on a frame took 400–550 ms at 4× CPU slowdown
// where a later one takes about 170 ms (bench/pages -first, 2026-11-30).
// Most of that is V8 compiling each WebAssembly function the first time
// it is called (lazy compilation): on 3 runs each at 4× (load 13–15),
// the first run took 0.43–0.84 s, 0.28–0.39 s with every function
// compiled up front (--no-wasm-lazy-compilation), and 1.0–1.8 s with each
// compiled by the optimising compiler on first call (--no-liftoff); a
// second copy of the model, new weights, ran about as fast as the first
// copy's later runs. So the kernels are called here on small tensors
// shaped like BlazeFace's layers (its graph, var/models/human/
// blazeface.json: a 5×5 convolution at stride 2, then blocks of 3×3
// depthwise convolutions at strides 1 and 2 and 1×1 convolutions with
// bias at 24, 48 and 96 channels, additions and ReLU, 2×2 max pooling and
// channel padding on the strided blocks' other path, four 1×1 heads,
// reshaped), and the frame's resize and scaling in front of them: the
// same functions, while the weights download (facetrack.ts, track).
import type { GraphModel, TF, Tensor } from "./meshstep";

// The parts of TensorFlow.js the warm-up calls besides the step's.
export interface WarmTF extends TF {
  tidy(f: () => void): void;
  zeros(shape: number[]): Tensor;
  ones(shape: number[]): Tensor;
  add(a: Tensor, b: Tensor): Tensor;
  relu(x: Tensor): Tensor;
  depthwiseConv2d(x: Tensor, filter: Tensor, strides: number, pad: "same"): Tensor;
  maxPool(x: Tensor, size: number, strides: number, pad: "same"): Tensor;
  pad(x: Tensor, paddings: [number, number][]): Tensor;
  reshape(x: Tensor, shape: number[]): Tensor;
  fused: {
    conv2d(args: { x: Tensor; filter: Tensor; strides: number; pad: "same" | "valid"; bias: Tensor; activation?: "relu" }): Tensor;
  };
}

// warmKernels runs the detector's kinds of layer once, on an 8×8 grid.
export function warmKernels(tf: WarmTF): void {
  tf.tidy(() => {
    const conv = (x: Tensor, k: number, from: number, to: number, strides: number, pad: "same" | "valid", relu: boolean) =>
      tf.fused.conv2d({ x, filter: tf.ones([k, k, from, to]), strides, pad, bias: tf.zeros([to]), activation: relu ? "relu" : undefined });
    const frame = tf.zeros([1, 24, 32, 3]);
    let y = conv(tf.sub(tf.div(tf.image.resizeBilinear(frame, [16, 16]), 127.5), 1), 5, 3, 24, 2, "same", true);
    for (const c of [24, 48, 96]) {
      y = tf.relu(tf.add(conv(tf.depthwiseConv2d(y, tf.ones([3, 3, c, 1]), 1, "same"), 1, c, c, 1, "valid", false), y));
      if (c === 96) break;
      const skip = tf.pad(tf.maxPool(y, 2, 2, "same"), [[0, 0], [0, 0], [0, 0], [0, c]]);
      y = tf.relu(tf.add(conv(tf.depthwiseConv2d(y, tf.ones([3, 3, c, 1]), 2, "same"), 1, c, 2 * c, 1, "valid", false), skip));
    }
    y = conv(y, 1, 96, 96, 1, "valid", true);
    for (const d of [2, 32, 6, 96]) tf.reshape(conv(y, 1, 96, d, 1, "same", false), [1, -1, 1]);
  });
}

// firstRun runs a model once on a batch of black side×side frames, before
// any frame of the person's may use it. The mesh's and iris model's
// layers are not the detector's kinds that warmKernels calls, so their
// first run compiles their own functions: without this, the iris model's
// first run fell on the lead-in's first frames (the lead-in is the first
// to ask for the eyelids) and the mesh's on the ready guidance's, and a
// second worker's on the first pair it took. Here they run while the
// model's worker (or the page) has nothing of the person's waiting.
export async function firstRun(tf: WarmTF, model: GraphModel, side: number, batch: number): Promise<void> {
  const input = tf.zeros([batch, side, side, 3]);
  const run = model.execute(input);
  const outs = Array.isArray(run) ? run : [run];
  try {
    await Promise.all(outs.map((t) => t.data()));
  } finally {
    tf.dispose([input, ...outs]);
  }
}
