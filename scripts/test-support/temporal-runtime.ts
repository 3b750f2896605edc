// The Temporal runtime of a test process: installed once with the options a
// test asks for (quiet logs), tolerating only a runtime that is already there.
import { IllegalStateError } from "@temporalio/common";
import { Runtime, type RuntimeOptions } from "@temporalio/worker";

/**
 * Runtime.install's refusal because this process already has its runtime (a native singleton that test
 * files sharing a process share): installed by an earlier install, or created by a Worker started first.
 */
export function runtimeAlreadyInstalled(error: unknown): boolean {
  return error instanceof IllegalStateError && /^Runtime singleton has already been (installed|instantiated)\b/.test(error.message);
}

/**
 * Installs the process's Temporal runtime. A runtime already there is no failure (test files share a
 * process); any other error is: a bad option or a native module that does not load must fail the test,
 * not leave it running on a runtime it did not ask for.
 */
export function installRuntime(options: RuntimeOptions): void {
  try {
    Runtime.install(options);
  } catch (error) {
    if (!runtimeAlreadyInstalled(error)) throw error;
  }
}
