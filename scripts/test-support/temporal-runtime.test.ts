// Which errors of Runtime.install a test may shrug off: only "a runtime is already there".
import { describe, expect, it } from "vitest";
import { IllegalStateError } from "@temporalio/common";
import { runtimeAlreadyInstalled } from "./temporal-runtime";

describe("installing the test process's Temporal runtime", () => {
  it("tolerates a runtime installed, or created by a Worker, before", () => {
    expect(runtimeAlreadyInstalled(new IllegalStateError("Runtime singleton has already been installed"))).toBe(true);
    expect(runtimeAlreadyInstalled(new IllegalStateError("Runtime singleton has already been instantiated. Did you start a Worker before calling `install`?"))).toBe(true);
  });

  it("refuses every other error: a bad option, another illegal state, anything thrown", () => {
    // What the native runtime throws for an OTLP metrics URL it cannot parse.
    expect(runtimeAlreadyInstalled(new TypeError("fn runtime_new.args[0].metricsExporter.otel.url: relative URL without a base"))).toBe(false);
    expect(runtimeAlreadyInstalled(new IllegalStateError("Runtime has been shut down"))).toBe(false);
    expect(runtimeAlreadyInstalled(new Error("Runtime singleton has already been installed")), "the message alone is not the runtime's refusal").toBe(false);
    expect(runtimeAlreadyInstalled("already installed")).toBe(false);
  });
});
