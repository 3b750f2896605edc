// A search result's snippet: a window of the matched text around the first
// matched term, as plain-text parts with the terms flagged. Computed here, not
// by the database (FTS5's snippet() and ts_headline differ and return markup);
// the parts are rendered as text, so the run's own words never become HTML.
import { foldWord, searchTerms, type SnippetPart } from "./schemas";

const WORD = /[\p{L}\p{N}]+/gu;

/** Parts of `text` around its first matched term, at most about `width` characters, the terms flagged. */
export function snippetParts(text: string, query: string, width = 160): SnippetPart[] {
  const terms = new Set(searchTerms(query).map(foldWord));
  const flat = text.replace(/\s+/g, " ").trim();
  const words = [...flat.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length, hit: terms.has(foldWord(m[0].normalize("NFKC"))) }));
  const first = words.find((w) => w.hit);
  const from = first ? Math.max(0, Math.min(first.start - Math.floor(width / 3), flat.length - width)) : 0;
  const to = Math.min(flat.length, from + width);
  const parts: SnippetPart[] = [];
  const push = (piece: string, hit: boolean) => {
    if (!piece) return;
    const last = parts.at(-1);
    if (last && last.hit === hit) last.text += piece;
    else parts.push({ text: piece, hit });
  };
  if (from > 0) push("…", false);
  let at = from;
  for (const w of words) {
    if (w.end <= from || w.start >= to) continue;
    if (!w.hit) continue;
    push(flat.slice(at, Math.max(at, w.start)), false);
    push(flat.slice(Math.max(at, w.start), Math.min(to, w.end)), true);
    at = Math.min(to, w.end);
  }
  push(flat.slice(at, to), false);
  if (to < flat.length) push("…", false);
  return parts;
}
