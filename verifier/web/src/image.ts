// Downscaling in the browser before upload: a 12 MP phone photo becomes a
// JPEG of at most maxSide pixels on its long side, a few hundred kB, which
// is plenty for the card and barcode checks and quick on a slow network.

export function canvasOf(w: number, h: number): HTMLCanvasElement {
  const c = document.createElement("canvas");
  c.width = w;
  c.height = h;
  return c;
}

export function toJPEG(c: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => c.toBlob((b) => (b ? resolve(b) : reject(new Error("encode"))), "image/jpeg", quality));
}

// fit scales w×h down (never up) so its long side is at most maxSide.
export function fit(w: number, h: number, maxSide: number): [number, number] {
  const s = Math.min(1, maxSide / Math.max(w, h));
  return [Math.max(1, Math.round(w * s)), Math.max(1, Math.round(h * s))];
}

// fromVideo grabs the current frame of a playing video.
export function fromVideo(v: HTMLVideoElement, maxSide: number, quality: number): Promise<Blob> {
  const [w, h] = fit(v.videoWidth, v.videoHeight, maxSide);
  const c = canvasOf(w, h);
  c.getContext("2d")!.drawImage(v, 0, 0, w, h);
  return toJPEG(c, quality);
}

// fromFile decodes a chosen photo (honouring its EXIF orientation) and
// re-encodes it downscaled. A file the browser cannot decode is sent as it
// is, so the server names the problem.
export async function fromFile(f: File, maxSide: number, quality: number): Promise<Blob> {
  let bmp: ImageBitmap;
  try {
    bmp = await createImageBitmap(f, { imageOrientation: "from-image" });
  } catch {
    return f;
  }
  const [w, h] = fit(bmp.width, bmp.height, maxSide);
  const c = canvasOf(w, h);
  c.getContext("2d")!.drawImage(bmp, 0, 0, w, h);
  bmp.close();
  return toJPEG(c, quality);
}
