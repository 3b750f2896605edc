// Issue 14 §2: a user cannot make the server reach private networks. Each
// test is an attempt by someone who controls a URL (an http_get argument, an
// MCP server URL, a DNS answer, a redirect) to reach something on the
// server's side of the network. Local test servers count the connections
// they receive: a refusal must happen before any connection.
// No packet ever leaves loopback: every socket connect in this file goes
// through a spy that lets loopback through and blocks (and records) any
// other address, so 10.0.0.1 and 169.254.169.254 are never contacted even if
// the guard were broken.
import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { assertPublicUrl, createGuardedFetch, EgressRefusedError, type LookupFn } from "./egress";

const PRIVATE_MESSAGE = "That address is not reachable from Zap Studio (private or local network).";

interface Target {
  server: Server;
  port: number;
  connections: number;
}

async function listen(host: string, handler: Parameters<typeof createServer>[1] = (_q, r) => r.end("secret internal data")): Promise<Target> {
  const server = createServer(handler);
  const target: Target = { server, port: 0, connections: 0 };
  server.on("connection", () => target.connections++);
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, host, resolve));
  target.port = (server.address() as AddressInfo).port;
  return target;
}

let v4: Target;
/** A listener on ::1 where the machine has IPv6 loopback, to count connections; the [::1] refusal needs none. */
let v6: Target | null = null;
const blocked: string[] = [];
/** Every host a socket tried to connect to, loopback included (cleared after each test). */
const attempted: string[] = [];
const originalConnect = net.Socket.prototype.connect;

/** The host a Socket#connect call is for, whichever of its forms was used. */
function connectHost(args: unknown[]): string {
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (first && typeof first === "object") return String((first as { host?: string; path?: string }).host ?? (first as { path?: string }).path ?? "localhost");
  return typeof args[1] === "string" ? args[1] : "localhost";
}

beforeAll(async () => {
  vi.spyOn(net.Socket.prototype, "connect").mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    const host = connectHost(args);
    attempted.push(host);
    if (!["127.0.0.1", "::1", "localhost"].includes(host)) {
      blocked.push(host);
      throw new Error(`test network guard: no connection to ${host}`);
    }
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  });
  v4 = await listen("127.0.0.1");
  v6 = await listen("::1").catch(() => null);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await new Promise<void>((resolve) => v4.server.close(() => resolve()));
  if (v6) await new Promise<void>((resolve) => v6?.server.close(() => resolve()));
});
afterEach(() => {
  blocked.length = 0;
  attempted.length = 0;
});

async function refusal(attempt: Promise<unknown>): Promise<EgressRefusedError> {
  const error = await attempt.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the request was refused").toBeInstanceOf(EgressRefusedError);
  return error as EgressRefusedError;
}

const guarded = (options: Partial<Parameters<typeof createGuardedFetch>[0]> = {}) => createGuardedFetch({ allowHosts: [], ...options });

