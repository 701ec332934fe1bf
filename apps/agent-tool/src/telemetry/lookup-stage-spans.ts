import { describeException, errorAttributes } from "./lookup-span-attributes.js";
import type { OpenTelemetryApi } from "./load-open-telemetry.js";
import {
  spanKindInternal,
  spanStatusError,
  type TelemetryAttributes,
  type TelemetrySpan,
  type TelemetryTracer,
} from "./telemetry-tracer.js";

/** The stages of one lookup that get a span of their own, in the order they run (R1). */
export const lookupStageNames = ["hints", "attempt", "rerank", "pack", "record"] as const;

export type LookupStageName = (typeof lookupStageNames)[number];

/** The span name of a stage: `lookup_knowledge.<stage>` (the conventions name no such spans). */
export function stageSpanName(stage: LookupStageName): string {
  return `lookup_knowledge.${stage}`;
}

/** One stage's span, as the orchestrator sees it. */
export interface StageSpan {
  /** Ends the span with what the stage found. */
  end(attributes?: TelemetryAttributes): void;
  /** Ends the span as failed (status ERROR, `error.type`, the exception without a stack). */
  fail(error: unknown): void;
}

/**
 * How a lookup's stages report: the retriever passes one of these to its stages only while
 * the lookup's span is recording, so with OpenTelemetry off a stage pays one null check
 * (`spans?.start(...)`). Each stage span is a child of the lookup's `retrieval` span, or of
 * the `parent` stage (rerank under its attempt).
 */
export interface LookupStageSpans {
  start(stage: LookupStageName, attributes?: TelemetryAttributes, parent?: StageSpan): StageSpan;
}

/**
 * The stage spans of the lookup whose span is `lookupSpan`, or `undefined` when the tracer
 * cannot start a span without activating it. With the API loaded each span is parented
 * explicitly (no context manager needed across `await`); with only a `telemetry.tracer` and
 * no API, the tracer's active context is the parent.
 */
export function createLookupStageSpans(
  tracer: TelemetryTracer,
  api: OpenTelemetryApi | undefined,
  lookupSpan: TelemetrySpan,
  includeContent: boolean,
): LookupStageSpans | undefined {
  const startSpan = tracer.startSpan?.bind(tracer);
  if (!startSpan) return undefined;
  const lookupContext = api ? api.trace.setSpan(api.context.active(), lookupSpan) : undefined;
  const contexts = new WeakMap<StageSpan, unknown>();

  return {
    start(stage, attributes = {}, parent) {
      const parentContext = parent === undefined ? lookupContext : (contexts.get(parent) ?? lookupContext);
      const span = startSpan(stageSpanName(stage), { kind: spanKindInternal, attributes }, parentContext);
      let ended = false;
      const stageSpan: StageSpan = {
        end(endAttributes) {
          if (ended) return;
          ended = true;
          if (endAttributes) span.setAttributes(endAttributes);
          span.end();
        },
        fail(error) {
          if (ended) return;
          ended = true;
          const exception = describeException(error, includeContent);
          span.setAttributes(errorAttributes(error, undefined, false));
          span.recordException(exception);
          span.setStatus({ code: spanStatusError, message: exception.message });
          span.end();
        },
      };
      if (api && parentContext !== undefined) contexts.set(stageSpan, api.trace.setSpan(parentContext, span));
      return stageSpan;
    },
  };
}
