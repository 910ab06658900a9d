// Talks to the storefront (same origin) and to the idgate proxy (CORS).
// Nothing here ever holds the store's API token: the storefront calls use
// the shopper's own session, the proxy calls carry only the cart ID and
// the storefront-issued Current Customer JWT.

export interface Reason {
  code: string;
  field?: string;
}

export interface Status {
  state: "unverified" | "verified" | "failed" | "expired";
  verified: boolean;
  verification_id?: string;
  reasons: Reason[];
  hold_checkout: boolean;
  checkout_selectors: string[];
  // false while the store is not set up: show nothing, hold nothing.
  active: boolean;
  // false when this cart needs no verification (its total is under the
  // store's trigger): show nothing, hold nothing, and ask again, since the
  // cart may grow.
  required: boolean;
  // true on the order confirmation page while the order guard holds the
  // order for this cart's verification.
  order_held: boolean;
  // true when a logged-in customer was proven: a verified status without
  // it is a guest's, which the widget remembers (remember.ts).
  customer: boolean;
}

// Carried answers carry: whether the account now holds the guest's
// verification, and when not, why (final either way).
export interface Carried {
  carried: boolean;
  reason?: "not_chosen" | "none" | "elsewhere" | "older";
}

// QRCode is the link drawn by the proxy (internal/qr): a size×size grid,
// quiet zone included, and SVG path data of its dark modules.
export interface QRCode {
  size: number;
  path: string;
}

export interface Started {
  id: string;
  url: string;
  qr?: QRCode; // absent when the link does not fit a code
}

// HTTPError is a non-2xx answer from the proxy.
export class HTTPError extends Error {
  constructor(readonly status: number) {
    super("HTTP " + status);
  }
}

export interface Target {
  proxy: string; // origin of the proxy, from the script's own src
  store: string; // store hash
  clientId: string; // app client ID, for /customer/current.jwt
}

// cartId reads the shopper's cart: the first one the storefront returns.
export async function cartId(): Promise<string | null> {
  const r = await fetch("/api/storefront/carts", { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!r.ok) return null;
  const carts = (await r.json()) as { id?: string }[];
  return Array.isArray(carts) && carts.length > 0 && typeof carts[0].id === "string" ? carts[0].id : null;
}

// orderOnPage is the order the order confirmation page shows, from the
// app's order script (data-idgate-order, BigCommerce's
// {{checkout.order.id}}); "" on every other page.
export function orderOnPage(): string {
  const id = document.querySelector("script[data-idgate-order]")?.getAttribute("data-idgate-order") ?? "";
  return /^[1-9][0-9]{0,15}$/.test(id) ? id : "";
}

// orderCartId reads the cart the order just placed converted: the
// storefront's Get Order (/api/storefront/orders/{id}, the shopper's own
// order only) names it. The shopper verifies that cart after the order,
// and the proxy settles the order it became.
export async function orderCartId(order: string): Promise<string | null> {
  const r = await fetch("/api/storefront/orders/" + order, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!r.ok) return null;
  const o = (await r.json()) as { cartId?: unknown };
  return typeof o.cartId === "string" && o.cartId !== "" ? o.cartId : null;
}

// customerToken fetches the Current Customer JWT; guests get none (the
// storefront answers non-200).
export async function customerToken(t: Target): Promise<string> {
  if (!t.clientId) return "";
  const r = await fetch("/customer/current.jwt?app_client_id=" + encodeURIComponent(t.clientId), { credentials: "same-origin" });
  if (!r.ok) return "";
  const body = (await r.text()).trim();
  // Themes answer either the bare token or {"token": "..."}.
  if (body.startsWith("{")) {
    const v = (JSON.parse(body) as { token?: unknown }).token;
    return typeof v === "string" ? v : "";
  }
  return body;
}

function base(t: Target): string {
  return t.proxy + "/proxy/v1/stores/" + encodeURIComponent(t.store);
}

function headers(token: string): Record<string, string> {
  const h: Record<string, string> = { Accept: "application/json" };
  if (token) h["Idgate-Customer-Token"] = token;
  return h;
}

// status asks for the shopper's state; on the order confirmation page it
// names the order too, and the answer says whether the order waits for
// the verification (order_held).
export async function status(t: Target, cart: string, token: string, order: string): Promise<Status> {
  const q = "?cart_id=" + encodeURIComponent(cart) + (order ? "&order_id=" + order : "");
  const r = await fetch(base(t) + "/status" + q, {
    mode: "cors", credentials: "omit", headers: headers(token),
  });
  if (!r.ok) throw new HTTPError(r.status);
  return (await r.json()) as Status;
}

export async function start(t: Target, cart: string, token: string): Promise<Started> {
  const h = headers(token);
  h["Content-Type"] = "application/json";
  const r = await fetch(base(t) + "/verifications", {
    method: "POST", mode: "cors", credentials: "omit", headers: h,
    body: JSON.stringify({ cart_id: cart }),
  });
  if (!r.ok) throw new HTTPError(r.status);
  return (await r.json()) as Started;
}

// carry asks the proxy to carry the verification a guest made on cart to
// the account the token proves (proxy.CarryGuest).
export async function carry(t: Target, cart: string, token: string): Promise<Carried> {
  const h = headers(token);
  h["Content-Type"] = "application/json";
  const r = await fetch(base(t) + "/carry", {
    method: "POST", mode: "cors", credentials: "omit", headers: h,
    body: JSON.stringify({ cart_id: cart }),
  });
  if (!r.ok) throw new HTTPError(r.status);
  return (await r.json()) as Carried;
}
