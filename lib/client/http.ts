// The client's one HTTP call: the API key as `Authorization: Bearer zap_…`, no
// cookie, JSON in and out, and every failure as an ApiError carrying the server's
// envelope (`{ error: { code, message, issues? } }`). Browser- and Node-safe:
// only `fetch`, no server imports.
import { ApiError } from "../http/client";
import type { AppErrorCode, FieldIssue } from "../errors";

export { ApiError };

/** A 429 that was still refused after the one wait the client allows: how long the server asks to wait now. */
export class RateLimitedApiError extends ApiError {
  constructor(
    message: string,
    /** The server's Retry-After, in seconds. */
    readonly retryAfterSeconds: number,
  ) {
    super(429, "rate_limited", message);
    this.name = "RateLimitedApiError";
  }
}

export interface HttpOptions {
  /** The server's origin, optionally with a path prefix: `https://zap.example.com`. */
  baseUrl: string;
  /** A key from the account page or `npm run api-key -- create` (`zap_…`). */
  apiKey: string;
  /** Another fetch (a test's, a proxy agent's); default: the global one. */
  fetch?: typeof fetch;
  /**
   * The longest Retry-After the client waits out once on a 429 before retrying
   * (default 60 s). A longer one, or a second 429, is thrown as RateLimitedApiError.
   */
  maxRetryAfterSeconds?: number;
}

export interface CallOptions {
  body?: unknown;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

interface Envelope {
  error: { code: AppErrorCode; message: string; issues?: FieldIssue[] };
}

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string" && typeof (error as { code?: unknown }).code === "string";
}

/** Seconds to wait from a Retry-After header (seconds or an HTTP date); 1 when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (!header) return 1;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? 1 : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Calls the API with a key; one instance per client. */
export class Http {
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly fetchImpl: typeof fetch;
  private readonly maxRetryAfterSeconds: number;

  constructor(options: HttpOptions) {
    if (!/^zap_/.test(options.apiKey)) throw new TypeError('apiKey must be a Zap Studio API key ("zap_…")');
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    // Bound, so a browser's window.fetch is not called with the client as `this`.
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.maxRetryAfterSeconds = options.maxRetryAfterSeconds ?? 60;
  }

  /** The URL of an API path (`/api/runs`), with its query. */
  url(path: string, query: CallOptions["query"] = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
    const search = params.toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ""}`;
  }

  /**
   * Sends one request and returns its JSON body as the route's response type
   * (undefined for 204). A 429 is retried once after its Retry-After when that
   * is at most maxRetryAfterSeconds: the server refused it before acting, so a
   * retried POST does not act twice.
   */
  async call<T>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, options: CallOptions = {}): Promise<T> {
    const first = await this.send(method, path, options);
    if (first.status !== 429) return this.read<T>(method, path, first);
    const wait = retryAfterSeconds(first.headers.get("retry-after"));
    const refused = await this.errorOf(method, path, first);
    if (wait > this.maxRetryAfterSeconds) throw new RateLimitedApiError(refused.message, wait);
    await sleep(wait * 1000, options.signal);
    const second = await this.send(method, path, options);
    if (second.status === 429) {
      const again = await this.errorOf(method, path, second);
      throw new RateLimitedApiError(again.message, retryAfterSeconds(second.headers.get("retry-after")));
    }
    return this.read<T>(method, path, second);
  }

  /**
   * Opens a Server-Sent Events stream (GET) and returns its response once the
   * server accepted it; a refusal (401, 404, 422, 429 …) is thrown as ApiError
   * like any call's. `lastEventId` resumes after that event, as a browser's EventSource does.
   */
  async openStream(path: string, options: CallOptions & { lastEventId?: string }): Promise<Response> {
    const response = await this.send("GET", path, options, { accept: "text/event-stream", ...(options.lastEventId ? { "last-event-id": options.lastEventId } : {}) });
    if (response.status === 429) throw new RateLimitedApiError((await this.errorOf("GET", path, response)).message, retryAfterSeconds(response.headers.get("retry-after")));
    if (!response.ok || !response.body) throw await this.errorOf("GET", path, response);
    return response;
  }

  private async send(method: string, path: string, options: CallOptions, extraHeaders: Record<string, string> = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, accept: "application/json", ...extraHeaders };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    try {
      return await this.fetchImpl(this.url(path, options.query), {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        // A key is the whole credential: never a browser's cookies beside it, never a cached read of a live run.
        credentials: "omit",
        cache: "no-store",
        redirect: "error",
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new ApiError(0, null, `Could not reach ${this.baseUrl}: ${cause}`);
    }
  }

  private async read<T>(method: string, path: string, response: Response): Promise<T> {
    if (!response.ok) throw await this.errorOf(method, path, response);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(response.status, null, `${method} ${path}: the answer was not JSON`);
    }
  }

  private async errorOf(method: string, path: string, response: Response): Promise<ApiError> {
    const body: unknown = await response.json().catch(() => undefined);
    if (isEnvelope(body)) return new ApiError(response.status, body.error.code, body.error.message, body.error.issues ?? []);
    return new ApiError(response.status, null, `${method} ${path} failed (${response.status}${response.statusText ? ` ${response.statusText}` : ""})`);
  }
}
