import { afterEach, describe, expect, it } from "vitest";
import { provisionTemporalCli } from "./temporal-cli";
import { StepError } from "./steps";

const original = process.env.TEMPORAL_CLI;
afterEach(() => {
  if (original === undefined) delete process.env.TEMPORAL_CLI;
  else process.env.TEMPORAL_CLI = original;
});

describe("provisionTemporalCli", () => {
  it("refuses a TEMPORAL_CLI that does not run, saying what to do", async () => {
    process.env.TEMPORAL_CLI = "/nonexistent/temporal";
    const error = await provisionTemporalCli().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
    expect((error as StepError).message).toContain("TEMPORAL_CLI=/nonexistent/temporal does not run");
    expect((error as StepError).hint).toMatch(/point TEMPORAL_CLI at a working/);
  });

  it("uses a TEMPORAL_CLI that runs", async () => {
    process.env.TEMPORAL_CLI = "/bin/true";
    await expect(provisionTemporalCli()).resolves.toBe("/bin/true");
  });
});
