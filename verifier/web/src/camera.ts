// Camera access: opening the rear or front camera into a <video>, and
// telling apart why it failed, so the page can say exactly what to do.
import { t, type Key } from "./i18n";

export type CameraProblem = "denied" | "none" | "inapp" | "insecure";

export class CameraError extends Error {
  constructor(readonly problem: CameraProblem) {
    super(problem);
  }
}

// In-app browsers (Instagram, Facebook, TikTok, LINE, ...) often refuse
// getUserMedia without asking; their user agents say who they are.
const inApp = /\b(FBAN|FBAV|FB_IAB|Instagram|Line\/|TikTok|Snapchat|Twitter|LinkedInApp|MicroMessenger|GSA\/)/;

export function isInApp(ua = navigator.userAgent): boolean {
  return inApp.test(ua);
}

// open starts the camera facing the given way in video (muted, inline,
// autoplay: what mobile Safari requires to play a stream without going
// full screen) and resolves once frames arrive.
export async function open(video: HTMLVideoElement, facing: "environment" | "user", ideal: { width: number; height: number }): Promise<MediaStream> {
  if (!window.isSecureContext) throw new CameraError("insecure");
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) throw new CameraError(isInApp() ? "inapp" : "none");
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: facing }, width: { ideal: ideal.width }, height: { ideal: ideal.height } },
    });
  } catch (e) {
    const name = (e as DOMException).name;
    if (name === "NotAllowedError" || name === "SecurityError") throw new CameraError(isInApp() ? "inapp" : "denied");
    throw new CameraError("none");
  }
  video.muted = true;
  video.setAttribute("playsinline", "");
  video.setAttribute("autoplay", "");
  video.srcObject = stream;
  await new Promise<void>((resolve) => {
    if (video.readyState >= 2 && video.videoWidth > 0) return resolve();
    video.addEventListener("loadeddata", () => resolve(), { once: true });
  });
  await video.play().catch(() => undefined);
  return stream;
}

export function stop(stream: MediaStream | null): void {
  stream?.getTracks().forEach((tr) => tr.stop());
}

// help is the title and the how-to for a camera problem.
export function help(p: CameraProblem): { title: string; body: string } {
  const m: Record<CameraProblem, [Key, Key]> = {
    denied: ["camera.denied.title", "camera.denied.body"],
    none: ["camera.none.title", "camera.none.body"],
    inapp: ["camera.inapp.title", "camera.inapp.body"],
    insecure: ["camera.none.title", "camera.insecure.body"],
  };
  return { title: t(m[p][0]), body: t(m[p][1]) };
}
