// The format of ZAP_MODEL_PRICES, parsed with the rest of the environment: base
// prices over the shipped defaults, before any admin price (lib/pricing). Pure and browser-safe.
export interface ModelPrice {
  /** US dollars per million input tokens. */
  input: number;
  /** US dollars per million output tokens. */
  output: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

const ENTRY = /^([A-Za-z0-9_./:-]+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/;

/**
 * Parses `model=input/output` entries separated by commas, e.g.
 * `openai/gpt-4o=2.5/10,anthropic/claude-sonnet-4=3/15`; returns the bad entry on failure.
 */
export function parsePriceTable(text: string): { ok: true; table: PriceTable } | { ok: false; entry: string } {
  const table: Record<string, ModelPrice> = {};
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const match = ENTRY.exec(entry);
    if (!match) return { ok: false, entry };
    table[match[1] ?? ""] = { input: Number(match[2]), output: Number(match[3]) };
  }
  return { ok: true, table };
}
