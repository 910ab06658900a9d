// The license back's barcode reader: zxing-cpp's WebAssembly (npm
// zxing-wasm, bundled at build time by verifier/web/npmbundle), loaded
// from our own origin only when the back step starts. The server passes
// the script's and the WebAssembly's content-hashed paths as the
// build-time constant IDGATE_BARCODE; an idgate built without `make npm`
// has none (null), and the back step keeps its manual shutter alone.
import type { Point } from "./cardguide";

declare const IDGATE_BARCODE: { js: string; wasm: string } | null;

// Seen is one symbol the decoder saw: valid when it decoded, else its
// position (zxing-cpp's returnErrors) tells that a barcode is in view.
export interface Seen {
  valid: boolean;
  error: string;
  corners: Point[];
}

export interface BarcodeReader {
  read(frame: ImageData): Promise<Seen[]>;
}

interface Module {
  start(wasmURL: string): Promise<void>;
  read(frame: ImageData, options?: { binarizer: Binarizer }): Promise<Seen[]>;
}

// zxing-cpp's binarizers. Its default (LocalAverage) misses a close, sharp
// PDF417 that GlobalHistogram reads (the synthetic back filling a 1280×960
// frame: read by GlobalHistogram and FixedThreshold in 20–50 ms, missed by
// LocalAverage with or without downscaling), while LocalAverage copes
// with uneven light: frames take them in turn, as the server tries
// several ways to present one photo.
type Binarizer = "LocalAverage" | "GlobalHistogram";
const binarizers: Binarizer[] = ["GlobalHistogram", "LocalAverage"];

declare global {
  interface Window {
    idgateBarcode?: Module;
  }
}

let loading: Promise<BarcodeReader> | null = null;

// available says whether this binary serves the reader.
export function available(): boolean {
  return typeof IDGATE_BARCODE === "object" && IDGATE_BARCODE !== null;
}

function load(): Promise<BarcodeReader> {
  if (!available()) return Promise.reject(new Error("barcode reader not built"));
  const paths = IDGATE_BARCODE!;
  return new Promise<Module>((resolve, reject) => {
    if (window.idgateBarcode) return resolve(window.idgateBarcode);
    const s = document.createElement("script");
    s.src = paths.js;
    s.onload = () => (window.idgateBarcode ? resolve(window.idgateBarcode) : reject(new Error("barcode script defined no module")));
    s.onerror = () => reject(new Error("barcode script did not load"));
    document.head.append(s);
  }).then(async (m) => {
    await m.start(paths.wasm);
    let n = 0;
    return { read: (f: ImageData) => m.read(f, { binarizer: binarizers[n++ % binarizers.length] }) };
  });
}

// barcodeReader loads the reader once; a failed load may be retried on
// the next visit to the step.
export function barcodeReader(): Promise<BarcodeReader> {
  if (!loading) {
    loading = load();
    loading.catch(() => (loading = null));
  }
  return loading;
}
