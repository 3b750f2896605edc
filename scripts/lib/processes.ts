// Supervises the long-running children of `npm start`: prefixes their output
// (and appends it to a log file), restarts a child that dies once the stack is
// up — with exponential backoff, giving up after too many crashes in a short
// window — and stops all of them (SIGTERM, then SIGKILL after a grace period)
// on Ctrl-C, including during a backoff wait.
//
// Hand-written rather than a library: the npm supervisors (concurrently,
// forever-monitor, respawn, pm2) spawn shell commands themselves, so they cannot
// supervise the Temporal dev server we spawn with our own stdio and log file,
// and none limits crashes per time window (concurrently only counts restarts
// in total, and only restarts non-zero exits).
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import path from "node:path";
import readline from "node:readline";

export interface RestartPolicy {
  /** Wait before the first restart; it doubles with every further crash inside `windowMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** This many crashes of one child inside `windowMs` stop everything instead of another restart. */
  maxCrashes: number;
  windowMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 1_000, maxDelayMs: 30_000, maxCrashes: 5, windowMs: 60_000 };

/** A child died and will be launched again, with the same command, after `delayMs`. */
export interface RestartNotice {
  name: string;
  reason: string;
  delayMs: number;
  /** How many times this child has been restarted, this one included. */
  restart: number;
}

/** A child died and will not be restarted: the caller should stop everything. */
export interface FatalExit {
  name: string;
  reason: string;
  /** Crashes inside the window; absent when the child died before supervision began (start-up). */
  crashes?: number;
  log?: string;
}

export interface GroupEvents {
  onRestart(notice: RestartNotice): void;
  onFatalExit(exit: FatalExit): void;
}

/** "code 1" or "signal SIGKILL": how a child ended, for one log line. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `code ${code ?? "unknown"}`;
}

interface Member {
  name: string;
  launch: () => ChildProcess;
  log?: string;
  child: ChildProcess | null;
  exited: Promise<void>;
  crashes: number[];
  restarts: number;
  timer?: NodeJS.Timeout;
}

export interface SuperviseOptions {
  /** Where this child's output goes, named when it is given up on. */
  log?: string;
}

export class ProcessGroup {
  private readonly members: Member[] = [];
  private stopping = false;
  private restarting = false;

  constructor(
    private readonly events: GroupEvents,
    private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY,
  ) {}

  /**
   * Launches a child now and supervises it; `launch` is called again, with the
   * same arguments, for every restart.
   */
  supervise(name: string, launch: () => ChildProcess, options: SuperviseOptions = {}): ChildProcess {
    const member: Member = { name, launch, log: options.log, child: null, exited: Promise.resolve(), crashes: [], restarts: 0 };
    this.members.push(member);
    const child = launch();
    this.watch(member, child);
    return child;
  }

  /** Spawns and supervises a child whose output lines are prefixed with `[name]` and appended to `options.log`. */
  spawn(name: string, command: string, args: string[], options: SpawnOptions & SuperviseOptions = {}): ChildProcess {
    const { log, ...spawnOptions } = options;
    let logStream: WriteStream | undefined;
    if (log) {
      mkdirSync(path.dirname(log), { recursive: true });
      logStream = createWriteStream(log, { flags: "a" });
    }
    const launch = (): ChildProcess => {
      const child = spawn(command, args, { ...spawnOptions, stdio: ["ignore", "pipe", "pipe"] });
      for (const stream of [child.stdout, child.stderr]) {
        if (!stream) continue;
        readline.createInterface({ input: stream }).on("line", (line) => {
          console.log(`[${name}] ${line}`);
          logStream?.write(`${line}\n`);
        });
      }
      return child;
    };
    return this.supervise(name, launch, { log });
  }

  /**
   * Start-up is over: from now on a child that dies is restarted. Before this,
   * a death is fatal, since a child that cannot even start once needs fixing,
   * not retrying.
   */
  restartOnCrash(): void {
    this.restarting = true;
  }

  /** Stops every child, newest first, cancels pending restarts, and resolves once all have exited. */
  async stopAll(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    for (const member of this.members) clearTimeout(member.timer);
    for (const member of [...this.members].reverse()) {
      const child = member.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await member.exited;
      clearTimeout(timer);
    }
  }

  private watch(member: Member, child: ChildProcess): void {
    member.child = child;
    member.exited = new Promise<void>((resolve) => {
      let done = false;
      const finish = (reason: string): void => {
        if (done) return;
        done = true;
        resolve();
        this.handleExit(member, reason);
      };
      child.once("exit", (code, signal) => finish(describeExit(code, signal)));
      // A command that cannot be spawned emits only "error" (and an unhandled one would crash us).
      child.on("error", (error) => {
        if (child.pid === undefined) finish(error.message);
      });
    });
  }

  private handleExit(member: Member, reason: string): void {
    if (this.stopping) return;
    if (!this.restarting) {
      this.events.onFatalExit({ name: member.name, reason, log: member.log });
      return;
    }
    const now = Date.now();
    member.crashes = [...member.crashes.filter((at) => now - at < this.policy.windowMs), now];
    if (member.crashes.length >= this.policy.maxCrashes) {
      this.events.onFatalExit({ name: member.name, reason, crashes: member.crashes.length, log: member.log });
      return;
    }
    const delayMs = Math.min(this.policy.initialDelayMs * 2 ** (member.crashes.length - 1), this.policy.maxDelayMs);
    member.restarts += 1;
    this.events.onRestart({ name: member.name, reason, delayMs, restart: member.restarts });
    member.timer = setTimeout(() => {
      member.timer = undefined;
      if (this.stopping) return;
      try {
        this.watch(member, member.launch());
      } catch (error) {
        // e.g. the log file cannot be opened: counts as one more crash.
        member.child = null;
        this.handleExit(member, error instanceof Error ? error.message : String(error));
      }
    }, delayMs);
  }
}
