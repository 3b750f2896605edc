import { describe, expect, it } from "vitest";
import { dropSessionCookieIssues } from "./session-cookie";

function headersWith(...cookies: string[]): Headers {
  const headers = new Headers({ "content-type": "text/html" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return headers;
}

describe("dropSessionCookieIssues", () => {
  it("drops a re-issued session cookie, plain, __Secure- or __Host-, whole or chunked", () => {
    const headers = headersWith(
      "authjs.session-token=eyJhbGciOi; Path=/; Expires=Sun, 22 Nov 2099 14:09:02 GMT; HttpOnly; SameSite=Lax",
      "__Secure-authjs.session-token=eyJ; Path=/; Secure; HttpOnly",
      "__Host-authjs.session-token=eyJ; Path=/; Secure; HttpOnly",
      "authjs.session-token.0=part; Path=/; HttpOnly",
    );
    expect(dropSessionCookieIssues(headers)).toBe(4);
    expect(headers.getSetCookie()).toEqual([]);
    expect(headers.get("content-type"), "other headers stay").toBe("text/html");
  });

  it("keeps removals of the session cookie, so an invalid token is still cleared", () => {
    const removals = ["authjs.session-token=; Path=/; Max-Age=0; HttpOnly; SameSite=lax", "authjs.session-token.1=gone; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"];
    const headers = headersWith(...removals);
    expect(dropSessionCookieIssues(headers)).toBe(0);
    expect(headers.getSetCookie()).toEqual(removals);
  });

  it("keeps every other cookie, in order", () => {
    const headers = headersWith(
      "authjs.csrf-token=abc; Path=/; HttpOnly",
      "authjs.session-token=eyJ; Path=/; HttpOnly",
      "authjs.callback-url=http%3A%2F%2F127.0.0.1; Path=/",
      "my.authjs.session-token-ish=1; Path=/",
    );
    expect(dropSessionCookieIssues(headers)).toBe(1);
    expect(headers.getSetCookie()).toEqual(["authjs.csrf-token=abc; Path=/; HttpOnly", "authjs.callback-url=http%3A%2F%2F127.0.0.1; Path=/", "my.authjs.session-token-ish=1; Path=/"]);
  });
});
