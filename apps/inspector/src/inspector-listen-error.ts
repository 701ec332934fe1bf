import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { InspectorErrorCode } from "./inspector-error-code.js";

/** The inspector could not listen on its address: `host` and `port` say which, `reason` the system's code. */
export class InspectorListenError extends LookupKnowledgeError<InspectorErrorCode> {
  readonly host: string;
  readonly port: number;
  /** The system's error code (`EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`, ...), when it gave one. */
  readonly reason: string | undefined;

  constructor(options: { host: string; port: number; cause: NodeJS.ErrnoException }) {
    const { host, port, cause } = options;
    const shown = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
    super({ code: "inspector_listen_failed", message: `Cannot serve the inspector on ${shown}: ${explain(cause, port)}`, cause });
    this.name = "InspectorListenError";
    this.host = host;
    this.port = port;
    this.reason = cause.code;
  }
}

function explain(error: NodeJS.ErrnoException, port: number): string {
  switch (error.code) {
    case "EADDRINUSE":
      return `port ${port} is already in use by another program. Choose another port (0 picks a free one), or stop the program that holds it.`;
    case "EACCES":
      return `this user may not listen on port ${port}. Choose a port above 1023 (0 picks a free one).`;
    case "EADDRNOTAVAIL":
      return "the address is not one of this machine's. Choose one of its addresses (127.0.0.1 serves this machine only).";
    default:
      return `${error.message}.`;
  }
}
