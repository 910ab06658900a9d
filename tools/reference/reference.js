#!/usr/bin/env node
// Reference outputs for the Go face engine's parity tests. It runs the very
// model files `make models` installed (IDGATE_MODELS_DIR, default
// ../../var/models) through Human and face-api on the tfjs-wasm backend and
// prints one JSON document on stdout.
//
//   node reference.js human IMG...        Human, detector only (blazeface
//                                        boxes + 6 keypoints), with mesh and
//                                        iris (468+10 points, angles, scores)
//                                        and with mesh but no iris (468)
//   node reference.js iris IMG...         Human's iris model alone on each
//                                        face's two eye crops (boxes and
//                                        raw outputs)
//   node reference.js descriptor IMG...   face-api 128-D descriptor of the
//                                        whole image (already a face crop)
//   node reference.js bench N FRAME FACE  milliseconds per frame (detector +
//                                        mesh, and + iris) and per descriptor
//
// Images are decoded with jpeg-js / pngjs to RGB so both sides see pixels
// from a plain decoder.
'use strict';
const fs = require('fs');
const path = require('path');
const jpeg = require('jpeg-js');
const { PNG } = require('pngjs');

// Libraries log to stdout; keep stdout for the JSON document alone.
console.log = console.error; // eslint-disable-line no-console

const modelsDir = path.resolve(process.env.IDGATE_MODELS_DIR || path.join(__dirname, '..', '..', 'var', 'models'));

function decode(file) {
  const buf = fs.readFileSync(file);
  let rgba;
  let width;
  let height;
  if (buf[0] === 0x89 && buf[1] === 0x50) {
    const png = PNG.sync.read(buf);
    ({ width, height } = png);
    rgba = png.data;
  } else {
    const img = jpeg.decode(buf, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 512 });
    ({ width, height } = img);
    rgba = img.data;
  }
  const rgb = new Float32Array(width * height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i];
    rgb[j + 1] = rgba[i + 1];
    rgb[j + 2] = rgba[i + 2];
  }
  return { rgb, width, height };
}

// fileRouter serves file:// model URLs from disk: the wasm build of tfjs has
// no file system handler of its own.
function fileRouter(tf) {
  tf.io.registerLoadRouter((url) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const file = url.slice('file://'.length);
    return {
      load: async () => {
        const json = JSON.parse(fs.readFileSync(file, 'utf8'));
        const specs = [];
        const bufs = [];
        for (const group of json.weightsManifest) {
          specs.push(...group.weights);
          for (const p of group.paths) bufs.push(fs.readFileSync(path.join(path.dirname(file), p)));
        }
        const all = Buffer.concat(bufs);
        return {
          modelTopology: json.modelTopology,
          format: json.format,
          generatedBy: json.generatedBy,
          convertedBy: json.convertedBy,
          signature: json.signature,
          userDefinedMetadata: json.userDefinedMetadata,
          weightSpecs: specs,
          weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
        };
      },
    };
  });
}

const round = (v) => Math.round(v * 1e4) / 1e4;
const roundAll = (a) => (Array.isArray(a) ? a.map(roundAll) : round(a));

// humanBase is the Human configuration every mode shares: wasm backend,
// models from modelsDir, no caching or warm-up, everything but faces off.
function humanBase() {
  return {
    backend: 'wasm',
    wasmPath: `${path.join(__dirname, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist')}/`,
    modelBasePath: `file://${path.join(modelsDir, 'human')}/`,
    debug: false,
    async: false,
    warmup: 'none',
    cacheSensitivity: 0,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
  };
}

// humanFace is the face configuration: detector as the Go side runs it,
// mesh and iris as asked, passive scores with the mesh.
function humanFace(mesh, iris = mesh, scores = mesh) {
  return {
    enabled: true,
    detector: { modelPath: 'blazeface.json', rotation: false, maxDetected: 10, minConfidence: 0.2, iouThreshold: 0.1, return: false },
    mesh: { enabled: mesh, modelPath: 'facemesh.json' },
    iris: { enabled: iris, modelPath: 'iris.json' },
    attention: { enabled: false },
    description: { enabled: false },
    emotion: { enabled: false },
    antispoof: { enabled: scores, modelPath: 'antispoof.json' },
    liveness: { enabled: scores, modelPath: 'liveness.json' },
  };
}

async function human(files) {
  const { Human } = require(path.join(__dirname, 'node_modules/@vladmandic/human/dist/human.node-wasm.js')); // its "exports" map lacks "./" keys
  const base = humanBase();
  const face = humanFace;
  const detectorOnly = new Human({ ...base, face: face(false) });
  fileRouter(detectorOnly.tf);
  await detectorOnly.load();
  const withMesh = new Human({ ...base, face: face(true) });
  await withMesh.load();
  const meshNoIris = new Human({ ...base, face: face(true, false) });
  await meshNoIris.load();
  const out = {};
  for (const file of files) {
    const { rgb, width, height } = decode(file);
    const input = detectorOnly.tf.tensor4d(rgb, [1, height, width, 3], 'float32');
    const det = await detectorOnly.detect(input);
    const mesh = await withMesh.detect(input);
    const plain = await meshNoIris.detect(input);
    input.dispose();
    out[path.basename(file)] = {
      width,
      height,
      detector: det.face.map((f) => ({ box: f.box, boxRaw: roundAll(f.boxRaw), score: f.boxScore, keypoints: roundAll(f.mesh) })),
      mesh: mesh.face.map((f) => ({
        box: f.box,
        score: f.score,
        boxScore: f.boxScore,
        faceScore: f.faceScore,
        mesh: roundAll(f.mesh),
        angle: f.rotation ? roundAll([f.rotation.angle.yaw, f.rotation.angle.pitch, f.rotation.angle.roll]) : null,
        real: f.real,
        live: f.live,
      })),
      meshNoIris: plain.face.map((f) => ({ box: f.box, faceScore: f.faceScore, mesh: roundAll(f.mesh) })),
    };
  }
  return out;
}

