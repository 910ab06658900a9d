// The phone step (links that ask for phone verification): the number,
// then the six-digit code sent to it by text message, with a resend after
// the server's wait and a way back to change the number. The server holds
// the limits; this page shows what it says. A step settled without a
// confirmed number says so and lets the person finish. On a test link
// (docs/test-mode.md) the same screens run on the server's test provider, and say
// that the code is 000000 and nothing is sent.
import { APIError, type PhoneState } from "./api";
import type { App } from "./app";
import { button, h, spinner } from "./dom";
import { currentLang, has, t } from "./i18n";

export function phone(app: App, done: () => void): void {
  const p = app.session.phone;
  if (p && (p.verified || p.failed)) return p.verified ? done() : failed(app, done);
  if (p && p.code_sent) return code(app, p, done);
  number(app, done);
}

// problems is an alert listing the server's 422 details in the table's words.
function problems(title: string, e: APIError): HTMLElement {
  const items = e.details.length > 0 ? e.details : [{ code: "", message: "" }];
  return h(
    "div",
    { class: "alert", role: "alert" },
    h("h2", null, title),
    h("ul", { class: "problems" }, ...items.map((d) => h("li", null, has("problem." + d.code) ? t(("problem." + d.code) as any) : d.message || t("error.generic")))),
  );
}

function number(app: App, done: () => void): void {
  // A phone number and a code read left to right in every language: in
  // Arabic the bidirectional algorithm would move a leading "+" to the end.
  const input = h("input", { id: "phone-number", type: "tel", inputmode: "tel", autocomplete: "tel", maxlength: "40", dir: "ltr", "aria-describedby": "phone-help" });
  const status = h("div", { class: "status", "aria-live": "polite" });
  const send = h("button", { type: "submit" }, t("phone.send"));
  const actions = h("div", { class: "actions" }, send);
  const form = h(
    "form",
    { class: "field", novalidate: true },
    h("label", { for: "phone-number" }, t("phone.label")),
    input,
    h("p", { id: "phone-help", class: "note" }, t("phone.help")),
    status,
    actions,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const value = input.value.trim();
    if (!value) {
      // Said, not only focused: a focus alone reads as nothing happening.
      say(status, actions, h("p", { class: "alert", role: "alert" }, t("phone.empty")));
      input.setAttribute("aria-invalid", "true");
      input.focus({ preventScroll: true });
      return;
    }
    send.disabled = true;
    status.replaceChildren(spinner(t("phone.sending")));
    let s: PhoneState;
    try {
      s = await app.api.phoneSend(value, currentLang());
    } catch (e) {
      send.disabled = false;
      if (e instanceof APIError && e.status === 422) {
        say(status, actions, problems(t("phone.retry"), e));
        input.setAttribute("aria-invalid", "true");
        input.focus({ preventScroll: true });
        return;
      }
      if (e instanceof APIError && e.status === 409) return reload(app, done);
      if (e instanceof APIError && e.status === 503) {
        // The code could not be sent (the SMS provider is down, or the
        // server busy): the number stays, and the person sends again when
        // ready, or with another number. app.fail's busy screen would
        // drop what they typed and, after its countdown, only show this
        // form again, not send.
        const n = Math.min(Math.max(e.retryAfter || 30, 1), 300);
        say(status, actions, h("p", { class: "err", role: "alert" }, t("phone.unavailable", { n })));
        input.removeAttribute("aria-invalid");
        input.focus({ preventScroll: true });
        return;
      }
      app.fail(e, () => number(app, done));
      return;
    }
    sessionNumber = value;
    app.session.phone = s;
    code(app, s, done);
  });
  app.show("phone", t("phone.title"), h("p", null, t("phone.hint")), testHint(app), form);
}

