import { describe, expect, test } from "vitest";
import { e2eChromium, FULL_CHROMIUM, HEADLESS_SHELL } from "./chromium";

describe("e2eChromium", () => {
  test("CHROMIUM_PATH wins, even over an installed headless shell", () => {
    expect(e2eChromium({ CHROMIUM_PATH: "/opt/chrome/chrome" }, () => true)).toBe("/opt/chrome/chrome");
  });
  test("Debian's headless shell when it is installed", () => {
    expect(e2eChromium({}, (file) => file === HEADLESS_SHELL)).toBe(HEADLESS_SHELL);
  });
  test("Debian's full chromium when the shell is not installed", () => {
    expect(e2eChromium({}, () => false)).toBe(FULL_CHROMIUM);
  });
});
