// Which Chromium the e2e suites drive. Debian builds two browsers from its chromium source package: `chromium`
// (the full browser, headless by flag) and `chromium-headless-shell` (the same Blink and V8 without the browser
// shell around them — what Playwright itself runs for headless tests). The shell drives the same pages for
// 40 % of the CPU (three spec files: 25.4 against 63.5 CPU-s, 2026-11-30), so e2e prefers it when installed.
import { existsSync } from "node:fs";

export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const FULL_CHROMIUM = "/usr/bin/chromium";

/**
 * CHROMIUM_PATH when set (whatever it names: a missing file is reported by the caller), else Debian's headless
 * shell when installed, else Debian's full chromium.
 */
export function e2eChromium(env: Record<string, string | undefined> = process.env, exists: (file: string) => boolean = existsSync): string {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return exists(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}
