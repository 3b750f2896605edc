// The one egress guard: every request the server makes on a user's behalf
// (the http_get tool, HTTP MCP servers, the approval webhook) goes through it,
// so a user cannot point Zap Studio at loopback, private networks, cloud
// metadata or the Temporal UI. The name is resolved once, every address is
// checked, and the connection is made to a checked address (never to a second
// resolution, which DNS rebinding could change). Redirects are never followed
// blindly: each hop is checked again like a new request.
// Node code (the worker and the web server import it); no `server-only`.
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { Readable, Transform } from "node:stream";
import zlib from "node:zlib";
import { classifyAddress, isMetadataHost } from "./address";

export { classifyAddress, isPublicAddress } from "./address";

/** Resolves a host name to every address it has (default: the system resolver). */
export type LookupFn = (hostname: string) => Promise<{ address: string; family: number }[]>;

const REFUSED_PRIVATE = "That address is not reachable from Zap Studio (private or local network).";
const UNRESOLVED = "That host name could not be resolved.";

/** A request the guard refused; `publicMessage` is one sentence safe to show (no addresses, no reply). */
export class EgressRefusedError extends Error {
  override name = "EgressRefusedError";
  readonly publicMessage: string;
  /** True when trying again later may succeed (the name did not resolve); a refused address stays refused. */
  readonly transient: boolean;
  constructor(publicMessage: string = REFUSED_PRIVATE, { transient = false }: { transient?: boolean } = {}) {
    super(publicMessage);
    this.publicMessage = publicMessage;
    this.transient = transient;
  }
}

export interface EgressOptions {
  /** Hosts (`name` or `name:port`, lowercase) that may resolve to private addresses (ZAP_EGRESS_ALLOW_HOSTS). */
  allowHosts: string[];
  lookup?: LookupFn;
}

export interface GuardedFetchOptions extends EgressOptions {
  /** The whole exchange (every hop, headers and body) must finish in this time; default 10 s. */
  timeoutMs?: number;
  /** Redirects followed, each checked again; 0 refuses any redirect. Default 3. */
  maxRedirects?: number;
  /** A reply body (after decompression) larger than this fails while being read; default 10 MiB. */
  maxResponseBytes?: number;
}

const systemLookup: LookupFn = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

function defaultPort(protocol: string): string {
  return protocol === "https:" ? "443" : "80";
}

/** The host without IPv6 brackets or a trailing dot, lowercase. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
}

function isAllowedHost(url: URL, allowHosts: string[]): boolean {
  const host = bareHost(url);
  const port = url.port || defaultPort(url.protocol);
  const candidates = [host, url.hostname.toLowerCase(), `${host}:${port}`, `${url.hostname.toLowerCase()}:${port}`, `[${host}]:${port}`];
  return candidates.some((c) => allowHosts.includes(c));
}

function parseHttpUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new EgressRefusedError("That is not a valid web address.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new EgressRefusedError("Only http and https addresses can be reached.");
  return url;
}

/** Resolves and checks a URL's host; returns the checked addresses to connect to. */
async function checkedAddresses(url: URL, options: EgressOptions): Promise<{ address: string; family: number }[]> {
  const host = bareHost(url);
  // Cloud metadata is never a legitimate target, whatever the allow-list says.
  if (isMetadataHost(host)) throw new EgressRefusedError();
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch {
      throw new EgressRefusedError(UNRESOLVED, { transient: true });
    }
    if (addresses.length === 0) throw new EgressRefusedError(UNRESOLVED, { transient: true });
  }
  const allowed = isAllowedHost(url, options.allowHosts);
  for (const { address } of addresses) {
    const verdict = classifyAddress(address);
    if (verdict === "metadata" || (verdict !== "public" && !allowed)) throw new EgressRefusedError();
  }
  return addresses;
}

/** Refuses (EgressRefusedError) unless the URL is http(s) and every address its host resolves to is public, or the host is allow-listed. */
export async function assertPublicUrl(url: string, options: EgressOptions): Promise<void> {
  await checkedAddresses(parseHttpUrl(url), options);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
// Errors raised before a byte was sent: the next checked address may be tried.
const CONNECT_ERRORS = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);

interface Outgoing {
  method: string;
  headers: Headers;
  body: Buffer | undefined;
}

function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers["content-encoding"] ?? "").trim().toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return res.pipe(zlib.createGunzip());
  if (encoding === "deflate") return res.pipe(zlib.createInflate());
  if (encoding === "br") return res.pipe(zlib.createBrotliDecompress());
  return res;
}

/** Passes bytes through until `limit`, then fails the stream (a huge reply or a decompression bomb). */
function capped(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(new EgressRefusedError("That address sent a reply larger than Zap Studio accepts."));
      else callback(null, chunk);
    },
  });
}

