// The end-user API behind the link: the link token in the
// page's own path is the only credential. Every call is same-origin and
// sends no cookies.

export type StepName = "license_front" | "license_back" | "passport_page" | "id_card_front" | "id_card_back" | "liveness" | "phone";

// DocumentKind is a kind of identity document a link may accept
// (accepted_documents; docs/documents.md).
export type DocumentKind = "drivers_license" | "passport" | "id_card";

// kinds are the kinds this page can capture: a newer server's kind that
// it does not know is left out of the pick.
export const kinds: DocumentKind[] = ["drivers_license", "passport", "id_card"];

export interface Session {
  // pending | started | review_offered | completed | manual_review
  status: string;
  // steps are the picked document kind's steps (the first accepted
  // kind's while none is picked), then liveness and the phone.
  steps: { name: StepName; done: boolean }[];
  // documents are the kinds the link accepts, in the requester's order;
  // document is the end user's pick, "" while a link accepting several
  // has none (the pick screen, pick.ts).
  documents: DocumentKind[];
  document: DocumentKind | "";
  message: string;
  requested_fields: string[];
  // front_barcode_match: the printed front is read and checked against
  // the barcode (the consent screen lists it).
  front_barcode_match: boolean;
  // address_verification, location_consistency: the license address and
  // the connection's location are checked (listed on the consent screen too).
  address_verification: boolean;
  location_consistency: boolean;
  expires_at: string;
  review_available: boolean;
  liveness_attempts_left: number;
  // phone is the phone step's state, on links that have one.
  phone?: PhoneState;
  // livemode is false behind a test verification's link (the test page).
  livemode: boolean;
  // unreachable_link_host is the link's host when a phone cannot open it
  // (a loopback or private address in dev); "" otherwise.
  unreachable_link_host: string;
  // site_origin is the origin of the site whose integration key created
  // the verification, "" otherwise: the only site a #from= fragment may
  // name (finish.ts).
  site_origin: string;
}

// PhoneState is the phone step as the server shows it (the number masked).
export interface PhoneState {
  code_sent: boolean;
  verified: boolean;
  failed: boolean;
  number: string;
  sends_left: number;
  attempts_left: number;
  resend_in: number;
  expires_in: number;
}

export interface Challenge {
  challenge_id: string;
  steps: string[];
  budget: { min: number; max: number; width: number; height: number; fps: number; maxBytes: number };
  expires_in: number;
  step_timeout_ms: number;
  attempts_left: number;
  guide: Guide;
}

// Guide is what the server judges a step done by (the challenge's guide;
// yaw as verifier/face/pose has it, from the person's own straight-ahead):
// the page shows progress against these and moves on when they are met.
export interface Guide {
  turn_degrees: number;
  frontal_degrees: number;
  blink_close_ratio: number;
  blink_open_ratio: number;
  blink_max_yaw_degrees: number;
  straight_ahead_max_degrees: number;
  straight_ahead_seed_ms: number;
  blink_max_closing_ms: number;
  blink_max_reopening_ms: number;
}

// defaultGuide is verifier/face/liveness Defaults, for a server that sends
// no guide.
const defaultGuide: Guide = {
  turn_degrees: 15,
  frontal_degrees: 12,
  blink_close_ratio: 0.65,
  blink_open_ratio: 0.8,
  blink_max_yaw_degrees: 20,
  straight_ahead_max_degrees: 20,
  straight_ahead_seed_ms: 500,
  blink_max_closing_ms: 250,
  blink_max_reopening_ms: 400,
};

export interface LivenessAnswer {
  passed: boolean;
  steps: { step: string; passed: boolean; reason?: string }[];
  failures: string[];
  attempts_left: number;
}

export interface Detail {
  code: string;
  message: string;
}

// APIError is a non-2xx answer in the one error format.
export class APIError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly details: Detail[],
    readonly retryAfter: number,
  ) {
    super(code || "HTTP " + status);
  }
}

// NetworkError: the request never got an answer.
export class NetworkError extends Error {}

export class API {
  readonly base: string;
  constructor(token: string) {
    this.base = "/v/" + encodeURIComponent(token);
  }

