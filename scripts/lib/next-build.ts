// The production build of the dashboard (`.next`), rebuilt only when its
// inputs changed: `npm start` and the scale-out test (two `next start`
// processes) share it.
import path from "node:path";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fingerprint } from "./fingerprint";
import { bin, PROJECT_ROOT, runOrThrow } from "./run";

/** What the build is made of: a change to any of these makes `.next` stale. */
export const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "proxy.ts",
  "next.config.js",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
  "prisma/schema.prisma",
];

const STAMP = path.join(PROJECT_ROOT, ".next", "zap-build-fingerprint");

/** Whether `.next` holds a build of the current inputs. */
export function buildIsCurrent(): boolean {
  return existsSync(STAMP) && readFileSync(STAMP, "utf8") === fingerprint(PROJECT_ROOT, BUILD_INPUTS) && existsSync(path.join(PROJECT_ROOT, ".next", "BUILD_ID"));
}

/** Runs `next build` unless `.next` is current; says which. */
export async function buildIfStale(): Promise<string> {
  if (buildIsCurrent()) return "up to date";
  // The inputs as they are when the build starts: an edit during the build leaves it stale.
  const print = fingerprint(PROJECT_ROOT, BUILD_INPUTS);
  // NODE_ENV as `next start` will run it (a test runner sets "test", which Next refuses to build with).
  await runOrThrow(bin("next"), ["build"], { env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" } });
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, print);
  return "built";
}
