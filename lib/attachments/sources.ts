// Where an image's bytes come from besides an upload: inline base64 and a URL
// the server fetches for the user. A URL goes through the one egress guard
// (lib/net/egress.ts), so a task cannot make the server read loopback, private
// networks or cloud metadata; its reply is capped at 10 MB while it streams.
// Node code (no `server-only`).
import { AppError } from "../errors";
import { EgressRefusedError, createGuardedFetch } from "../net/egress";
import { imageTooLarge, invalidImage } from "./image";
import { IMAGE_MAX_BYTES } from "./schemas";

/** How long fetching one image by URL may take, redirects and body included. */
export const IMAGE_FETCH_TIMEOUT_MS = 10_000;
/** Redirects followed for an image URL (each one checked again by the guard). */
export const IMAGE_FETCH_MAX_REDIRECTS = 3;

// `data:<anything>;base64,`: the declared type is ignored, the bytes decide.
const DATA_URL_PREFIX = /^data:[^,;]*(?:;[^,;]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes base64 (line breaks allowed, a `data:…;base64,` prefix optional); anything else is a 422 naming `field`. */
export function decodeBase64Image(data: string, field: string): Uint8Array {
  const text = data.trim().replace(DATA_URL_PREFIX, "").replace(/\s+/g, "");
  if (text.length === 0) throw invalidImage(field, "The image is empty");
  if (!BASE64.test(text) || text.length % 4 === 1) throw invalidImage(field, "The image is not valid base64 (optionally after a data:image/…;base64, prefix)");
  return new Uint8Array(Buffer.from(text, "base64"));
}

export interface FetchImageOptions {
  /** Hosts that may resolve to private addresses (ZAP_EGRESS_ALLOW_HOSTS); default none. */
  allowHosts?: string[];
  /** Overrides the guarded fetch (tests); it must enforce the guard itself. */
  fetch?: typeof fetch;
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** Reads a body up to IMAGE_MAX_BYTES, cancelling it the moment it grows past that (413). */
async function readCapped(response: Response, field: string): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > IMAGE_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw imageTooLarge(field, null);
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

/**
 * Fetches an image for the user through the egress guard: public addresses only
 * (or allow-listed hosts), 10 s in all, at most 10 MB (by Content-Length at once,
 * else while streaming). Refusals, failures and non-2xx replies are a 422 naming
 * `field`; the messages never echo the reply or an address.
 */
export async function fetchImageBytes(url: string, field: string, options: FetchImageOptions = {}): Promise<Uint8Array> {
  const guarded =
    options.fetch ??
    createGuardedFetch({
      allowHosts: options.allowHosts ?? [],
      timeoutMs: IMAGE_FETCH_TIMEOUT_MS,
      maxRedirects: IMAGE_FETCH_MAX_REDIRECTS,
      // Our own count stops at 10 MB; the guard's cap (decompressed bytes) is the backstop.
      maxResponseBytes: IMAGE_MAX_BYTES + 1024 * 1024,
    });
  try {
    const response = await guarded(url, { headers: { accept: "image/png, image/jpeg, image/webp, image/gif" } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw invalidImage(field, `That address answered HTTP ${response.status} instead of an image`);
    }
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > IMAGE_MAX_BYTES) {
      await response.body?.cancel().catch(() => undefined);
      throw imageTooLarge(field, declared);
    }
    return await readCapped(response, field);
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof EgressRefusedError) throw invalidImage(field, error.publicMessage);
    if (isTimeout(error)) throw invalidImage(field, `That address did not send the image within ${IMAGE_FETCH_TIMEOUT_MS / 1000} s`);
    throw invalidImage(field, "The image could not be fetched from that address");
  }
}