function code(app: App, s: PhoneState, done: () => void): void {
  const input = h("input", { id: "phone-code", type: "text", inputmode: "numeric", autocomplete: "one-time-code", maxlength: "12", dir: "ltr", "aria-describedby": "code-sent" });
  const status = h("div", { class: "status", "aria-live": "polite" });
  const check = h("button", { type: "submit" }, t("code.check"));
  const checkActions = h("div", { class: "actions" }, check);
  const resend = button(t("code.resend"), () => void again(), "sec");
  // Not a live region: it counts down every second.
  const wait = h("p", { class: "note" });
  const change = button(t("code.change"), () => number(app, done), "sec");
  let timer = 0;
  let left = s.resend_in;
  const tick = () => {
    clearTimeout(timer);
    if (app.session.phone && app.session.phone.sends_left <= 0) {
      resend.hidden = true;
      change.hidden = true;
      wait.textContent = t("code.resend.none");
      return;
    }
    resend.disabled = left > 0;
    wait.textContent = left > 0 ? t("code.resend.wait", { n: left }) : "";
    if (left > 0) {
      left--;
      timer = window.setTimeout(tick, 1000);
    }
  };
  const form = h(
    "form",
    { class: "field", novalidate: true },
    h("label", { for: "phone-code" }, t("code.label")),
    input,
    status,
    checkActions,
  );
  const again = async () => {
    resend.disabled = true;
    status.replaceChildren(spinner(t("phone.sending")));
    try {
      const n = sessionNumber;
      const next = n ? await app.api.phoneSend(n, currentLang()) : null;
      if (!next) return number(app, done);
      app.session.phone = next;
      left = next.resend_in;
      status.replaceChildren(h("p", null, t("code.sent", { number: next.number, minutes: Math.round(next.expires_in / 60) })));
      tick();
    } catch (e) {
      if (e instanceof APIError && e.status === 429 && e.retryAfter > 0) {
        left = e.retryAfter;
        status.replaceChildren();
        tick();
        return;
      }
      if (e instanceof APIError && e.status === 429) {
        app.session.phone = { ...s, sends_left: 0 };
        status.replaceChildren();
        tick();
        return;
      }
      clearTimeout(timer);
      app.fail(e, () => code(app, s, done));
    }
  };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    check.disabled = true;
    status.replaceChildren(spinner(t("code.checking")));
    let r: { verified: boolean; attempts_left: number; settled: boolean };
    try {
      r = await app.api.phoneCheck(input.value);
    } catch (e) {
      check.disabled = false;
      if (e instanceof APIError && e.status === 422) {
        say(status, checkActions, problems(t("code.retry"), e));
        input.focus({ preventScroll: true });
        return;
      }
      if (e instanceof APIError && e.status === 409) {
        say(status, checkActions, h("p", { class: "err", role: "alert" }, t("code.expired")));
        return;
      }
      clearTimeout(timer);
      app.fail(e, () => code(app, s, done));
      return;
    }
    if (r.verified || r.settled) {
      clearTimeout(timer);
      // Kept for what comes next (the test page names the step's result).
      app.session.phone = { ...(app.session.phone || s), verified: r.verified, failed: !r.verified };
      return r.verified ? done() : failed(app, done);
    }
    check.disabled = false;
    input.value = "";
    input.setAttribute("aria-invalid", "true");
    say(status, checkActions, h("p", { class: "err", role: "alert" }, t("code.wrong", { n: r.attempts_left })));
    input.focus({ preventScroll: true });
  });
  app.show(
    "phone-code",
    t("code.title"),
    h("p", { id: "code-sent" }, t("code.sent", { number: s.number, minutes: Math.max(1, Math.round(s.expires_in / 60)) })),
    testHint(app),
    form,
    h("div", { class: "actions" }, resend, change),
    wait,
  );
  tick();
  input.focus();
}

// say shows what went wrong above the form's button and brings the button
// back into view: on a 360×640 phone the reasons (and the keyboard) pushed
// it below the screen, with nothing scrolling it back (the license screens
// do the same).
function say(status: HTMLElement, actions: HTMLElement, what: Node): void {
  status.replaceChildren(what);
  actions.scrollIntoView({ block: "nearest" });
}

// testHint tells a tester on a test link's phone screens that no text
// message goes out and the code is always 000000 (phone.TestProvider), so
// nobody waits for an SMS; a live link has none.
function testHint(app: App): HTMLElement | false {
  return !app.session.livemode && h("p", { class: "testhint", role: "note" }, t("test.phone.hint"));
}

// sessionNumber is the number last sent to in this page (never stored):
// a resend needs it, and after a reload the person types it again.
let sessionNumber = "";

function failed(app: App, done: () => void): void {
  app.show("phone-failed", t("phone.failed.title"), h("p", null, t("phone.failed.body")), h("div", { class: "actions" }, button(t("phone.continue"), done)));
}

// reload refreshes the session after a 409 (the step changed elsewhere,
// another tab say) and goes on from what the server says.
function reload(app: App, done: () => void): void {
  void app.api.session().then(
    (s) => {
      app.session = s;
      phone(app, done);
    },
    (e) => app.fail(e, () => reload(app, done)),
  );
}
