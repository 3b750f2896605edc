// One operation, every door (issue 15 §1), kept so by reading the source: a
// mutating route is built from an operation (operationRoute), and every
// operation a route serves is also the one its server action is built from, so
// the two doors share schema, permission and function by construction. The
// parity tests (parity-*.int.test.ts) show they then behave the same.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Mutating exports that are not an operation of this app, and why. */
const NOT_OPERATIONS: Record<string, string> = {
  "app/api/auth/[...nextauth]/route.ts POST": "Auth.js's own endpoints (sign-in passes the throttle first)",
  "app/api/hooks/[endpointId]/route.ts POST": "an inbound webhook delivery: no session, the HMAC signature is the credential (lib/webhooks/server/receive.ts)",
  "app/api/slack/interactions/route.ts POST": "a click in Slack: no session, Slack's request signature is the credential; it decides through decideOne as the linked user (lib/approval-channels/server/slack-interaction.ts)",
};

/** Operations with a server action and, on purpose, no route, and why. */
const ACTION_ONLY: Record<string, string> = {
  discoverMcpToolsOperation: "the designer's look-up of a registered server's tools through a worker: it reads, it changes nothing",
};

function files(dir: string, match: (name: string) => boolean): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true }).flatMap((entry) => {
    if (!entry.isFile() || !match(entry.name)) return [];
    return [path.relative(ROOT, path.join(entry.parentPath, entry.name))];
  });
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

describe("every door of an operation is built from it", () => {
  const routes = files("app/api", (name) => name === "route.ts");
  const actions = files("lib/actions", (name) => name.endsWith(".ts") && !name.includes(".test."));
  const servedByActions = new Set(actions.flatMap((file) => [...read(file).matchAll(/operationAction\((\w+)/g)].map((m) => m[1])));

  it("each mutating route is an operationRoute over an operation that a server action also serves", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const file of routes) {
      for (const [, method, definition] of read(file).matchAll(/export (?:const|async function) (POST|PUT|PATCH|DELETE)\b([^\n]*)/g)) {
        const where = `${file} ${method}`;
        if (where in NOT_OPERATIONS) continue;
        checked++;
        const served = /operationRoute\((\w+)/.exec(definition ?? "")?.[1];
        if (!served) problems.push(`${where} is not built with operationRoute`);
        else if (!servedByActions.has(served)) problems.push(`${where} serves ${served}, which no server action is built from`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked, "the scan found the mutating routes").toBeGreaterThanOrEqual(12);
  });

  it("each operation a server action serves has a route too (a script can do what the pages do)", () => {
    const servedByRoutes = new Set(routes.flatMap((file) => [...read(file).matchAll(/operationRoute\((\w+)/g)].map((m) => m[1])));
    const missing = [...servedByActions].filter((op) => op !== undefined && !servedByRoutes.has(op) && !(op in ACTION_ONLY));
    expect(missing, "operations reachable only through a server action").toEqual([]);
    for (const op of Object.keys(ACTION_ONLY)) expect(servedByActions.has(op), `${op} is still an operation with an action`).toBe(true);
    expect(servedByActions.size, "the scan found the operations").toBeGreaterThanOrEqual(20);
  });

  it("the exceptions still exist (a stale entry hides nothing)", () => {
    for (const entry of Object.keys(NOT_OPERATIONS)) {
      const [file = "", method = ""] = entry.split(" ");
      expect(read(file), entry).toMatch(new RegExp(`export (const|async function) ${method}\\b`));
    }
  });
});