  session(): Promise<Session> {
    return this.call("GET", "/session").then(normalSession);
  }
  front(img: Blob): Promise<unknown> {
    return this.call("POST", "/license/front", img);
  }
  back(img: Blob): Promise<unknown> {
    return this.call("POST", "/license/back", img);
  }
  passportPage(img: Blob): Promise<unknown> {
    return this.call("POST", "/passport/page", img);
  }
  idCardFront(img: Blob): Promise<unknown> {
    return this.call("POST", "/id_card/front", img);
  }
  idCardBack(img: Blob): Promise<unknown> {
    return this.call("POST", "/id_card/back", img);
  }
  // pick records the end user's document kind and answers the session.
  pick(kind: DocumentKind): Promise<Session> {
    return this.call("POST", "/document", json({ document: kind })).then(normalSession);
  }
  challenge(): Promise<Challenge> {
    return this.call("POST", "/liveness").then(normalChallenge);
  }
  // answer sends the liveness recording; progress hears how much of it
  // is sent (its upload is the page's longest: 1.5–2.5 MB, 10–20 s on a
  // 1.35 Mbit/s uplink).
  answer(id: string, frames: Blob[], times: number[], progress?: Progress): Promise<LivenessAnswer> {
    const f = new FormData();
    frames.forEach((b, i) => f.append("frame", b, "f" + i + ".jpg"));
    f.append("timestamps", JSON.stringify(times));
    return this.upload("/liveness/" + encodeURIComponent(id), f, progress).then(normalAnswer);
  }
  phoneSend(phoneNumber: string, locale: string): Promise<PhoneState> {
    return this.call("POST", "/phone", json({ phone_number: phoneNumber, locale })).then(normalPhone);
  }
  phoneCheck(code: string): Promise<{ verified: boolean; attempts_left: number; settled: boolean }> {
    return this.call("POST", "/phone/verify", json({ code })).then((d) => ({
      verified: !!d.verified,
      attempts_left: Number(d.attempts_left) || 0,
      settled: !!d.settled,
    }));
  }
  submit(): Promise<{ status: string }> {
    return this.call("POST", "/submit") as Promise<{ status: string }>;
  }
  review(): Promise<{ status: string }> {
    return this.call("POST", "/review") as Promise<{ status: string }>;
  }
  decline(): Promise<{ status: string }> {
    return this.call("POST", "/decline-review") as Promise<{ status: string }>;
  }
  testComplete(pick: Record<string, string>): Promise<{ status: string }> {
    return this.call("POST", "/test/complete", json(pick)) as Promise<{ status: string }>;
  }

  // upload POSTs a form as call does, through XMLHttpRequest, whose
  // upload reports its progress (fetch reports none, and streams a body
  // only over HTTP/2). Unlike call's fetch it cannot leave out this
  // origin's cookies (a dashboard session in the same browser rides
  // along); the flow's endpoints read none.
  private upload(path: string, body: FormData, progress?: Progress): Promise<any> {
    return new Promise((resolve, reject) => {
      const x = new XMLHttpRequest();
      x.open("POST", this.base + path);
      x.setRequestHeader("Accept", "application/json");
      if (progress) x.upload.onprogress = (ev) => ev.lengthComputable && progress(ev.loaded, ev.total);
      x.onerror = x.ontimeout = x.onabort = () => reject(new NetworkError("network"));
      x.onload = () => {
        let data: any = null;
        try {
          data = JSON.parse(x.responseText);
        } catch {
          // As call: an answer that is not JSON is handled by status.
        }
        try {
          resolve(answerOf(x.status, data, x.getResponseHeader("Retry-After")));
        } catch (e) {
          reject(e);
        }
      };
      x.send(body);
    });
  }

  private async call(method: string, path: string, body?: Blob | FormData): Promise<any> {
    let r: Response;
    try {
      r = await fetch(this.base + path, {
        method,
        body,
        credentials: "omit",
        cache: "no-store",
        headers: body instanceof Blob ? { "Content-Type": body.type || "image/jpeg", Accept: "application/json" } : { Accept: "application/json" },
      });
    } catch {
      throw new NetworkError("network");
    }
    let data: any = null;
    try {
      data = await r.json();
    } catch {
      // An answer that is not JSON (a proxy's error page) is handled by status.
    }
    return answerOf(r.status, data, r.headers.get("Retry-After"));
  }
}

