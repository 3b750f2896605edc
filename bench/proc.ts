// Process-tree helpers for benchmarks (Linux /proc).
import { readdirSync, readFileSync } from "node:fs";

interface ProcInfo {
  pid: number;
  ppid: number;
  name: string;
  rssKb: number;
}

function readProc(pid: number): ProcInfo | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    return { pid, ppid, rssKb, name: describe(cmdline) };
  } catch {
    return null;
  }
}

/** A short, recognisable name for a command line. */
function describe(cmdline: string[]): string {
  const text = cmdline.join(" ");
  if (text.includes("server start-dev")) return "temporal dev server";
  if (text.includes("worker/main.ts")) return "worker";
  if (text.includes("next-server") || /next(\/dist\/bin\/next)? start/.test(text) || text.includes("next start")) return "next (web)";
  if (text.includes("scripts/start.ts")) return "start orchestrator";
  if (text.includes("bootstrap.mjs")) return "npm start bootstrap";
  if (text.startsWith("npm")) return "npm";
  return cmdline.slice(0, 2).join(" ").slice(0, 60);
}

/** Every live descendant of `root` (inclusive) with its resident memory. */
export function processTree(root: number): ProcInfo[] {
  const all = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is ProcInfo => p !== null);
  const byParent = new Map<number, ProcInfo[]>();
  for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const rootInfo = all.find((p) => p.pid === root);
  const result: ProcInfo[] = rootInfo ? [rootInfo] : [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    for (const child of byParent.get(pid) ?? []) {
      result.push(child);
      queue.push(child.pid);
    }
  }
  return result;
}
