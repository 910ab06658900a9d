// The JSON API as the dashboard calls it: the same endpoints as a bearer
// client, authenticated by the HttpOnly session cookie the browser sends
// itself (same origin only), with the session's CSRF token in X-CSRF-Token
// on every method that changes state and the session's mode (live or test)
// in Idgate-Mode on every call: the server refuses a call naming the other
// mode (409), so a tab never shows one mode's data under the other's
// banner. Errors arrive in the one error format and are thrown as ApiError.

export interface Detail { field: string; code: string; message: string }

export class ApiError extends Error {
  constructor(public status: number, public code: string, message: string, public details: Detail[] = []) {
    super(message);
  }
}

export interface Session {
  account_id: string;
  email: string;
  csrf_token: string;
  expires_at: string;
  idle_timeout: number;
  mode: Mode;
}

// Mode is the data a session works on (PATCH /dashboard/session).
export type Mode = "live" | "test";

let csrf = "";
let mode: Mode = "live";
let onSignedOut: () => void = () => {};
let onModeChanged: (m: Mode) => void = () => {};

// setSession keeps the CSRF token and the mode of the session the page is
// in.
export function setSession(s: Session | null): void {
  csrf = s ? s.csrf_token : "";
  mode = s ? s.mode : "live";
}

// whenSignedOut is called when any call finds the session gone (401).
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

// whenModeChanged is called when an answer says the session is in another
// mode than the page shows (switched in another tab).
export function whenModeChanged(fn: (m: Mode) => void): void {
  onModeChanged = fn;
}

export interface CallOptions {
  body?: unknown;
  signal?: AbortSignal;
  // raw returns the Response itself (images, sealed documents) instead of
  // parsing JSON.
  raw?: boolean;
  // blob is a body sent as it is, with its own type (a logo upload).
  blob?: Blob;
}

async function send(method: string, path: string, o: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json", "Idgate-Mode": mode };
  if (o.body !== undefined) headers["Content-Type"] = "application/json";
  if (o.blob) headers["Content-Type"] = o.blob.type || "application/octet-stream";
  if (method !== "GET" && method !== "HEAD") headers["X-CSRF-Token"] = csrf;
  const r = await fetch(path, {
    method, headers, credentials: "same-origin", cache: "no-store", signal: o.signal,
    body: o.blob ?? (o.body === undefined ? undefined : JSON.stringify(o.body)),
  });
  const answered = r.headers.get("Idgate-Mode");
  // The session endpoints say the mode themselves (the switch reads it
  // from PATCH's answer); any other answer in another mode means another
  // tab switched the session.
  if (csrf && path !== "/dashboard/session" && (answered === "live" || answered === "test") && answered !== mode) onModeChanged(answered);
  if (!r.ok) {
    let code = "HTTP_" + r.status, message = r.statusText || "request failed", details: Detail[] = [];
    try {
      const e = (await r.json()).error;
      if (e) { code = e.code; message = e.message; details = e.details || []; }
    } catch { /* not the error format */ }
    if (r.status === 401 && path !== "/dashboard/session") onSignedOut();
    throw new ApiError(r.status, code, message, details);
  }
  return r;
}

// call sends one request and returns the JSON answer (undefined for 204).
export async function call<T>(method: string, path: string, o: CallOptions = {}): Promise<T> {
  const r = await send(method, path, o);
  if (r.status === 204) return undefined as T;
  return (await r.json()) as T;
}

// fetchRaw sends a GET and returns the Response (for binary answers).
export function fetchRaw(path: string, signal?: AbortSignal): Promise<Response> {
  return send("GET", path, { signal });
}

// q builds a query string from the set members of params.
export function q(params: Record<string, string | number | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") u.set(k, String(v));
  const s = u.toString();
  return s ? "?" + s : "";
}

// describe turns an error into one sentence for the page.
export function describe(e: unknown): string {
  if (e instanceof ApiError) {
    const parts = e.details.map((d) => (d.field ? d.field + ": " : "") + d.message);
    return parts.length ? e.message + " — " + parts.join("; ") : e.message;
  }
  return e instanceof Error ? e.message : String(e);
}
