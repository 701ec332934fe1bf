import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { serveInspector } from "@lookup-knowledge/inspector";
import { openKnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import type { DurableTraceStore } from "@lookup-knowledge/trace-store";
import type { CliConfig } from "./cli-config.js";
import { CliError } from "./cli-error.js";
import { redactSecrets } from "./redact-secrets.js";
import { openCliTraceStore } from "./traces-command.js";

export interface InspectCommandOptions {
  host?: string;
  port?: string;
}

/**
 * `lookup-knowledge inspect [--port N] [--host 127.0.0.1]`: serves the inspector page over
 * the data folder's knowledge base and its recorded lookups (read from the trace store
 * `traces` reads) until SIGINT / SIGTERM. The page's own lookups are never recorded.
 */
export async function runInspectCommand(config: CliConfig, options: InspectCommandOptions, warn: (message: string) => void): Promise<void> {
  const port = readPort(options.port);
  const signal = untilSignal();
  try {
    const knowledgeBase = await openKnowledgeBase({
      dataDirectory: config.dataDirectory,
      store: config.store,
      config: config.ragKeys,
      onWarning: warn,
    });
    try {
      // Opened on the first request that finds a trace store, and closed with the server: a
      // page started before the first lookup shows the lookups recorded after it.
      const server = await serveInspector({
        knowledgeBase,
        traces: async () => openTraces(config),
        queryStorage: config.traces.queryStorage,
        storeDescription: redactSecrets(knowledgeBase.store.description),
        redact: (text) => redactSecrets(text),
        ...(options.host ? { host: options.host } : {}),
        port,
      });
      console.error(`lookup-knowledge inspect: serving ${server.url} (the inspector page); Ctrl-C stops it`);
      const host = options.host ?? "127.0.0.1";
      if (!/^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\])$/.test(host)) {
        warn(`serving ${host}: anyone who can reach this machine can read the traces and run lookups (the inspector has no login)`);
      }
      await signal.signalled;
      await server.close();
    } finally {
      await knowledgeBase.close();
    }
  } finally {
    signal.release();
  }
}

/** The data folder's trace store, or none while no lookup was recorded there yet (the page says so). */
function openTraces(config: CliConfig): DurableTraceStore | undefined {
  try {
    return openCliTraceStore(config);
  } catch (error) {
    if (LookupKnowledgeError.isInstance(error) && error.code === "traces_not_found") return undefined;
    throw error;
  }
}

function readPort(value: string | undefined): number {
  if (value === undefined) return 4555;
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port > 65_535) {
    throw new CliError({
      code: "invalid_option",
      message: `--port must be a whole number from 0 to 65535, got ${JSON.stringify(value.slice(0, 20))}.`,
    });
  }
  return port;
}

/**
 * Resolves on the first SIGINT or SIGTERM. The listeners stay until `release`: the trace
 * database's file lock (signal-exit) re-sends a signal that no other listener is left to
 * handle, which would kill the process before it has closed its stores.
 */
function untilSignal(): { signalled: Promise<void>; release(): void } {
  let stop = () => {};
  const signalled = new Promise<void>((resolve) => {
    stop = () => resolve();
  });
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return {
    signalled,
    release: () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    },
  };
}