// Progress hears how many bytes of an upload are sent, of total.
export type Progress = (sent: number, total: number) => void;

// answerOf is an answer's data, or its error as an APIError.
function answerOf(status: number, data: any, retryAfter: string | null): any {
  if (status < 200 || status > 299) {
    const e = (data && data.error) || {};
    const details: Detail[] = Array.isArray(e.details) ? e.details.filter((d: any) => d && typeof d.code === "string") : [];
    throw new APIError(status, String(e.code || ""), details, Number(retryAfter) || 0);
  }
  return data;
}

function normalSession(d: any): Session {
  const documents: DocumentKind[] = Array.isArray(d.documents) ? d.documents.filter((k: any) => kinds.includes(k)) : [];
  return {
    status: String(d.status || ""),
    steps: Array.isArray(d.steps) ? d.steps.map((s: any) => ({ name: s.name, done: !!s.done })) : [],
    // A server from before the kinds sends neither: the driver's license.
    documents: documents.length > 0 ? documents : ["drivers_license"],
    document: kinds.includes(d.document) ? d.document : "",
    message: typeof d.message === "string" ? d.message : "",
    requested_fields: Array.isArray(d.requested_fields) ? d.requested_fields.map(String) : [],
    front_barcode_match: !!d.front_barcode_match,
    address_verification: !!d.address_verification,
    location_consistency: !!d.location_consistency,
    expires_at: String(d.expires_at || ""),
    review_available: !!d.review_available,
    liveness_attempts_left: Number(d.liveness_attempts_left) || 0,
    phone: d.phone ? normalPhone(d.phone) : undefined,
    livemode: d.livemode !== false,
    unreachable_link_host: typeof d.unreachable_link_host === "string" ? d.unreachable_link_host : "",
    site_origin: typeof d.site_origin === "string" ? d.site_origin : "",
  };
}

function normalPhone(d: any): PhoneState {
  return {
    code_sent: !!d.code_sent,
    verified: !!d.verified,
    failed: !!d.failed,
    number: typeof d.number === "string" ? d.number : "",
    sends_left: Number(d.sends_left) || 0,
    attempts_left: Number(d.attempts_left) || 0,
    resend_in: Number(d.resend_in) || 0,
    expires_in: Number(d.expires_in) || 0,
  };
}

// json is a JSON request body (call sends a Blob's type as Content-Type).
function json(v: unknown): Blob {
  return new Blob([JSON.stringify(v)], { type: "application/json" });
}

function normalChallenge(d: any): Challenge {
  const b = d.frame_budget || {};
  return {
    challenge_id: String(d.challenge_id),
    steps: Array.isArray(d.steps) ? d.steps.map(String) : [],
    budget: {
      min: Number(b.min_frames) || 10,
      max: Number(b.max_frames) || 90,
      width: Number(b.max_width) || 480,
      height: Number(b.max_height) || 480,
      fps: Number(b.fps) || 15,
      maxBytes: Number(b.max_frame_bytes) || 0,
    },
    expires_in: Number(d.expires_in) || 120,
    step_timeout_ms: Number(d.step_timeout_ms) || 8000,
    attempts_left: Number(d.attempts_left) || 0,
    guide: normalGuide(d.guide || {}),
  };
}

function normalGuide(g: any): Guide {
  const out = { ...defaultGuide };
  // 0 is a value (straight_ahead_seed_ms: 0 counts every frame); a
  // missing or malformed one keeps the default.
  for (const k of Object.keys(out) as (keyof Guide)[]) if (typeof g[k] === "number" && g[k] >= 0) out[k] = g[k];
  return out;
}

function normalAnswer(d: any): LivenessAnswer {
  return {
    passed: !!d.passed,
    steps: Array.isArray(d.steps) ? d.steps : [],
    failures: Array.isArray(d.failures) ? d.failures.map(String) : [],
    attempts_left: Number(d.attempts_left) || 0,
  };
}
