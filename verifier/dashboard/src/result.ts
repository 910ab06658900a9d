// resultView shows a verification's result: the checks (booleans), the
// face match (tier, confidence, verdict), indicators when present, and the
// personal data — in the clear under mode none, or behind the unlock panel
// when sealed to the account's key.
import { h } from "./dom";
import { unlockPanel } from "./unlock";

const labels: Record<string, string> = {
  license_appears_real: "License appears real",
  license_expired: "License expired",
  over_18: "Over 18",
  over_21: "Over 21",
  webcam_appears_live: "Selfie appears live",
  webcam_face_matches_license_photo: "Face matches the license photo",
  face_match_score: "Face match tier",
  face_match_confidence: "Face match confidence",
  // face-api's descriptors are not centred: different people score
  // 0.72–0.93 too (docs/engines.md, Face match and liveness), so say it is no verdict.
  face_match_cosine_similarity: "Cosine similarity (all faces score high; the tier decides)",
  ip_found: "IP found",
  is_proxy: "Behind a proxy",
  proxy_type: "Proxy type",
  proxy_description: "Proxy",
  manual_review_requested: "Manual review requested",
  review_reason: "Reviewer's reason",
  front_barcode_match: "Front matches the barcode",
};

// front_barcode_match: the printed front (OCR) against the barcode, overall
// and per field. Only outcomes, never the text read.
const frontOutcome: Record<string, [string, string]> = {
  match: ["Match", "yes"], mismatch: ["Mismatch", "no"], unreadable: ["Unreadable", "maybe"], not_compared: ["Not compared", ""],
};
const frontFieldLabel: Record<string, string> = {
  document_number: "Document number", last_name: "Last name", first_name: "First name",
  date_of_birth: "Date of birth", expiry_date: "Expiry date", issue_date: "Issue date",
};

function outcome(o: unknown): HTMLElement {
  const [text, cls] = frontOutcome[String(o)] || [String(o), ""];
  return h("span", { class: cls ? "check " + cls : undefined }, text);
}

function frontMatch(v: Record<string, unknown>): HTMLElement {
  const fields = (v.fields && typeof v.fields === "object" ? v.fields : {}) as Record<string, unknown>;
  return h("div", { class: "frontmatch" }, outcome(v.result),
    v.result === "unreadable" ? h("span", { class: "note" }, " (the front could not be read well enough to compare; not a mismatch)") : null,
    h("dl", { class: "facts sub" },
      Object.entries(fields).flatMap(([k, o]) => [h("dt", null, frontFieldLabel[k] || k.replace(/_/g, " ")), h("dd", null, outcome(o))])));
}

// Checks whose answer is good or bad news (coloured, with the word); the
// other booleans (ages, ip_found, …) are facts, shown plainly.
const goodWhenTrue = new Set(["license_appears_real", "webcam_appears_live", "webcam_face_matches_license_photo"]);
const badWhenTrue = new Set(["license_expired", "is_proxy"]);

function value(k: string, v: unknown): HTMLElement {
  if (k === "front_barcode_match" && v && typeof v === "object") return frontMatch(v as Record<string, unknown>);
  if (typeof v === "boolean") {
    if (!goodWhenTrue.has(k) && !badWhenTrue.has(k)) return h("span", null, v ? "Yes" : "No");
    const good = badWhenTrue.has(k) ? !v : v;
    return h("span", { class: "check " + (good ? "yes" : "no") }, v ? "Yes" : "No");
  }
  if (v === "undetermined") return h("span", { class: "check maybe" }, "Undetermined (awaiting review)");
  if (typeof v === "number") return h("span", null, k === "face_match_confidence" ? Math.round(v * 100) + " %" : v.toFixed(3));
  if (typeof v === "string") return h("span", null, v.replace(/_/g, " "));
  if (v === null || v === undefined) return h("span", { class: "note" }, "—");
  if (typeof v === "object" && !Array.isArray(v)) return table(v as Record<string, unknown>);
  return h("span", { class: "mono" }, JSON.stringify(v));
}

function table(o: Record<string, unknown>): HTMLElement {
  return h("dl", { class: "facts" }, Object.entries(o).flatMap(([k, v]) => [h("dt", null, labels[k] || k.replace(/_/g, " ")), h("dd", null, value(k, v))]));
}

export function resultView(r: Record<string, unknown>): HTMLElement {
  const out = h("div", { class: "result" });
  const ver = (r.verification || {}) as Record<string, unknown>;
  // document_type: the kind the license_* checks were read from (absent from results stored before it: a license).
  const doc = ({ drivers_license: "Driver's license or state ID", passport: "Passport", id_card: "ID card" } as Record<string, string>)[String(r.document_type)];
  out.append(h("p", { class: "doctype" }, "Document: " + (doc || (r.document_type ? String(r.document_type).replace(/_/g, " ") : "Driver's license or state ID"))), h("h3", null, "Checks"), table(ver));
  for (const k of ["address_verification", "location_consistency", "phone_verification"]) {
    if (r[k] && typeof r[k] === "object") out.append(h("h3", null, labels[k] || k.replace(/_/g, " ")), table(r[k] as Record<string, unknown>));
  }
  const sealed = !!r.encryption && typeof r.encryption === "object";
  const personal = ["license_data", "license_photo"].filter((k) => r[k] !== undefined);
  if (sealed && personal.length) {
    out.append(h("h3", null, "Personal data"), unlockPanel(r, "the license data", (o) => {
      if (o.kind === "result") out.append(personalData(o.payload));
    }));
  } else if (personal.length) {
    out.append(personalData(r));
  }
  return out;
}

function personalData(r: Record<string, unknown>): HTMLElement {
  const box = h("div", { class: "personal" });
  const ld = r.license_data as Record<string, unknown> | undefined;
  if (ld && typeof ld === "object") {
    box.append(h("h3", null, "License data"), Object.keys(ld).length ? table(ld) : h("p", { class: "note" }, "None (purged or not requested)."));
  }
  if (typeof r.license_photo === "string" && r.license_photo) {
    box.append(h("h3", null, "License photo"), h("img", { class: "portrait", alt: "Headshot cropped from the license", src: "data:image/jpeg;base64," + r.license_photo }));
  }
  return box;
}
