// Byte limits of what people send (browser-safe: the forms and the routes share
// them). A character limit alone lets 20,000 four-byte characters through as
// 80 KB, and a JSON object has no characters to count, so sizes are in bytes.
import { z } from "zod";

export const KIB = 1024;
/** A run's context, serialized as JSON. */
export const CONTEXT_MAX_BYTES = 64 * KIB;
/** A task or a follow-up message, as UTF-8. */
export const MESSAGE_MAX_BYTES = 64 * KIB;
export const MESSAGE_MAX_CHARS = 20_000;
/** Arguments an approver edits, serialized as JSON. */
export const ARGUMENTS_MAX_BYTES = 64 * KIB;
export const REASON_MAX_CHARS = 2_000;

const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

function describe(bytes: number): string {
  return bytes % KIB === 0 ? `${bytes / KIB} KiB` : `${bytes.toLocaleString("en")} bytes`;
}

/** Trimmed, non-empty text of at most `maxChars` characters and `maxBytes` UTF-8 bytes. */
export function boundedText(what: string, emptyMessage: string, maxChars = MESSAGE_MAX_CHARS, maxBytes = MESSAGE_MAX_BYTES) {
  return z
    .string()
    .trim()
    .min(1, emptyMessage)
    .max(maxChars, `keep the ${what} under ${maxChars.toLocaleString("en")} characters`)
    .refine((text) => utf8Bytes(text) <= maxBytes, `keep the ${what} under ${describe(maxBytes)} (UTF-8)`);
}

/** A JSON object (string keys) whose serialized form is at most `maxBytes`. */
export function boundedJsonObject(what: string, maxBytes: number) {
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const bytes = utf8Bytes(JSON.stringify(value));
    if (bytes > maxBytes) ctx.addIssue({ code: "custom", message: `the ${what} is ${bytes.toLocaleString("en")} bytes as JSON; the limit is ${describe(maxBytes)}` });
  });
}
