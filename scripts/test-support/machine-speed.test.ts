import { describe, expect, it } from "vitest";
import { machineSpeedLine, measureMachineSpeed, REFERENCE_MS, workload, WORKLOAD_CHECKSUM } from "./machine-speed";

describe("machine speed", () => {
  it("runs the same work every time: the checksum is pinned, and fewer rounds compute something else", () => {
    expect(workload()).toBe(WORKLOAD_CHECKSUM);
    expect(workload(1)).not.toBe(WORKLOAD_CHECKSUM);
  });

  it("says the figure against the reference, with cores and load, and flags a changed workload", () => {
    const speed = measureMachineSpeed();
    expect(speed.ms).toBeGreaterThan(0);
    expect(speed.relative).toBeCloseTo(REFERENCE_MS / speed.ms, 1);
    const line = machineSpeedLine({ ...speed, ms: 900, relative: 0.5, cores: 2, load: 1.25 }, 7.5);
    expect(line).toContain("2 cores, load 1.3 at the start and 7.5 at the end");
    expect(line).toContain(`900 ms = 0.50× the reference machine's ${REFERENCE_MS} ms`);
    expect(line).not.toContain("checksum");
    expect(machineSpeedLine({ ...speed, checksum: 1 }, 0)).toContain("the workload changed");
  });
});
