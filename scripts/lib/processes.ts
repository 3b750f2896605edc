// Supervises the long-running children of `npm start`: prefixes their output,
// and stops all of them (SIGTERM, then SIGKILL after a grace period) when one
// dies or when the user presses Ctrl-C.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import readline from "node:readline";

interface Supervised {
  name: string;
  child: ChildProcess;
  exited: Promise<number>;
}

export class ProcessGroup {
  private readonly members: Supervised[] = [];
  private stopping = false;
  private readonly onUnexpectedExit: (name: string, code: number) => void;

  constructor(onUnexpectedExit: (name: string, code: number) => void) {
    this.onUnexpectedExit = onUnexpectedExit;
  }

  /** Adopts an already-spawned child (e.g. the Temporal dev server). */
  adopt(name: string, child: ChildProcess): void {
    const exited = new Promise<number>((resolve) => {
      child.once("exit", (code, signal) => {
        const result = code ?? (signal ? 128 : 1);
        if (!this.stopping) this.onUnexpectedExit(name, result);
        resolve(result);
      });
    });
    this.members.push({ name, child, exited });
  }

  /** Spawns a child whose output lines are prefixed with `[name]`. */
  spawn(name: string, command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      readline.createInterface({ input: stream }).on("line", (line) => console.log(`[${name}] ${line}`));
    }
    this.adopt(name, child);
    return child;
  }

  /** Stops every child, newest first, and resolves once all have exited. */
  async stopAll(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    for (const member of [...this.members].reverse()) {
      if (member.child.exitCode !== null || member.child.signalCode !== null) continue;
      member.child.kill("SIGTERM");
      const timer = setTimeout(() => member.child.kill("SIGKILL"), graceMs);
      await member.exited;
      clearTimeout(timer);
    }
  }
}
