// The pages build their screens with the DOM builder they share with the
// dashboard (internal/bundle/shared/dom.ts); spinner is its busy.
export { button, busy as spinner, h } from "@idgate/dom";
