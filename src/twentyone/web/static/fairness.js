// A provable table's fairness, checked in the browser: the page keeps every commitment it was
// shown before a shoe (in localStorage, so a reload keeps them too); when the shoe's server
// seed is revealed it hashes the seed itself (WebCrypto SHA-256) and compares it with the
// commitment it kept, not with the one the server sends along with the seed.

import { _ } from "./i18n.js";

const STORE = "twentyone.commitments";
const KEEP = 200; // commitments kept, the newest

function load() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || "{}") || {};
  } catch {
    return {};
  }
}

function save(seen) {
  const keys = Object.keys(seen);
  for (const key of keys.slice(0, Math.max(0, keys.length - KEEP))) delete seen[key];
  try {
    localStorage.setItem(STORE, JSON.stringify(seen));
  } catch {
    // private browsing without storage: the page still checks what it saw while open
  }
}

/** SHA-256 of the bytes a hex string spells, as hex. */
export async function sha256Hex(hex) {
  const bytes = new Uint8Array((hex.match(/../g) || []).map((b) => parseInt(b, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export class FairnessCheck {
  constructor(tableId) {
    this.tableId = tableId;
    this.seen = load();
    this.results = {}; // shoe key -> "match" | "mismatch" | "unseen"
  }

  /** Note the commitment of the coming shoe; check a revealed one (once). Resolves to what
   * to show, or null at a table that is not provable. */
  async update(provable) {
    if (!provable) return null;
    const key = `${this.tableId}:${provable.shoe}`;
    if (!(key in this.seen)) {
      this.seen[key] = provable.commitment;
      save(this.seen);
    }
    const shown = { shoe: provable.shoe, commitment: provable.commitment, revealed: null };
    const r = provable.revealed;
    if (!r) return shown;
    const rkey = `${this.tableId}:${r.shoe}`;
    if (this.results[rkey] === undefined) {
      const kept = this.seen[rkey];
      this.results[rkey] = kept ? ((await sha256Hex(r.server_seed)) === kept ? "match" : "mismatch") : "unseen";
    }
    shown.revealed = { shoe: r.shoe, result: this.results[rkey] };
    return shown;
  }
}

/** The line the table shows: the coming shoe's commitment, and the last revealed shoe's check. */
export function fairnessText(shown) {
  const parts = [_("Provable shoe {shoe}: commitment {commitment}", { shoe: shown.shoe, commitment: shown.commitment.slice(0, 16) + "\u2026" })];
  const r = shown.revealed;
  if (r && r.result === "match") parts.push(_("shoe {shoe}: the revealed seed matches the commitment shown before it \u2713", { shoe: r.shoe }));
  else if (r && r.result === "mismatch") parts.push(_("shoe {shoe}: the revealed seed does NOT match the commitment shown before it", { shoe: r.shoe }));
  else if (r) parts.push(_("shoe {shoe} was revealed; this page did not see its commitment before it", { shoe: r.shoe }));
  return parts.join(" \u00b7 ");
}
