import { LookupKnowledgeError, errorMessage, type LookupResult, type RagConfig } from "@lookup-knowledge/core";
import { createTraceRecorder, type TraceStore } from "@lookup-knowledge/trace-store/recording";
import type { LookupStages } from "./lookup-stages.js";
import type { AgentToolErrorCode } from "../agent-tool-error-code.js";

export interface LookupRecording {
  /** Stage 8 of R1: records one lookup; never throws and never waits on the store (R29). */
  record(result: LookupResult, startedAt: Date, started: number, error?: string): void;
  flushTraces(): Promise<{ recorded: number; pending: number }>;
  close(): Promise<void>;
}

export interface LookupRecordingOptions {
  traceStore: TraceStore | undefined;
  toolName: string;
  config: Readonly<RagConfig>;
  stages: LookupStages;
  onTraceError: (error: LookupKnowledgeError) => void;
}

/**
 * The trace side of a retriever: builds each lookup's record and hands it to the recorder,
 * flushes the recorder and then the store, and on close reports what could not be written.
 * Without a trace store every call is a no-op.
 */
export function recordLookups(options: LookupRecordingOptions): LookupRecording {
  const { traceStore, toolName, config, stages, onTraceError } = options;
  const recorder = traceStore ? createTraceRecorder(traceStore, { onError: onTraceError }) : undefined;

  function record(result: LookupResult, startedAt: Date, started: number, error?: string): void {
    if (!recorder) return;
    try {
      recorder.record(
        stages.buildToolInvocationRecord({
          result,
          toolName,
          startedAt,
          durationMs: performance.now() - started,
          maxQueryLength: config.maxQueryLength,
          ...(error === undefined ? {} : { error }),
        }),
      );
    } catch (cause) {
      onTraceError(
        new LookupKnowledgeError<AgentToolErrorCode>({
          code: "trace_record_build_failed",
          message: `The trace record of a lookup could not be built: ${errorMessage(cause)}`,
          cause,
        }),
      );
    }
  }

  /**
   * Lets the store move its records to where they are kept, hands it the recorder's waiting
   * records, and moves those too (a store whose spool was full takes them only after a flush
   * made room). A failure is reported, not thrown.
   */
  async function flushTraces(): Promise<{ recorded: number; pending: number }> {
    if (recorder && recorder.pending > 0) await flushStore();
    const outcome = recorder ? await recorder.flush() : { recorded: 0, pending: 0 };
    await flushStore();
    return outcome;
  }

  async function flushStore(): Promise<void> {
    if (typeof traceStore?.flush === "function") {
      try {
        await traceStore.flush();
      } catch (cause) {
        onTraceError(
          LookupKnowledgeError.isInstance(cause)
            ? cause
            : new LookupKnowledgeError<AgentToolErrorCode>({
                code: "trace_flush_failed",
                message: `The trace store could not flush: ${errorMessage(cause)}`,
                cause,
              }),
        );
      }
    }
  }

  async function close(): Promise<void> {
    const { pending } = await flushTraces();
    // The last chance: what the recorder still holds is gone once the process ends.
    if (pending === 0) return;
    const records = pending === 1 ? "1 trace record" : `${pending} trace records`;
    onTraceError(
      new LookupKnowledgeError<AgentToolErrorCode>({
        code: "trace_records_lost",
        message:
          `${records} could not be written and ${pending === 1 ? "is" : "are"} lost: the trace store still refused ` +
          `${pending === 1 ? "it" : "them"} when the retriever closed (see the earlier trace error for why).`,
        retryable: false,
      }),
    );
  }

  return { record, flushTraces, close };
}
