// The seam between the pages and the browser decryption: Requests shows
// unlockPanel for sealed results, the review queue for review images sealed
// to the account's key. The panel lives with the decryption in
// src/crypto/panel.ts (its API is at the top of src/crypto/index.ts).
export { unlockPanel, type Opened } from "./crypto/panel";
