import { describe, expect, it } from "vitest";
import { describeEndpoint, parseTelemetryEnv, TelemetryConfigError } from "./config";

describe("parseTelemetryEnv", () => {
  it("is off without an endpoint, and when the SDK or the traces exporter is disabled", () => {
    expect(parseTelemetryEnv({})).toBeNull();
    expect(parseTelemetryEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:6006", OTEL_SDK_DISABLED: "true" })).toBeNull();
    expect(parseTelemetryEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:6006", OTEL_TRACES_EXPORTER: "none" })).toBeNull();
  });

  it("appends /v1/traces to the base endpoint, and takes the traces endpoint as it is", () => {
    expect(parseTelemetryEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:6006/" })?.tracesUrl).toBe("http://127.0.0.1:6006/v1/traces");
    expect(parseTelemetryEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:1", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://b/otlp/traces" })?.tracesUrl).toBe("https://b/otlp/traces");
  });

  it("reads headers, the service name, resource attributes and the batch limits", () => {
    const config = parseTelemetryEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:6006",
      OTEL_EXPORTER_OTLP_HEADERS: "api_key=abc%3D%3D, x-team=zap",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-team=ops",
      OTEL_SERVICE_NAME: "zap-worker",
      OTEL_RESOURCE_ATTRIBUTES: "openinference.project.name=zap",
      OTEL_BSP_MAX_QUEUE_SIZE: "100",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "500",
    });
    expect(config).toMatchObject({
      headers: { api_key: "abc==", "x-team": "ops" },
      serviceName: "zap-worker",
      resourceAttributes: { "openinference.project.name": "zap" },
      maxQueueSize: 100,
      maxExportBatchSize: 100,
      scheduleDelayMs: 5000,
      timeoutMs: 10_000,
    });
  });

  it("refuses a bad value by its variable, without echoing header values", () => {
    const refusal = (env: Record<string, string>) => {
      try {
        parseTelemetryEnv(env);
      } catch (error) {
        return error instanceof TelemetryConfigError ? error.message : `unexpected: ${String(error)}`;
      }
      return "accepted";
    };
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://x" })).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT: expected an http\(s\) URL/);
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toMatch(/^OTEL_EXPORTER_OTLP_PROTOCOL: only http\/protobuf/);
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_BSP_MAX_QUEUE_SIZE: "0" })).toMatch(/^OTEL_BSP_MAX_QUEUE_SIZE:/);
    const headers = refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_EXPORTER_OTLP_HEADERS: "secret-token-without-key" });
    expect(headers).toMatch(/^OTEL_EXPORTER_OTLP_HEADERS:/);
    expect(headers).not.toContain("secret-token");
  });

  it("describes the endpoint without credentials", () => {
    const config = parseTelemetryEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://user:pw@collector.example/v1/traces?token=x" });
    expect(config && describeEndpoint(config)).toBe("https://collector.example/v1/traces");
  });
});
