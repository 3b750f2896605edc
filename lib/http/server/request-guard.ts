import "server-only";
// What every mutating API request must show before a handler runs: it comes
// from the app's own pages (Origin), it is JSON (Content-Type), and its body
// fits the route's cap. Together with SameSite cookies this is the CSRF defence
// of the JSON API: a form on another site can send neither that Origin nor
// application/json, and a body is never read past its cap.
import { AppError, ForbiddenError, PayloadTooLargeError } from "../../errors";
import { getConfig } from "../../config/server/config";

/** Default cap of a request body: ample for every JSON body but a graph. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
/** Cap of a body carrying an agent graph (the designer bench's 500-agent graph is ~185 KB; prompts make real ones larger). */
export const GRAPH_MAX_BODY_BYTES = 5 * 1024 * 1024;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isMutating(method: string): boolean {
  return MUTATING.has(method.toUpperCase());
}

/**
 * Whether an Origin header names the app. With AUTH_URL set (the documented
 * setting behind a proxy) it must be exactly AUTH_URL's origin; without it, its
 * host must be the request's Host, the rule Next applies to server actions
 * (request.nextUrl cannot be used: it rewrites 127.0.0.1 to localhost).
 */
export function isAppOrigin(origin: string, request: Request): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file:) and garbage
  }
  const url = getConfig().auth.url;
  if (url) return parsed.origin === new URL(url).origin;
  const host = request.headers.get("host");
  return host !== null && parsed.host === host.toLowerCase();
}

/** Refuses a mutating request whose Origin is not the app's; a missing Origin is refused too (browsers send it on every POST fetch). */
export function requireSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin === null || !isAppOrigin(origin, request)) throw new ForbiddenError("Cross-origin requests are not accepted");
}

function mediaType(request: Request): string | null {
  const header = request.headers.get("content-type");
  return header === null ? null : (header.split(";")[0] ?? "").trim().toLowerCase();
}

const unsupportedMediaType = () => new AppError("unsupported_media_type", 415, "Send the request body as application/json");

/**
 * Reads the body as text, refusing it with 413 once it passes `maxBytes`:
 * at once when Content-Length says so, else as soon as the stream grows past it
 * (a chunked body has no length to trust), so a huge body is never buffered.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw new PayloadTooLargeError(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new PayloadTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("bad_request", 400, "The request body is not valid UTF-8");
  }
}

/**
 * Checks a mutating request and reads its body (capped). A request that sends
 * a body, or names a Content-Type, must be application/json; one with neither
 * (a body-less DELETE or cancel) passes, since no form can send it cross-site
 * and its Origin was checked first. `sameOrigin: false` is for a request made
 * with an API key (api-route.ts), which carries no cookie to forge.
 */
export async function guardMutatingRequest(request: Request, maxBodyBytes: number, options: { sameOrigin?: boolean } = {}): Promise<string> {
  if (options.sameOrigin !== false) requireSameOrigin(request);
  const type = mediaType(request);
  if (type !== null && type !== "application/json") throw unsupportedMediaType();
  const text = await readBodyText(request, maxBodyBytes);
  if (type === null && text.length > 0) throw unsupportedMediaType();
  return text;
}
