// The browser's one way to read the app's JSON API. A failed request becomes an
// ApiError carrying the server's message and status from the error envelope
// every route answers with (`{ error: { code, message, issues? } }`, written by
// lib/http/server/error-mapper.ts), so every client shows the same words the
// server chose. Browser-safe: no server imports.
import type { AppErrorCode, FieldIssue } from "../errors";

/** A request the API refused or could not answer. */
export class ApiError extends Error {
  constructor(
    /** The HTTP status; 0 when no response arrived (offline, aborted). */
    readonly status: number,
    /** The envelope's code, or null when the body was not the app's envelope (a proxy's error page). */
    readonly code: AppErrorCode | null,
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

interface Envelope {
  error: { code: AppErrorCode; message: string; issues?: FieldIssue[] };
}

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string" && typeof (error as { code?: unknown }).code === "string";
}

/**
 * GETs `url` and returns its JSON body (typed by the caller: the route's
 * response type). Responses are never taken from the HTTP cache, since these
 * reads poll live runs. `what` names the resource for a failure without the
 * app's envelope: "the inbox" → "Could not load the inbox (502)".
 */
export async function getJson<T>(url: string, options: { what?: string; signal?: AbortSignal } = {}): Promise<T> {
  const what = options.what ?? "the data";
  let response: Response;
  try {
    response = await fetch(url, { cache: "no-store", headers: { accept: "application/json" }, signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, null, `Could not load ${what}: the server did not answer`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok && body !== undefined) return body as T;
  if (isEnvelope(body)) throw new ApiError(response.status, body.error.code, body.error.message, body.error.issues ?? []);
  throw new ApiError(response.status, null, response.ok ? `Could not load ${what}: the answer was not JSON` : `Could not load ${what} (${response.status})`);
}