describe("the egress guard refuses private and local targets before connecting", () => {
  it("an attacker asks for the server's own loopback port: refused, no connection", async () => {
    const error = await refusal(guarded()(`http://127.0.0.1:${v4.port}/`));
    expect(error.publicMessage).toBe(PRIVATE_MESSAGE);
    expect(v4.connections).toBe(0);
  });

  it("the same over IPv6 loopback, and loopback spelt as a number, in hex, short or IPv4-mapped", async () => {
    // [::1] is refused by address, before any socket: it is tried on every machine, with a listener to count
    // connections where ::1 can be bound and at a port nothing listens on elsewhere.
    const urls = [
      `http://[::1]:${v6?.port ?? v4.port}/`,
      `http://2130706433:${v4.port}/`,
      `http://0x7f.1:${v4.port}/`,
      `http://127.1:${v4.port}/`,
      `http://[::ffff:127.0.0.1]:${v4.port}/`,
      `http://[::ffff:7f00:1]:${v4.port}/`,
    ];
    for (const url of urls) expect((await refusal(guarded()(url))).publicMessage, url).toBe(PRIVATE_MESSAGE);
    await refusal(assertPublicUrl(`http://[::1]:${v4.port}/`, { allowHosts: [] }));
    expect(attempted, "no socket was even attempted").toEqual([]);
    expect(v4.connections).toBe(0);
    expect(v6?.connections ?? 0).toBe(0);
  });

  it("private ranges and the cloud metadata endpoint are refused without opening a socket", async () => {
    const lookup = vi.fn<LookupFn>(async () => [{ address: "8.8.8.8", family: 4 }]);
    for (const url of ["http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.64.0.1/", "http://192.168.1.1:8233/", "http://metadata.google.internal/computeMetadata/v1/"]) {
      const error = await refusal(guarded({ lookup })(url));
      expect(error.publicMessage, url).toBe(PRIVATE_MESSAGE);
      await refusal(assertPublicUrl(url, { allowHosts: [], lookup }));
    }
    // Metadata stays refused even if an operator lists it.
    await refusal(guarded({ allowHosts: ["169.254.169.254"] })("http://169.254.169.254/latest/meta-data/"));
    expect(blocked, "no socket was even attempted").toEqual([]);
    expect(lookup, "the metadata name is refused by name, not resolved").not.toHaveBeenCalled();
  });

  it("Azure's WireServer (168.63.129.16, a public address) is refused like metadata: by address, spelt otherwise, or via an allow-listed name resolving to it", async () => {
    for (const url of ["http://168.63.129.16/machine?comp=goalstate", "http://[::ffff:168.63.129.16]/", "http://2822734096/", "http://168.63.129.16:32526/vmSettings"]) {
      expect((await refusal(guarded()(url))).publicMessage, url).toBe(PRIVATE_MESSAGE);
      await refusal(assertPublicUrl(url, { allowHosts: [] }));
    }
    // Listing it, or a name that resolves to it, does not open it.
    await refusal(guarded({ allowHosts: ["168.63.129.16"] })("http://168.63.129.16/"));
    const lookup: LookupFn = async () => [{ address: "168.63.129.16", family: 4 }];
    await refusal(guarded({ allowHosts: ["wire.corp.example"], lookup })("http://wire.corp.example/machine?comp=goalstate"));
    await refusal(assertPublicUrl("http://wire.attacker.example/", { allowHosts: [], lookup }));
    expect(blocked, "no socket was even attempted").toEqual([]);
  });

  it("a name that resolves to loopback (localhost, or an attacker's DNS name) is refused", async () => {
    await refusal(guarded()(`http://localhost:${v4.port}/`));
    const lookup: LookupFn = async () => [{ address: "127.0.0.1", family: 4 }];
    expect((await refusal(guarded({ lookup })(`http://internal.attacker.example:${v4.port}/`))).publicMessage).toBe(PRIVATE_MESSAGE);
    // One private address among public ones is enough to refuse.
    const mixed: LookupFn = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    await refusal(assertPublicUrl(`http://mixed.attacker.example:${v4.port}/`, { allowHosts: [], lookup: mixed }));
    expect(v4.connections).toBe(0);
    expect(blocked).toEqual([]);
  });

  it("a public page that redirects to loopback: the redirect is checked and refused, the target never reached", async () => {
    const inner = await listen("127.0.0.1");
    // The redirecting server stands in for a public host (listed so the guard lets the first hop through).
    const redirector = await listen("127.0.0.1", (_q, r) => r.writeHead(302, { location: `http://127.0.0.1:${inner.port}/admin` }).end());
    try {
      const allowHosts = [`127.0.0.1:${redirector.port}`];
      expect((await refusal(guarded({ allowHosts })(`http://127.0.0.1:${redirector.port}/`))).publicMessage).toBe(PRIVATE_MESSAGE);
      const noRedirects = await refusal(guarded({ allowHosts, maxRedirects: 0 })(`http://127.0.0.1:${redirector.port}/`));
      expect(noRedirects.publicMessage).toMatch(/redirect/);
      expect(redirector.connections).toBe(2);
      expect(inner.connections, "the redirect target was never contacted").toBe(0);
    } finally {
      inner.server.close();
      redirector.server.close();
    }
  });

  it("DNS rebinding: the name answers public then private; the guard connects to the address it checked", async () => {
    const answers = ["93.184.216.34", "127.0.0.1"];
    const lookup = vi.fn<LookupFn>(async () => [{ address: answers.shift() ?? "127.0.0.1", family: 4 }]);
    const error = await guarded({ lookup })(`http://rebind.attacker.example:${v4.port}/`).then(
      () => null,
      (e: unknown) => e,
    );
    // The public address was the only one tried (and the test's network guard stopped it there).
    expect(error).toBeInstanceOf(TypeError);
    expect(blocked).toEqual(["93.184.216.34"]);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(v4.connections, "the rebound private address was never contacted").toBe(0);
  });
});

