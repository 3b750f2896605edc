import { spawn, type SpawnOptions } from "node:child_process";
import path from "node:path";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion, capturing its output (and echoing it when `echo` is set). */
export function run(
  command: string,
  args: string[],
  options: SpawnOptions & { echo?: boolean; input?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: PROJECT_ROOT,
      ...options,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.echo) process.stdout.write(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (options.echo) process.stderr.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    if (options.input !== undefined && child.stdin) {
      // A child that exits before reading its input must not crash us with EPIPE.
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.input);
    }
  });
}

/** Like `run`, but throws a concise error (with the command's last output lines) when it fails. */
export async function runOrThrow(
  command: string,
  args: string[],
  options: SpawnOptions & { echo?: boolean; input?: string } = {},
): Promise<RunResult> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    const tail = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-25).join("\n");
    throw new CommandFailedError(`${path.basename(command)} ${args.join(" ")}`, result.code, tail);
  }
  return result;
}

export class CommandFailedError extends Error {
  constructor(
    readonly commandLine: string,
    readonly exitCode: number,
    readonly outputTail: string,
  ) {
    super(`\`${commandLine}\` exited with code ${exitCode}`);
    this.name = "CommandFailedError";
  }
}

/** Path to a binary installed in node_modules/.bin. */
export function bin(name: string): string {
  return path.join(PROJECT_ROOT, "node_modules", ".bin", name);
}
