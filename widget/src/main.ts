// idgate footer script: shows a "Verified" badge or a "Verify ID" button on
// the storefront, optionally holding checkout until verified. Installed as
// <script src="https://PROXY/widget/v1/idgate.js?store=HASH&client=APP_CLIENT_ID">.
// Bundled as an IIFE: it defines no globals and runs once per page even if
// the script is included twice.
import { carry, cartId, customerToken, orderCartId, orderOnPage, HTTPError, start, status, type QRCode, type Status, type Target } from "./api";
import { CheckoutHold } from "./checkout";
import { forgetGuestCart, guestCart, rememberGuestCart } from "./remember";
import { dir, mergeStrings, pickLang } from "./strings";
import { View, type Mode } from "./view";

const MARK = "data-idgate-widget";
// Polling: fast right after a state change or a click, slowing down to a
// ceiling so an idle tab costs little.
const POLL_FIRST = 1500;
const POLL_FACTOR = 1.5;
const POLL_MAX = 30000;

function target(): Target | null {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script || !script.src) return null;
  const u = new URL(script.src);
  const store = u.searchParams.get("store") ?? "";
  if (!/^[a-z0-9]{1,64}$/.test(store)) return null;
  return { proxy: u.origin, store, clientId: u.searchParams.get("client") ?? "" };
}

function mount(view: View): void {
  const anchor = document.querySelector("[data-idgate-mount]") ?? document.querySelector(".cart-actions");
  if (anchor && anchor.parentNode) anchor.parentNode.insertBefore(view.host, anchor);
  else document.body.append(view.host);
}

async function run(t: Target): Promise<void> {
  const cfg = (window as unknown as { idgateWidgetConfig?: { strings?: unknown; lang?: unknown } }).idgateWidgetConfig;
  const lang = pickLang([typeof cfg?.lang === "string" ? cfg.lang : "", document.documentElement.lang, ...(navigator.languages || [])]);
  const hold = new CheckoutHold(document);
  let mode: Mode = "loading";
  let link: string | undefined;
  let qr: QRCode | undefined;
  let holding = false;
  let inactive = false;
  let cart: string | null = null;
  let order = ""; // the order confirmation page's order
  let orderHeld = false;
  let token = "";
  let lastID: string | undefined;
  let staleID: string | undefined;
  let delay = POLL_FIRST;
  let timer: number | undefined;

  const view = new View(document, mergeStrings(lang, cfg?.strings), () => void verify());
  view.host.lang = lang;
  view.host.dir = dir(lang);
  mount(view);
  // The confirmation page has no checkout to hold; it says instead whether
  // the order waits for the verification.
  const draw = (): void =>
    view.render({ mode, hold: holding && mode !== "verified" && !order, orderHeld: orderHeld && mode !== "verified", link, qr });

  // apply renders a status. While a verification we started is pending,
  // the outcome that was there before it (staleID) does not count.
  const apply = (s: Status): void => {
    // An inline style, not the hidden attribute: the shadow root's :host
    // rule (display: block) would win over the browser's [hidden].
    inactive = !s.active;
    const hidden = inactive || !s.required;
    view.host.style.display = hidden ? "none" : "";
    if (hidden) {
      hold.set(false, []);
      return;
    }
    const prev = mode;
    const waiting = mode === "pending" && (s.state === "unverified" || s.verification_id === staleID);
    if (s.verified) mode = "verified";
    else if (!waiting) mode = s.state === "failed" ? "failed" : s.state === "expired" ? "expired" : "unverified";
    if (mode !== "pending") link = qr = undefined;
    if (s.verified && !s.customer && cart) rememberGuestCart(t.store, cart);
    lastID = s.verification_id;
    holding = s.hold_checkout;
    orderHeld = s.order_held === true;
    hold.set(s.hold_checkout && !s.verified, s.checkout_selectors ?? []);
    if (mode !== prev) delay = POLL_FIRST;
    draw();
  };

  const poll = async (): Promise<void> => {
    timer = undefined;
    if (!cart) return;
    try {
      apply(await status(t, cart, token, order));
    } catch (e) {
      // The Current Customer JWT lives minutes: fetch a fresh one.
      if (e instanceof HTTPError && e.status === 401) token = await customerToken(t).catch(() => "");
      if (mode === "loading") {
        mode = "error";
        draw();
      }
    }
    if (mode === "verified" || inactive) return;
    timer = window.setTimeout(() => void poll(), delay);
    delay = Math.min(delay * POLL_FACTOR, POLL_MAX);
  };

  const pollSoon = (): void => {
    if (timer !== undefined) window.clearTimeout(timer);
    delay = POLL_FIRST;
    void poll();
  };

  const verify = async (): Promise<void> => {
    if (!cart) return;
    try {
      const v = await start(t, cart, token);
      mode = "pending";
      staleID = lastID;
      if (window.matchMedia("(pointer: coarse)").matches) {
        // Phones scan the ID in this tab. The fragment (never sent to a
        // server) names this site, so the verification's Done page can
        // offer "Back to" it even when this page sends no Referer; that
        // page believes it only for the origin the verification was
        // created from (the Origin of our start request).
        window.location.assign(v.url + "#from=" + encodeURIComponent(location.origin));
        return;
      }
      link = v.url;
      qr = v.qr;
      draw();
      pollSoon();
    } catch {
      mode = "error";
      draw();
    }
  };

  draw();
  try {
    [cart, token] = await Promise.all([cartId(), customerToken(t)]);
    // No cart: on the order confirmation page, the order's.
    if (!cart) {
      order = orderOnPage();
      cart = order ? await orderCartId(order) : null;
    }
  } catch {
    cart = null;
  }
  if (token) await carryGuestCart(t, token);
  if (!cart) {
    view.host.remove(); // no cart, nothing to check out
    return;
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && mode !== "verified") pollSoon();
  });
  await poll();
}

// carryGuestCart sends a cart this browser saw verified as a guest, now
// that the shopper is logged in, so their account takes the verification
// before the status is read. Any answer is final for that cart (forgotten);
// a refused token, a limit or a failure leaves it for the next page.
async function carryGuestCart(t: Target, token: string): Promise<void> {
  const remembered = guestCart(t.store);
  if (!remembered) return;
  try {
    await carry(t, remembered, token);
    forgetGuestCart(t.store);
  } catch (e) {
    if (e instanceof HTTPError && e.status !== 401 && e.status !== 429 && e.status < 500) forgetGuestCart(t.store);
  }
}

if (!document.querySelector("[" + MARK + "]")) {
  const t = target();
  if (t) void run(t);
}
