// Where an image's bytes come from besides an upload: inline base64 and a URL
// the server fetches for the user. A URL goes through the one egress guard
// (lib/net/egress.ts), so a task cannot make the server read loopback, private
// networks or cloud metadata; its reply is capped at 10 MB while it streams.
// Node code (no `server-only`).
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

const TIMED_OUT = `That address did not send the image within ${IMAGE_FETCH_TIMEOUT_MS / 1000} s`;

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
}

/**
 * Fetches an image for the user through the egress guard: public addresses only
 * (or allow-listed hosts), 10 s in all, at most 10 MB (by Content-Length at once,
 * else the guard's cap while the body streams, 413). Refusals, failures and
 * non-2xx replies are a 422 naming `field`; the messages never echo the reply
 * or an address.
 */
export async function fetchImageBytes(url: string, field: string, options: FetchImageOptions = {}): Promise<Uint8Array> {
  const guarded =
    options.fetch ??
    createGuardedFetch({
      allowHosts: options.allowHosts ?? [],
      timeoutMs: IMAGE_FETCH_TIMEOUT_MS,
      maxRedirects: IMAGE_FETCH_MAX_REDIRECTS,
      maxResponseBytes: IMAGE_MAX_BYTES,
    });
  // A reply is dropped by aborting its request: cancelling the body stream of a
  // reply still arriving makes Node's stream adapter throw outside any caller.
  const abort = new AbortController();
  let response: Response;
  try {
    response = await guarded(url, { headers: { accept: "image/png, image/jpeg, image/webp, image/gif" }, signal: abort.signal });
  } catch (error) {
    if (error instanceof EgressRefusedError) throw invalidImage(field, error.publicMessage);
    if (isTimeout(error)) throw invalidImage(field, TIMED_OUT);
    throw invalidImage(field, "The image could not be fetched from that address");
  }
  if (!response.ok) {
    abort.abort();
    throw invalidImage(field, `That address answered HTTP ${response.status} instead of an image`);
  }
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > IMAGE_MAX_BYTES) {
    abort.abort();
    throw imageTooLarge(field, declared);
  }
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    // While the body streams, the guard refuses only one thing: more than its cap.
    if (error instanceof EgressRefusedError) throw imageTooLarge(field, null);
    if (isTimeout(error)) throw invalidImage(field, TIMED_OUT);
    throw invalidImage(field, "The image could not be fetched from that address");
  }
}
