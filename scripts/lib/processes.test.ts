import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ProcessGroup, type FatalExit, type RestartNotice, type RestartPolicy } from "./processes";

const FAST: RestartPolicy = { initialDelayMs: 20, maxDelayMs: 1_000, maxCrashes: 3, windowMs: 60_000 };

function node(code: string): ChildProcess {
  return spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
}

/** Resolves once the child prints its first line (so its signal handlers are installed). */
function printed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => child.stdout?.once("data", () => resolve()));
}

function recordingGroup(policy: RestartPolicy = FAST) {
  const restarts: RestartNotice[] = [];
  const fatal: FatalExit[] = [];
  const group = new ProcessGroup({ onRestart: (n) => void restarts.push(n), onFatalExit: (e) => void fatal.push(e) }, policy);
  return { group, restarts, fatal };
}

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "zap-processes-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("ProcessGroup", () => {
  it("during start-up, a child that dies is fatal: nothing is restarted", async () => {
    const { group, restarts, fatal } = recordingGroup();
    group.supervise("worker", () => node("process.exit(3)"), { log: "/tmp/worker.log" });
    await vi.waitFor(() => expect(fatal).toHaveLength(1));
    expect(fatal[0]).toEqual({ name: "worker", reason: "code 3", log: "/tmp/worker.log" });
    expect(restarts).toEqual([]);
  });

  it("once running, restarts a crashed child with the same command and doubling waits, then gives up after too many crashes", async () => {
    const { group, restarts, fatal } = recordingGroup();
    const launches = path.join(dir, "launches");
    const crashing = `require("node:fs").appendFileSync(${JSON.stringify(launches)}, process.argv.slice(1).join(" ") + "\\n"); process.exit(1)`;
    group.supervise("worker", () => spawn(process.execPath, ["-e", crashing, "same", "args"], { stdio: "ignore" }), { log: "/tmp/worker.log" });
    group.restartOnCrash();

    await vi.waitFor(() => expect(fatal).toHaveLength(1), { timeout: 5_000 });
    expect(restarts).toEqual([
      { name: "worker", reason: "code 1", delayMs: 20, restart: 1 },
      { name: "worker", reason: "code 1", delayMs: 40, restart: 2 },
    ]);
    expect(fatal[0]).toEqual({ name: "worker", reason: "code 1", crashes: 3, log: "/tmp/worker.log" });
    expect(readFileSync(launches, "utf8")).toBe("same args\n".repeat(3));
    await group.stopAll();
  });

  it("names a child killed by a signal, and restarts it", async () => {
    const { group, restarts } = recordingGroup();
    let launched = 0;
    const first = group.supervise("web", () => {
      launched += 1;
      return node("console.log('up'); setInterval(() => {}, 1000)");
    });
    group.restartOnCrash();
    await printed(first);
    first.kill("SIGKILL");
    await vi.waitFor(() => expect(launched).toBe(2));
    expect(restarts).toEqual([{ name: "web", reason: "signal SIGKILL", delayMs: 20, restart: 1 }]);
    await group.stopAll();
  });

  it("Ctrl-C during a backoff wait cancels the restart and stops at once", async () => {
    const { group, restarts } = recordingGroup({ ...FAST, initialDelayMs: 30_000 });
    let launched = 0;
    group.supervise("temporal", () => {
      launched += 1;
      return node("process.exit(1)");
    });
    group.restartOnCrash();
    await vi.waitFor(() => expect(restarts).toHaveLength(1));

    const started = performance.now();
    await group.stopAll();
    // The backoff is 30 s; 10 s separates waiting it out from a slow machine.
    expect(performance.now() - started, "stopAll must not wait out the backoff").toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(launched).toBe(1);
  });

  it("stopAll stops running children, escalating to SIGKILL after the grace period, and restarts none", async () => {
    const { group, restarts, fatal } = recordingGroup();
    const polite = group.supervise("web", () => node("console.log('up'); setInterval(() => {}, 1000)"));
    const stubborn = group.supervise("worker", () => node("process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1000)"));
    group.restartOnCrash();
    await Promise.all([printed(polite), printed(stubborn)]);

    await group.stopAll(300);
    expect(polite.signalCode).toBe("SIGTERM");
    expect(stubborn.signalCode).toBe("SIGKILL");
    expect(restarts).toEqual([]);
    expect(fatal).toEqual([]);
  });

  it("a command that cannot be spawned counts as an exit instead of crashing the orchestrator", async () => {
    const { group, fatal } = recordingGroup();
    group.spawn("web", path.join(dir, "no-such-binary"), []);
    await vi.waitFor(() => expect(fatal).toHaveLength(1));
    expect(fatal[0]?.reason).toMatch(/ENOENT/);
  });
});