function toResponse(res: http.IncomingMessage, url: URL, method: string, maxBytes: number): Response {
  const status = res.statusCode ?? 502;
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
  let body: ReadableStream | null = null;
  // A redirect's body is never read (the next hop is, or the caller gets the Location): drained here, so nothing
  // has to cancel a web stream adapted from Node's, which on Node 20 can throw "Controller is already closed" later.
  if (NULL_BODY.has(status) || method === "HEAD" || (REDIRECTS.has(status) && headers.has("location"))) {
    res.resume();
  } else {
    const stream = decoded(res);
    if (stream !== res) {
      headers.delete("content-encoding");
      headers.delete("content-length");
      res.on("error", (error) => stream.destroy(error));
    }
    const limited = stream.pipe(capped(maxBytes));
    stream.on("error", (error) => limited.destroy(error));
    // Failing the body releases the connection too.
    limited.on("error", () => res.destroy());
    body = Readable.toWeb(limited) as ReadableStream;
  }
  const response = new Response(body, { status, statusText: res.statusMessage ?? "", headers });
  Object.defineProperty(response, "url", { value: url.href });
  return response;
}

function sendOnce(url: URL, address: { address: string; family: number }, out: Outgoing, signal: AbortSignal, maxBytes: number): Promise<Response> {
  const host = bareHost(url);
  const headers: Record<string, string> = {};
  out.headers.forEach((value, key) => (headers[key] = value));
  headers.host = url.host;
  if (out.body) headers["content-length"] = String(out.body.length);
  const options: https.RequestOptions = {
    // The checked address itself: nothing resolves the name again.
    host: address.address,
    family: address.family,
    port: Number(url.port || defaultPort(url.protocol)),
    path: `${url.pathname}${url.search}`,
    method: out.method,
    headers,
    agent: false,
    signal,
  };
  // TLS still verifies the certificate against the name the user gave.
  if (url.protocol === "https:" && !isIP(host)) options.servername = host;
  return new Promise<Response>((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(options, (res) => {
      try {
        resolve(toResponse(res, url, out.method, maxBytes));
      } catch (error) {
        res.destroy();
        reject(error);
      }
    });
    request.on("error", reject);
    request.end(out.body);
  });
}

async function send(url: URL, addresses: { address: string; family: number }[], out: Outgoing, signal: AbortSignal, maxBytes: number): Promise<Response> {
  let lastError: unknown;
  for (const address of addresses) {
    try {
      return await sendOnce(url, address, out, signal, maxBytes);
    } catch (error) {
      lastError = error;
      const code = (error as NodeJS.ErrnoException).code;
      if (!code || !CONNECT_ERRORS.has(code) || signal.aborted) break;
    }
  }
  if (signal.aborted) throw signal.reason;
  throw new TypeError("fetch failed", { cause: lastError });
}

/** The request for the next hop, as browsers do it: 303 (and 301/302 after POST) become GET without a body; credentials stay on their origin. */
function redirected(out: Outgoing, status: number, from: URL, to: URL): Outgoing {
  const headers = new Headers(out.headers);
  let { method, body } = out;
  if ((status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
    method = "GET";
    body = undefined;
    for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) headers.delete(name);
  }
  if (from.origin !== to.origin) for (const name of ["authorization", "cookie", "proxy-authorization"]) headers.delete(name);
  return { method, headers, body };
}

/**
 * A `fetch` that only reaches public addresses (or allow-listed hosts): it
 * checks the URL, connects to the checked address, re-checks each redirect
 * (at most `maxRedirects`, refused beyond) and gives up after `timeoutMs`.
 * `redirect: "manual"` returns the redirect response to the caller instead.
 */
export function createGuardedFetch(options: GuardedFetchOptions): typeof fetch {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRedirects = options.maxRedirects ?? 3;
  const maxResponseBytes = options.maxResponseBytes ?? 10 * 1024 * 1024;
  const guardedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    let url = parseHttpUrl(request.url);
    const signal = AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
    let out: Outgoing = { method: request.method, headers: new Headers(request.headers), body: request.body ? Buffer.from(await request.arrayBuffer()) : undefined };
    for (let hop = 0; ; hop++) {
      const addresses = await checkedAddresses(url, options);
      signal.throwIfAborted();
      const response = await send(url, addresses, out, signal, maxResponseBytes);
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null || request.redirect === "manual") return response;
      await response.body?.cancel().catch(() => undefined);
      if (maxRedirects === 0 || request.redirect === "error") throw new EgressRefusedError("That address answered with a redirect, which Zap Studio does not follow.");
      if (hop >= maxRedirects) throw new EgressRefusedError("That address redirected too many times.");
      let next: URL;
      try {
        next = parseHttpUrl(new URL(location, url).href);
      } catch {
        throw new EgressRefusedError("That address redirected to an address that cannot be reached.");
      }
      out = redirected(out, response.status, url, next);
      url = next;
    }
  };
  return guardedFetch as typeof fetch;
}