// iris runs Human's iris model on its own: for each face Human finds (mesh
// without iris), each eye is cut as the square around its corner points
// (mesh 33/133 and 263/362) enlarged 2.3 times, resized to 64x64 with
// tf.image.cropAndResize and scaled to 0..1; the image-right eye is
// mirrored, as the model is trained on the other. Prints each crop's box
// (normalised y0, x0, y1, x1) and the model's raw outputs, so the Go side
// can feed the same crop and compare number for number.
async function iris(files) {
  const { Human } = require(path.join(__dirname, 'node_modules/@vladmandic/human/dist/human.node-wasm.js'));
  const h = new Human({ ...humanBase(), face: humanFace(true, false) });
  fileRouter(h.tf);
  await h.load();
  const { tf } = h;
  const model = await tf.loadGraphModel(`file://${path.join(modelsDir, 'human', 'iris.json')}`);
  const out = {};
  for (const file of files) {
    const { rgb, width, height } = decode(file);
    const input = tf.tensor4d(rgb, [1, height, width, 3], 'float32');
    const res = await h.detect(input);
    out[path.basename(file)] = res.face.map((f) => [[33, 133, false], [263, 362, true]].map(([a, b, flip]) => {
      const [ax, ay] = f.mesh[a];
      const [bx, by] = f.mesh[b];
      const cx = (ax + bx) / 2;
      const cy = (ay + by) / 2;
      const half = (2.3 * Math.max(Math.abs(bx - ax), Math.abs(by - ay))) / 2;
      const box = [(cy - half) / height, (cx - half) / width, (cy + half) / height, (cx + half) / width].map((v) => Math.round(v * 1e6) / 1e6);
      const outputs = tf.tidy(() => {
        let crop = tf.div(tf.image.cropAndResize(input, [box], [0], [64, 64]), 255);
        if (flip) crop = tf.image.flipLeftRight(crop);
        const r = model.execute(crop);
        return (Array.isArray(r) ? r : [r]).map((t) => ({ shape: t.shape, data: Array.from(t.dataSync()).map((v) => Math.round(v * 100) / 100) }));
      });
      return { box, flip, outputs };
    }));
    input.dispose();
  }
  return out;
}

async function descriptor(files) {
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
  await faceapi.tf.setBackend('wasm');
  await faceapi.tf.ready();
  await faceapi.nets.faceRecognitionNet.loadFromDisk(path.join(modelsDir, 'face-api'));
  const out = {};
  for (const file of files) {
    const { rgb, width, height } = decode(file);
    const input = faceapi.tf.tensor3d(rgb, [height, width, 3], 'float32');
    const d = await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(input);
    input.dispose();
    out[path.basename(file)] = Array.from(d).map((v) => Math.round(v * 1e7) / 1e7);
  }
  return out;
}

// bench times, after warm-up, Human's per-frame analysis on FRAME as the
// Go engine runs it — detector + mesh, and detector + mesh + iris (what
// liveness needs per frame) — and face-api's descriptor on FACE.
async function bench([iterations, frame, face]) {
  const n = Number(iterations) || 20;
  // Mean wall and CPU milliseconds per call (CPU: the whole process, all
  // threads), so a run on a loaded machine can be read both ways.
  const timeIt = async (fn) => {
    for (let i = 0; i < 3; i++) await fn();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn();
    const wall = Number(process.hrtime.bigint() - t0) / 1e6 / n;
    const c = process.cpuUsage(c0);
    return { wall, cpu: (c.user + c.system) / 1e3 / n };
  };
  const { Human } = require(path.join(__dirname, 'node_modules/@vladmandic/human/dist/human.node-wasm.js'));
  const h = new Human({ ...humanBase(), face: humanFace(true, false, false) });
  fileRouter(h.tf);
  await h.load();
  const hIris = new Human({ ...humanBase(), face: humanFace(true, true, false) });
  await hIris.load();
  const f = decode(frame);
  const frameT = h.tf.tensor4d(f.rgb, [1, f.height, f.width, 3], 'float32');
  const perFrame = await timeIt(async () => { await h.detect(frameT); });
  const perFrameIris = await timeIt(async () => { await hIris.detect(frameT); });
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
  await faceapi.tf.setBackend('wasm');
  await faceapi.nets.faceRecognitionNet.loadFromDisk(path.join(modelsDir, 'face-api'));
  const c = decode(face);
  const faceT = faceapi.tf.tensor3d(c.rgb, [c.height, c.width, 3], 'float32');
  const perDescriptor = await timeIt(async () => { await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(faceT); });
  return {
    iterations: n,
    frameMs: perFrame.wall,
    frameIrisMs: perFrameIris.wall,
    descriptorMs: perDescriptor.wall,
    frameCpuMs: perFrame.cpu,
    frameIrisCpuMs: perFrameIris.cpu,
    descriptorCpuMs: perDescriptor.cpu,
  };
}

async function main() {
  const [cmd, ...files] = process.argv.slice(2);
  const run = { human, iris, descriptor, bench }[cmd];
  if (!run || files.length === 0) {
    process.stderr.write('usage: reference.js human|iris|descriptor IMG... | bench N FRAME FACE\n');
    process.exit(2);
  }
  const out = await run(files);
  process.stdout.write(`${JSON.stringify({ tool: cmd, backend: 'wasm', results: out })}\n`);
}

main().catch((err) => {
  process.stderr.write(`reference: ${err.stack || err}\n`);
  process.exit(1);
});
