import * as api from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { afterEach, describe, expect, it } from "vitest";
import { globalMeterInstruments } from "./global-meter-instruments.js";
import type { OpenTelemetryApi } from "./load-open-telemetry.js";
import type { TelemetryMeter } from "./telemetry-meter.js";

const openTelemetryApi = api as unknown as OpenTelemetryApi;

describe("globalMeterInstruments (the retriever's lookup metrics and the MCP server's tool-call duration)", () => {
  afterEach(() => {
    api.metrics.disable();
  });

  it("makes none while no meter provider is registered, makes them once per provider, and again when it changes", () => {
    const made: TelemetryMeter[] = [];
    const instrumentsOf = globalMeterInstruments("@lookup-knowledge/test", (meter) => {
      made.push(meter);
      return { meter };
    });
    expect(instrumentsOf(openTelemetryApi)).toBeUndefined();
    expect(made).toHaveLength(0);

    api.metrics.setGlobalMeterProvider(new MeterProvider());
    const first = instrumentsOf(openTelemetryApi);
    expect(first).toBeDefined();
    expect(instrumentsOf(openTelemetryApi)).toBe(first);
    expect(made).toHaveLength(1);

    api.metrics.disable();
    api.metrics.setGlobalMeterProvider(new MeterProvider());
    const second = instrumentsOf(openTelemetryApi);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(made).toHaveLength(2);
  });
});