describe("the guard bounds what a hostile server can do", () => {
  it("a server that never answers is given up on after the timeout", async () => {
    const silent = await listen("127.0.0.1", () => undefined);
    try {
      const started = Date.now();
      const error = await guarded({ allowHosts: [`127.0.0.1:${silent.port}`], timeoutMs: 300 })(`http://127.0.0.1:${silent.port}/`).then(
        () => null,
        (e: unknown) => e,
      );
      expect((error as Error | null)?.name).toBe("TimeoutError");
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.server.closeAllConnections();
      silent.server.close();
    }
  });

  it("a reply larger than maxResponseBytes, or a gzip bomb, fails while being read", async () => {
    const bomb = gzipSync(Buffer.alloc(5_000_000));
    const big = await listen("127.0.0.1", (q, r) => (q.url === "/bomb" ? r.writeHead(200, { "content-encoding": "gzip" }).end(bomb) : r.end("y".repeat(200_000))));
    try {
      const fetchCapped = guarded({ allowHosts: [`127.0.0.1:${big.port}`], maxResponseBytes: 100_000 });
      for (const path of ["/big", "/bomb"]) {
        const response = await fetchCapped(`http://127.0.0.1:${big.port}${path}`);
        expect(response.status).toBe(200);
        await expect(response.text(), path).rejects.toThrow();
      }
      const small = await guarded({ allowHosts: [`127.0.0.1:${big.port}`] })(`http://127.0.0.1:${big.port}/bomb`);
      expect((await small.arrayBuffer()).byteLength, "decompressed below the default cap").toBe(5_000_000);
    } finally {
      big.server.close();
    }
  });

  it("a redirect loop stops after maxRedirects; redirect: 'error' refuses the first", async () => {
    const loop = await listen("127.0.0.1", (q, r) => r.writeHead(302, { location: `/hop${Number(q.url?.slice(4) || 0) + 1}` }).end());
    try {
      const allowHosts = [`127.0.0.1:${loop.port}`];
      expect((await refusal(guarded({ allowHosts })(`http://127.0.0.1:${loop.port}/hop0`))).publicMessage).toMatch(/too many/);
      expect(loop.connections, "the first request and three redirects").toBe(4);
      await refusal(guarded({ allowHosts })(`http://127.0.0.1:${loop.port}/hop0`, { redirect: "error" }));
      const manual = await guarded({ allowHosts })(`http://127.0.0.1:${loop.port}/hop0`, { redirect: "manual" });
      expect(manual.status).toBe(302);
    } finally {
      loop.server.close();
    }
  });
});

describe("what stays possible", () => {
  it("a private host the operator lists in ZAP_EGRESS_ALLOW_HOSTS is reachable", async () => {
    const before = v4.connections;
    const response = await guarded({ allowHosts: [`127.0.0.1:${v4.port}`] })(`http://127.0.0.1:${v4.port}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("secret internal data");
    expect(v4.connections).toBe(before + 1);
    // Listing one port does not open the others.
    await refusal(guarded({ allowHosts: ["127.0.0.1:1"] })(`http://127.0.0.1:${v4.port}/`));
  });

  it("a listed name keeps its checked address and its Host header; a redirect within it is followed", async () => {
    const hops = await listen("127.0.0.1", (q, r) => (q.url === "/start" ? r.writeHead(307, { location: "/end" }).end() : r.end(`at ${q.url} for ${q.headers.host}`)));
    try {
      const lookup: LookupFn = async () => [{ address: "127.0.0.1", family: 4 }];
      const response = await guarded({ allowHosts: ["hooks.internal"], lookup })(`http://hooks.internal:${hops.port}/start`);
      expect(await response.text()).toBe(`at /end for hooks.internal:${hops.port}`);
    } finally {
      hops.server.close();
    }
  });

  it("public literals pass the check without any connection; other schemes do not", async () => {
    await assertPublicUrl("https://93.184.216.34/", { allowHosts: [] });
    await assertPublicUrl("https://[2606:4700::1111]/", { allowHosts: [] });
    expect((await refusal(assertPublicUrl("file:///etc/passwd", { allowHosts: [] }))).publicMessage).toMatch(/http and https/);
    expect(blocked).toEqual([]);
  });
});
