// The browser-side defences every response carries. The Content-Security-Policy
// allows no inline script but Next's own, which it stamps with the per-request
// nonce the proxy creates (so an injected <script> never runs), and no framing.

export interface CspOptions {
  /** `next dev` only: React's dev build uses eval for its error overlays and stack traces. */
  dev: boolean;
}

/** The page CSP for one request's nonce. */
export function contentSecurityPolicy(nonce: string, { dev }: CspOptions): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts Next loads from a nonced script run too; host allow-lists are ignored.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // React Flow and CodeMirror insert <style> elements and set style attributes at run
    // time, with no way to pass a nonce; inline style cannot run code, so it is allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** A fresh, unguessable nonce (128 random bits, base64). */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** Headers for every response, page or API. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** HSTS, sent only when the app is served over HTTPS in production (over plain HTTP it would lock users out). */
export const HSTS_HEADER = "max-age=31536000; includeSubDomains";

/**
 * The policy of a stored image served back (GET /api/attachments/:id): nothing
 * may run or load, even if a browser rendered the bytes as a document.
 */
export const ATTACHMENT_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox; frame-ancestors 'none'";
