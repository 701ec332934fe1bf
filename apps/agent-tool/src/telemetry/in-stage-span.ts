import type { StageSpan } from "./lookup-stage-spans.js";
import type { TelemetryAttributes } from "./telemetry-tracer.js";

/**
 * Runs one synchronous stage in `span` (none: OpenTelemetry is off, `work` just runs): the span
 * ends with `attributes` of what the stage returned, or as failed when it throws, so a stage
 * that throws never leaves its span open.
 */
export function inStageSpan<T>(span: StageSpan | undefined, work: () => T, attributes: (value: T) => TelemetryAttributes): T {
  if (span === undefined) return work();
  let value: T;
  try {
    value = work();
  } catch (error) {
    span.fail(error);
    throw error;
  }
  span.end(attributes(value));
  return value;
}
