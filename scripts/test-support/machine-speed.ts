// How fast this machine is, said in npm test's summary beside the run's time.
// The 20-minute budget is wall time on two cores, but "two cores" is not one
// speed: the machine of 2026-12-01 checked the project's types (tsc, full) in
// 68 CPU-s where the one of 2026-11-30 took about 35, and every suite ran about
// twice as long. Without a figure in the log, a later session cannot tell a
// slower suite from a slower machine. The workload is fixed, single-threaded
// and deterministic (parsing, string building, a regex, Map traffic: what our
// tests spend their CPU on); its checksum proves it ran the same work.
import os from "node:os";

/** The workload's checksum: any change to the workload changes it, and the unit test pins it. */
export const WORKLOAD_CHECKSUM = 2_098_581_033;

/**
 * Milliseconds the workload takes on the machine of 2026-12-01 (2 cores, AMD EPYC at 2.45 GHz; best of three, idle:
 * 419–524 over three processes): the reference. That machine ran `.ci/run` in about 2,150 s; the one of stop 56, about
 * twice as fast by tsc, in 1,170–1,235 s.
 */
export const REFERENCE_MS = 450;

/** One pass of the fixed work; returns a checksum of what it computed. */
export function workload(rounds = 100): number {
  let checksum = 0;
  const words = /\b(\w+)@(\w+)\.example\b/g;
  for (let round = 0; round < rounds; round++) {
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ id: `run-${round}-${i}`, status: i % 7 === 0 ? "failed" : "completed", tokens: (i * 31 + round) % 997, note: `user${i}@team${i % 13}.example said ${i}` }));
    const parsed = JSON.parse(JSON.stringify(rows)) as typeof rows;
    const byStatus = new Map<string, number>();
    for (const row of parsed) {
      byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + row.tokens);
      for (const match of row.note.matchAll(words)) checksum = (checksum * 31 + (match[1]?.length ?? 0) + (match[2]?.length ?? 0)) >>> 0;
    }
    for (const [status, tokens] of byStatus) checksum = (checksum * 31 + status.length * tokens) >>> 0;
  }
  return checksum;
}

export interface MachineSpeed {
  /** Best of three passes (the least disturbed by whatever else starts). */
  ms: number;
  /** REFERENCE_MS ÷ ms: above 1 a faster machine than the reference, below 1 a slower one. */
  relative: number;
  cores: number;
  load: number;
  checksum: number;
}

/** Times the workload (best of three) with the machine's cores and one-minute load. */
export function measureMachineSpeed(): MachineSpeed {
  let best = Number.POSITIVE_INFINITY;
  let checksum = 0;
  for (let pass = 0; pass < 3; pass++) {
    const started = performance.now();
    checksum = workload();
    best = Math.min(best, performance.now() - started);
  }
  return { ms: Math.round(best), relative: REFERENCE_MS / best, cores: os.availableParallelism(), load: os.loadavg()[0] ?? 0, checksum };
}

/** The summary's line: the figure, against the reference, with cores and load at the start and the end of the run. */
export function machineSpeedLine(speed: MachineSpeed, loadAtEnd: number): string {
  const checksum = speed.checksum === WORKLOAD_CHECKSUM ? "" : ` (checksum ${speed.checksum}, expected ${WORKLOAD_CHECKSUM}: the workload changed)`;
  return `machine: ${speed.cores} cores, load ${speed.load.toFixed(1)} at the start and ${loadAtEnd.toFixed(1)} at the end; speed workload ${speed.ms} ms = ${speed.relative.toFixed(2)}× the reference machine's ${REFERENCE_MS} ms (scripts/test-support/machine-speed.ts)${checksum}`;
}
