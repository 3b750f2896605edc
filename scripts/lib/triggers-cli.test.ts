// The trigger commands' argument handling and output lines, without a server
// (scripts/lib/triggers-cli.int.test.ts drives the CLI against one).
import { describe, expect, it } from "vitest";
import { isTriggerCommand, parseArgs, runTriggersCommand, scheduleLine, webhookLine } from "./triggers-cli";
import type { ScheduleView } from "../../lib/schedules/schemas";
import type { WebhookView } from "../../lib/webhooks/schemas";

const schedule: ScheduleView = {
  id: "sch_abcdefgh12",
  name: "nightly",
  graph: "support-triage",
  version: null,
  cron: null,
  intervalSeconds: 3600,
  timeZone: "UTC",
  jitterSeconds: 0,
  task: "answer: ok",
  context: {},
  overlap: "skip",
  paused: false,
  pauseNote: null,
  failureLimit: 3,
  consecutiveFailures: 0,
  owner: { id: "u1", email: "builder@zap.local" },
  lastFiredAt: null,
  lastRunId: null,
  lastOutcome: null,
  lastError: null,
  syncError: null,
  nextFireTimes: ["2026-11-30T01:00:00.000Z"],
  createdAt: "2026-11-29T00:00:00.000Z",
  updatedAt: "2026-11-29T00:00:00.000Z",
};

describe("trigger commands", () => {
  it("are recognised by their first word, wherever the server and key flags stand", () => {
    expect(isTriggerCommand(["schedules", "list"])).toBe(true);
    expect(isTriggerCommand(["--server", "http://x", "--api-key-file", "k", "webhooks", "list"])).toBe(true);
    expect(isTriggerCommand(["support-triage", "schedules are late"]), "an agent's run whose task names schedules").toBe(false);
    expect(isTriggerCommand(["--server", "schedules", "support-triage", "task"]), "a flag's value is not the command").toBe(false);
  });

  it("split words, flags with values and switches; a flag without its value or an unknown one is refused", () => {
    const parsed = parseArgs(["schedules", "pause", "sch_x", "--note", "quiet hours", "--json"]);
    expect(parsed.positional).toEqual(["schedules", "pause", "sch_x"]);
    expect(parsed.flags.get("--note")).toBe("quiet hours");
    expect(parsed.switches.has("--json")).toBe(true);
    expect(() => parseArgs(["schedules", "list", "--graph"])).toThrow("--graph needs a value");
    expect(() => parseArgs(["schedules", "list", "--force"])).toThrow("unknown option --force");
    expect(() => parseArgs(["schedules", "list", "--api-key=zap_secret"]), "a key on the command line is refused, never echoed").toThrow(/^--api-key is not taken/);
    expect(() => parseArgs(["schedules", "list", "--token=zap_secret"])).toThrow(/^unknown option --token$/);
  });

  it("print one line per schedule and endpoint, with the next firing and the state", () => {
    expect(scheduleLine(schedule)).toBe("sch_abcdefgh12  nightly  [support-triage]  every 1 h  active  next: 2026-11-30 01:00:00Z  last: never fired");
    expect(scheduleLine({ ...schedule, paused: true, nextFireTimes: [], lastOutcome: "failed", lastRunId: "run-1", version: 3 })).toBe(
      "sch_abcdefgh12  nightly  [support-triage v3]  every 1 h  paused  next: —  last: failed (run-1)",
    );
    const webhook: WebhookView = {
      id: "whk_abcdefgh12",
      name: "from CI",
      graph: "support-triage",
      version: null,
      mapping: { kind: "task" },
      enabled: false,
      rateLimitPerMinute: 60,
      path: "/api/hooks/whk_abcdefgh12",
      owner: { id: "u1", email: null },
      createdAt: "2026-11-29T00:00:00.000Z",
      updatedAt: "2026-11-29T00:00:00.000Z",
      rotatedAt: "2026-11-29T10:00:00.000Z",
    };
    expect(webhookLine(webhook)).toBe("whk_abcdefgh12  from CI  [support-triage]  disabled  /api/hooks/whk_abcdefgh12  rotated: 2026-11-29 10:00:00Z");
  });

  it("help prints the usage and exits 0 without a server; a usage error exits 2 before any request", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { env: {}, out: (text: string) => out.push(text), err: (text: string) => err.push(text) };
    expect(await runTriggersCommand(["schedules", "help"], io)).toBe(0);
    expect(out.join("\n")).toContain("npm run agent -- schedules run-now <sch_…>");
    expect(await runTriggersCommand(["schedules", "list", "--graph"], io)).toBe(2);
    expect(err.at(-1)).toMatch(/^✗ --graph needs a value\nusage:/);
  });
});
