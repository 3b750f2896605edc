// Entry point of `npm start` and `npm test`. It runs before dependencies may
// exist, so it uses nothing but Node itself: install (or refresh) node_modules
// when package.json/package-lock.json changed, then hand over to the
// TypeScript orchestrator in scripts/<mode>.ts.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { dependenciesUpToDate, markDependenciesInstalled } from "./lib/deps-fingerprint.mjs";

const root = path.resolve(import.meta.dirname, "..");
const mode = process.argv[2];
if (mode !== "start" && mode !== "test") {
  console.error("usage: node scripts/bootstrap.mjs start|test");
  process.exit(2);
}

if (!dependenciesUpToDate(root)) {
  const started = Date.now();
  console.log("▸ dependencies: installing (npm install)…");
  // `npm ci` is not used: the registry mirror lacks some non-Linux optional binaries. --prefer-offline: a package
  // npm already holds in its cache (same version and integrity, from the lockfile) is not asked of the registry again.
  const result = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) {
    console.error("✗ dependencies: `npm install` failed; check your network access to the npm registry, then run the command again.");
    process.exit(1);
  }
  markDependenciesInstalled(root);
  console.log(`✓ dependencies installed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
} else {
  console.log("✓ dependencies up to date");
}

// Node with tsx's loader, not the tsx CLI: the CLI relays Ctrl-C to its child and,
// when the child does not confirm receipt within 30 ms (a busy event loop, as
// while processes restart), SIGKILLs it, so the orchestrator died mid-shutdown,
// never printed "✓ stopped" and could leave its children behind.
const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", `${mode}.ts`), ...process.argv.slice(3)], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
// The orchestrator handles Ctrl-C itself (the terminal signals the whole group);
// this process just waits for it to finish.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
