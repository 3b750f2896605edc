// No "server-only" here: the worker (plain Node) loads this module too (the ledger writer, the monitor evaluator).
import { parseEnv, type AppConfig } from "../env";

let cached: AppConfig | undefined;

/** The process's configuration, parsed once from the environment. */
export function getConfig(): AppConfig {
  cached ??= parseEnv();
  return cached;
}
