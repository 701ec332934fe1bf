import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The longest line read as a message (the SDK's own stdio limit). */
export const maxLineBytes = 10 * 1024 * 1024;

/**
 * MCP over stdio, a JSON-RPC message per line, that answers what it cannot read instead of
 * ending: a line that is not JSON gets a parse error (-32700), one that is no JSON-RPC message
 * an invalid request (-32600), and a line longer than `maxLineBytes` is dropped to its end and
 * answered with an invalid request that says so; the server keeps serving. (The SDK's stdio
 * transport closes on a long line, so the server ended with exit 0 and no word, and it
 * answered bad lines with nothing.) Each problem is also written to stderr.
 */
export class StdioLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** True while the rest of a line that was too long is being dropped. */
  private dropping = false;
  private started = false;
  private readonly onData = (chunk: Buffer): void => this.receive(chunk);
  private readonly onError = (error: Error): void => this.onerror?.(error);

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxBytes = maxLineBytes,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error("StdioLineTransport already started");
    this.started = true;
    this.input.on("data", this.onData);
    this.input.on("error", this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off("data", this.onData);
    this.input.off("error", this.onError);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.pending = [];
    this.pendingBytes = 0;
    this.onclose?.();
  }

  private receive(chunk: Buffer | string): void {
    let data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    for (;;) {
      const end = data.indexOf(0x0a);
      const piece = end === -1 ? data : data.subarray(0, end);
      if (!this.dropping) {
        if (this.pendingBytes + piece.length > this.maxBytes) {
          this.dropping = true;
          this.pending = [];
          this.pendingBytes = 0;
        } else {
          this.pending.push(piece);
          this.pendingBytes += piece.length;
        }
      }
      if (end === -1) return;
      data = data.subarray(end + 1);
      if (this.dropping) {
        this.dropping = false;
        this.refuse(-32600, `Invalid Request: a line longer than ${this.maxBytes} bytes was dropped`);
        continue;
      }
      const line = Buffer.concat(this.pending).toString("utf8").replace(/\r$/, "");
      this.pending = [];
      this.pendingBytes = 0;
      if (line.trim() !== "") this.deliver(line);
    }
  }

  private deliver(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.refuse(-32700, "Parse error: a line that is not JSON was received");
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.refuse(-32600, "Invalid Request: a line that is no JSON-RPC 2.0 message was received", idOf(json));
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private refuse(code: number, message: string, id: string | number | null = null): void {
    process.stderr.write(`lookup-knowledge mcp: ${message}\n`);
    // JSON-RPC 2.0: an error about a request whose id cannot be read carries id null.
    this.output.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }
}

function idOf(json: unknown): string | number | null {
  if (json === null || typeof json !== "object") return null;
  const id = (json as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}
