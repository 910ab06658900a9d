// The face tracker's library, bundled apart from the pages (go generate,
// run by make npm) and loaded only when the liveness step starts:
// TensorFlow.js's core, its WebAssembly backend and its graph-model
// loader, no more. The tracker runs BlazeFace, the face mesh and the iris
// model (the server's) in its own step (verifier/web/src/meshstep.ts), so
// it needs the ops that step and the models call, the backend and the
// loader; Human, which it used to load them, bundled WebGL, WebGPU and CPU
// backends besides (1.58 MB, 414 KB gzipped).
import "@tensorflow/tfjs-backend-wasm";
export { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
export { loadGraphModel } from "@tensorflow/tfjs-converter";
export {
  add,
  depthwiseConv2d,
  div,
  dispose,
  enableProdMode,
  env,
  fused,
  image,
  maxPool,
  ones,
  pad,
  relu,
  reshape,
  setBackend,
  sub,
  tensor,
  tidy,
  zeros,
} from "@tensorflow/tfjs-core";
