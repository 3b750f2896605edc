import { readFileSync } from "node:fs";

/** A process's resident memory in MB (Linux /proc), 0 when it is gone. */
export function rssMb(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Samples a process's resident memory every 100 ms; `stop` returns the peak. */
export function peakRss(pid: number): { stop: () => number } {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}
