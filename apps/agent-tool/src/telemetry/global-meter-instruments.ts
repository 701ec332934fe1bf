import type { OpenTelemetryApi } from "./load-open-telemetry.js";
import type { TelemetryMeter } from "./telemetry-meter.js";

/**
 * The instruments `create` makes on the global meter of `scope`, made again when the global
 * meter provider changes (one can be registered after the instruments' user was made: the
 * API's meters are not proxies, unlike its tracers), and `undefined` while no meter provider
 * is registered (the API's no-op meter): nothing is measured rather than recorded into a no-op.
 */
export function globalMeterInstruments<T>(scope: string, create: (meter: TelemetryMeter) => T): (api: OpenTelemetryApi) => T | undefined {
  let cached: { provider: unknown; instruments: T | undefined } | undefined;
  return (api) => {
    const provider = api.metrics.getMeterProvider();
    if (cached !== undefined && cached.provider === provider) return cached.instruments;
    const meter = api.metrics.getMeter(scope);
    const instruments = meter === api.createNoopMeter?.() ? undefined : create(meter);
    cached = { provider, instruments };
    return instruments;
  };
}
