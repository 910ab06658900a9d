// Every string the widget shows. A store translates them by defining
// window.idgateWidgetConfig = { strings: { verify: "…", … } } before the
// footer script; missing keys keep the English defaults.
export interface Strings {
  verify: string;
  verifying: string;
  verified: string;
  failed: string;
  expired: string;
  hold: string;
  openLink: string;
  copyLink: string;
  copied: string;
  desktopHint: string;
  qrLabel: string;
  error: string;
}

export const defaultStrings: Strings = {
  verify: "Verify ID",
  verifying: "Waiting for your ID verification…",
  verified: "ID verified",
  failed: "We could not verify your ID. You can try again.",
  expired: "Your ID verification has expired. Please verify again.",
  hold: "Checkout is available once your ID is verified.",
  openLink: "Open the verification",
  copyLink: "Copy link",
  copied: "Link copied",
  desktopHint: "Scan the code with your phone to verify your ID there, or open the link:",
  qrLabel: "QR code of the verification link",
  error: "ID verification is unavailable right now. Please try again later.",
};

export function mergeStrings(overrides: unknown): Strings {
  const out: Strings = { ...defaultStrings };
  if (overrides && typeof overrides === "object") {
    for (const k of Object.keys(defaultStrings) as (keyof Strings)[]) {
      const v = (overrides as Record<string, unknown>)[k];
      if (typeof v === "string" && v !== "") out[k] = v;
    }
  }
  return out;
}
