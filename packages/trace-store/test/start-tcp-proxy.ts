import { connect, createServer, type Server, type Socket } from "node:net";

/** A TCP proxy to a server that a test can cut: every connection dropped at once, as when the server dies. */
export interface TcpProxy {
  readonly port: number;
  /** Chunks of data forwarded so far, both ways. */
  readonly chunks: number;
  /** Destroys every connection and refuses new ones until `restore`. */
  cut(): Promise<void>;
  /** Cuts as soon as `count` more chunks have been forwarded; resolves when it has. */
  cutAfterChunks(count: number): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (a free port) to `host:port`. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let listenPort = 0;
  let chunks = 0;
  let pendingCut: { at: number; resolve: () => void } | undefined;

  function forwarded(): void {
    chunks += 1;
    if (pendingCut && chunks >= pendingCut.at) {
      const { resolve } = pendingCut;
      pendingCut = undefined;
      void stop().then(resolve);
    }
  }

  async function listen(): Promise<void> {
    const next = createServer((client) => {
      if (!server) {
        client.destroy();
        return;
      }
      const upstream = connect(port, host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.on("data", (data) => {
        upstream.write(data);
        forwarded();
      });
      upstream.on("data", (data) => {
        client.write(data);
        forwarded();
      });
      client.on("end", () => upstream.end());
      upstream.on("end", () => client.end());
    });
    await new Promise<void>((resolve, reject) => {
      next.once("error", reject);
      next.listen(listenPort, "127.0.0.1", () => resolve());
    });
    const address = next.address();
    if (address && typeof address === "object") listenPort = address.port;
    server = next;
  }

  async function stop(): Promise<void> {
    const current = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  await listen();
  return {
    port: listenPort,
    get chunks() {
      return chunks;
    },
    cut: stop,
    cutAfterChunks(count) {
      return new Promise<void>((resolve) => {
        pendingCut = { at: chunks + Math.max(1, count), resolve };
      });
    },
    async restore() {
      pendingCut = undefined;
      if (!server) await listen();
    },
    close: async () => {
      pendingCut = undefined;
      await stop();
    },
  };
}
