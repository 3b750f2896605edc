// Rewrites phoenix-constraints.txt for PHOENIX_VERSION: `npx tsx scripts/test-support/phoenix-lock.ts`
// after bumping the version in phoenix.ts. pip resolves arize-phoenix==PHOENIX_VERSION in a throw-away
// venv without installing it (--dry-run --report) and every package it would install is pinned,
// one `name==version` a line: what npm test then installs on every clone (phoenix.test.ts checks the file).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runOrThrow } from "../lib/run";
import { PHOENIX_CONSTRAINTS, PHOENIX_VERSION } from "./phoenix";

interface PipReport {
  install: { metadata: { name: string; version: string } }[];
}

const HEADER = `# Every package of arize-phoenix ${PHOENIX_VERSION}'s install, pinned: scripts/test-support/phoenix.ts installs
# arize-phoenix==PHOENIX_VERSION with these as pip constraints (-c), so two clones get the same Phoenix and
# the same dependencies. Resolved on CPython %PYTHON% (%PLATFORM%); a package another platform needs and this
# list lacks is resolved freely. Written by \`npx tsx scripts/test-support/phoenix-lock.ts\`: run it after
# changing PHOENIX_VERSION, never edit by hand.
`;

/** The pins pip resolves today for arize-phoenix==PHOENIX_VERSION, sorted, with the header above. */
async function resolvePins(): Promise<string> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "zap-phoenix-lock-"));
  try {
    const venv = path.join(scratch, "venv");
    await runOrThrow("python3", ["-m", "venv", venv]);
    const python = path.join(venv, "bin", "python");
    const report = path.join(scratch, "report.json");
    await runOrThrow(python, ["-m", "pip", "install", "--dry-run", "--quiet", "--prefer-binary", "--report", report, `arize-phoenix==${PHOENIX_VERSION}`]);
    const where = await runOrThrow(python, ["-c", "import platform, sys; print('%d.%d' % sys.version_info[:2]); print(platform.system().lower() + ' ' + platform.machine())"]);
    const [pythonVersion = "?", platform = "?"] = where.stdout.trim().split("\n");
    const pins = (JSON.parse(readFileSync(report, "utf8")) as PipReport).install
      .map(({ metadata }) => `${metadata.name.toLowerCase().replace(/[._]+/g, "-")}==${metadata.version}`)
      .sort();
    return HEADER.replace("%PYTHON%", pythonVersion).replace("%PLATFORM%", platform) + pins.join("\n") + "\n";
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  writeFileSync(PHOENIX_CONSTRAINTS, await resolvePins());
  console.log(`✓ ${path.basename(PHOENIX_CONSTRAINTS)}: arize-phoenix ${PHOENIX_VERSION} and its dependencies pinned`);
}
