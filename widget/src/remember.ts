// The cart a shopper verified as a guest, kept in the storefront's own
// localStorage so that an account they make later (after the order, or on
// another visit) can take the verification: once a Current Customer JWT
// proves a login, the widget sends this cart to the proxy (carry), which
// carries a guest's verification to one account only. Only the cart's ID
// is kept, which the storefront's cookie holds anyway. Storage that
// throws (a private window, a blocked origin) simply remembers nothing.

const KEY = "idgate:guest-cart:";

export function rememberGuestCart(store: string, cart: string): void {
  try {
    localStorage.setItem(KEY + store, cart);
  } catch {
    // nothing kept: the account made later verifies again
  }
}

export function guestCart(store: string): string | null {
  try {
    const v = localStorage.getItem(KEY + store);
    return v && /^[0-9a-f-]{36}$/.test(v) ? v : null;
  } catch {
    return null;
  }
}

export function forgetGuestCart(store: string): void {
  try {
    localStorage.removeItem(KEY + store);
  } catch {
    // nothing to forget
  }
}
