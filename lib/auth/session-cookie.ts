// Auth.js names its session cookie `authjs.session-token` (`__Host-` in
// production over HTTPS, see auth-config.ts; `__Secure-` by Auth.js's default)
// and splits a large token into `.0`, `.1`, … chunks.
const SESSION_COOKIE = /^(?:__Secure-|__Host-)?authjs\.session-token(?:\.\d+)?=/;

/** Whether a Set-Cookie value removes its cookie (empty value, or already expired). */
function removesCookie(setCookie: string): boolean {
  const [pair = "", ...attributes] = setCookie.split(";");
  if (pair.slice(pair.indexOf("=") + 1).trim() === "") return true;
  return attributes.some((attribute) => {
    const [name = "", value = ""] = attribute.split("=").map((part) => part.trim());
    if (name.toLowerCase() === "max-age") return Number(value) <= 0;
    if (name.toLowerCase() === "expires") return Date.parse(value) <= Date.now();
    return false;
  });
}

/**
 * Drops every Set-Cookie that would (re)issue the session cookie, keeping those
 * that remove it and every other cookie. Returns how many were dropped.
 */
export function dropSessionCookieIssues(headers: Headers): number {
  const all = headers.getSetCookie();
  const kept = all.filter((cookie) => !SESSION_COOKIE.test(cookie) || removesCookie(cookie));
  if (kept.length === all.length) return 0;
  headers.delete("set-cookie");
  for (const cookie of kept) headers.append("set-cookie", cookie);
  return all.length - kept.length;
}
