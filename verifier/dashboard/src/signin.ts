// The sign-in form, shown whenever the page has no session.
import { ApiError, call, describe, type Session } from "./api";
import { field, h } from "./dom";

export function signIn(root: HTMLElement, why: string, done: (s: Session) => void): void {
  const email = h("input", { type: "email", name: "email", autocomplete: "username", required: true, spellcheck: "false" });
  const password = h("input", { type: "password", name: "password", autocomplete: "current-password", required: true });
  const submit = h("button", { type: "submit" }, "Sign in");
  const status = h("p", { class: "err", role: "alert", id: "signin-error" });
  const form = h("form", { class: "signin", novalidate: true },
    field("E-mail", email), field("Password", password), status, h("div", { class: "actions" }, submit));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    status.textContent = "";
    if (!email.value.trim() || !password.value) {
      status.textContent = "Enter your e-mail and password.";
      (email.value.trim() ? password : email).focus();
      return;
    }
    submit.disabled = true;
    try {
      const s = await call<Session>("POST", "/dashboard/session", { body: { email: email.value.trim(), password: password.value } });
      password.value = "";
      done(s);
    } catch (err) {
      status.textContent = err instanceof ApiError && err.status === 401 ? "Wrong e-mail or password." :
        err instanceof ApiError && err.status === 429 ? "Too many attempts. Wait a minute, then try again." : describe(err);
      submit.disabled = false;
      password.focus();
    }
  });
  const heading = h("h1", { tabindex: "-1" }, "Sign in to idgate");
  root.replaceChildren(h("main", { id: "main", class: "narrow" }, heading,
    why ? h("p", { class: "note", role: "status" }, why) : null, form));
  document.title = "Sign in · idgate dashboard";
  email.focus();
}
