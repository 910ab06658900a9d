// The barcode reader the license back's page loads when its step starts:
// zxing-cpp compiled to WebAssembly (npm zxing-wasm, its reader-only
// build), the library the server reads PDF417 with through cgo. Bundled
// by `go generate` into gen/barcode.js with the global idgateBarcode; the
// .wasm is copied beside it and served from our origin under a
// content-hashed path the page passes to start. The library's default
// locateFile points at a CDN: it is replaced here, so the WebAssembly is
// fetched from nowhere else (the page's connect-src is 'self' anyway).
import { prepareZXingModule, readBarcodes, type ReaderOptions } from "zxing-wasm/reader";

// What the page needs from a read: whether a PDF417 decoded, and where the
// decoder saw a symbol even when it could not decode it (returnErrors),
// which tells "too small" or "blurred" from "no barcode in view".
export interface Seen {
  valid: boolean;
  error: string;
  corners: { x: number; y: number }[];
}

const options: ReaderOptions = {
  formats: ["PDF417"],
  tryHarder: true,
  tryRotate: true,
  tryInvert: false,
  tryDownscale: true,
  returnErrors: true,
  maxNumberOfSymbols: 1,
};

// start fetches and compiles the WebAssembly at wasmURL once.
export async function start(wasmURL: string): Promise<void> {
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasmURL : prefix + path) },
    fireImmediately: true,
  });
}

// read looks for one PDF417 in a frame.
export async function read(frame: ImageData, extra?: ReaderOptions): Promise<Seen[]> {
  const found = await readBarcodes(frame, { ...options, ...extra });
  // With returnErrors an empty frame still answers one result, of no
  // format and no size: not a symbol.
  return found.filter((r) => r.format === "PDF417").map((r) => ({
    valid: r.isValid,
    error: r.error,
    corners: [r.position.topLeft, r.position.topRight, r.position.bottomRight, r.position.bottomLeft],
  }));
}
