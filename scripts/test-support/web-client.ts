// A signed-in user of one web server, over HTTP as the browser would be: the
// session cookie from Auth.js's credentials sign-in, and on mutating requests
// the server's own Origin and a JSON body (lib/http/server/request-guard.ts).
import { signIn } from "../first-run/support";

export interface HttpAnswer {
  status: number;
  body: unknown;
}

export class WebClient {
  private constructor(
    readonly origin: string,
    readonly email: string,
    private readonly cookie: string,
  ) {}

  static async signIn(origin: string, email: string, password: string): Promise<WebClient> {
    return new WebClient(origin, email, await signIn(origin, email, password));
  }

  async get(pathAndQuery: string): Promise<HttpAnswer> {
    const response = await fetch(`${this.origin}${pathAndQuery}`, { headers: { cookie: this.cookie } });
    return { status: response.status, body: await response.json().catch(() => null) };
  }

  async post(pathAndQuery: string, body: unknown): Promise<HttpAnswer> {
    const response = await fetch(`${this.origin}${pathAndQuery}`, {
      method: "POST",
      headers: { cookie: this.cookie, origin: this.origin, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  }
}

/** Runs `task` over `items` with at most `limit` at a time (as many browsers would, not one burst). */
export async function inPool<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
