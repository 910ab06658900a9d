// The face tracker's library, bundled apart from the pages (go generate,
// run by make npm) and loaded only when the liveness step starts: Human
// with the TensorFlow.js it bundles, whose WebAssembly backend runs
// BlazeFace, the face mesh and the iris model, the models the server runs.
export { Human } from "@vladmandic/human";
