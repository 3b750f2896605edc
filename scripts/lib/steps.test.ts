import { afterEach, describe, expect, it, vi } from "vitest";
import { reportFailure, step, StepError } from "./steps";
import { CommandFailedError } from "./run";

afterEach(() => vi.restoreAllMocks());

function captureErrors(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((text: string) => void lines.push(...String(text).split("\n")));
  vi.spyOn(console, "log").mockImplementation(() => undefined);
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  return lines;
}

describe("start-up steps", () => {
  it("a failing step prints one line naming the step and what to do, then details", async () => {
    const lines = captureErrors();
    await step("database", async () => {
      throw new StepError("migrations could not be applied", "check that PostgreSQL is running", "relation users already exists");
    }).catch(reportFailure);
    expect(lines[0]).toBe("✗ database: migrations could not be applied — check that PostgreSQL is running");
    expect(lines[1]).toContain("relation users already exists");
  });

  it("a failing command is summarised before its output, never a bare stack trace first", async () => {
    const lines = captureErrors();
    await step("build", async () => {
      throw new CommandFailedError("next build", 1, "Type error: x is not assignable");
    }).catch(reportFailure);
    expect(lines[0]).toMatch(/^✗ build: `next build` exited with code 1 — /);
    expect(lines.join("\n")).toContain("Type error");
    expect(lines[0]).not.toMatch(/at .*\(.*:\d+:\d+\)/);
  });

  it("returns the step's value when it succeeds", async () => {
    captureErrors();
    await expect(step("configuration", async () => 42)).resolves.toBe(42);
  });
});
