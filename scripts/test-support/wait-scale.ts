// How much longer a test's hang detector waits on a slow machine. The waits in
// integration tests (`eventually`, `waitForStatus`, the per-test timeout) say
// when a run has hung, not how fast it must be (speed is bench/'s). They were
// set on machines about twice as fast as some of the same kind: on the machine
// of 2026-12-01 (tsc's full check 68 CPU-s against 35) a routing run of three
// failing children, beside four files, the build and first run, took over 60 s
// to fail where it needs a few seconds alone, in three runs out of three.
// npm test measures the machine first (machine-speed.ts) and hands the factor to
// every suite it starts; a run outside npm test waits as written.
import { REFERENCE_MS } from "./machine-speed";

/** The environment variable npm test sets: how many times longer every hang detector waits. */
export const WAIT_SCALE_ENV = "ZAP_TEST_WAIT_SCALE";

/** The speed workload's time on the machines the waits were set on (about twice as fast as the reference). */
export const WAITS_SET_AT_MS = REFERENCE_MS / 2;

/** Never more than this: a hang must still fail the run in minutes, whatever the machine. */
const MOST = 3;

/** The factor for a machine whose speed workload took `ms`: 1 on the machines the waits were set on or faster. */
export function waitScaleFor(ms: number): number {
  return Math.min(MOST, Math.max(1, Math.round((ms / WAITS_SET_AT_MS) * 10) / 10));
}

/** The factor npm test handed over (1 when run on its own, or when the value is not a number ≥ 1). */
export function waitScale(): number {
  const value = Number(process.env[WAIT_SCALE_ENV]);
  return Number.isFinite(value) && value >= 1 ? Math.min(MOST, value) : 1;
}

/** `ms` for this machine. */
export function scaledWait(ms: number): number {
  return Math.round(ms * waitScale());
}
