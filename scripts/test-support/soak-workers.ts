// The replay soak's workers: worker/main.ts as separate processes (as in
// production), so the soak can SIGKILL one in the middle of its runs. A
// replacement is started before the kill, so the runs the dead worker held
// move over (after their workflow task or activity times out) while the
// others go on without a gap.
import type { ChildProcess } from "node:child_process";
import { startWorkerProcess, type WorkerProcessOptions } from "./worker-process";

export interface SoakKill {
  /** When, in ms since the pool started. */
  atMs: number;
  /** The killed worker's pid. */
  pid: number;
  /** Runs the soak counted as in flight at that moment (the kill must hit work, not an idle worker). */
  runsInFlight: number;
}

export interface SoakWorkerPool {
  /** Starts a replacement, waits for it to poll, then SIGKILLs the current worker. */
  killAndReplace(runsInFlight: number): Promise<SoakKill>;
  kills: SoakKill[];
  /** Ends every worker still running (SIGKILL: the soak reads histories as they stand, nothing needs a clean close). */
  stopAll(): Promise<void>;
}

async function sigkill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await gone;
}

export async function startSoakWorkers(options: WorkerProcessOptions): Promise<SoakWorkerPool> {
  const started = Date.now();
  let current: ChildProcess = await startWorkerProcess(options);
  const all: ChildProcess[] = [current];
  const kills: SoakKill[] = [];
  return {
    kills,
    async killAndReplace(runsInFlight) {
      const next = await startWorkerProcess(options);
      all.push(next);
      const victim = current;
      current = next;
      await sigkill(victim);
      const kill = { atMs: Date.now() - started, pid: victim.pid ?? -1, runsInFlight };
      kills.push(kill);
      return kill;
    },
    async stopAll() {
      for (const child of all) await sigkill(child);
    },
  };
}
