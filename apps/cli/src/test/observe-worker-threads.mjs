// Loaded with `node --import` before the bundled CLI (issue 36 item 7): watches every worker
// thread the process starts, without changing what it runs, and writes what it saw as one
// line on stderr at exit: `observed workers: [...]`. For each worker: its script (`eval` for
// code passed as a string, as the dense-scan helper is), whether it came online, whether its
// code loaded (the dense-scan helper's started flag, word 6 of its control array), its error
// and exit code, and how many messages it sent (a parse worker sends one per file parsed).
//
// With LOOKUP_KNOWLEDGE_TEST_CORES=<n> it also makes `os.availableParallelism()` say n cores
// and `os.loadavg()` say idle, so the ingest's default parse workers are those of such a
// machine (`defaultParseWorkers`): how the CLI starts them where cores sit idle.
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import workerThreads from "node:worker_threads";

const cores = Number(process.env.LOOKUP_KNOWLEDGE_TEST_CORES);
if (Number.isInteger(cores) && cores > 0) {
  os.availableParallelism = () => cores;
  os.loadavg = () => [0, 0, 0];
}

const startedWord = 6;
const seen = [];
const Original = workerThreads.Worker;

class ObservedWorker extends Original {
  constructor(script, options) {
    super(script, options);
    const control = options?.eval === true ? options.workerData?.control : undefined;
    const entry = {
      script: options?.eval === true ? "eval" : String(script),
      online: false,
      started: null,
      error: null,
      exitCode: null,
      messages: 0,
    };
    seen.push({ entry, control });
    this.on("online", () => {
      entry.online = true;
    });
    this.on("message", () => {
      entry.messages += 1;
    });
    this.on("error", (error) => {
      entry.error = error instanceof Error ? error.message : String(error);
    });
    this.on("exit", (code) => {
      entry.exitCode = code;
    });
    // A one-query process may end, and so terminate the dense-scan helper, before its thread
    // has even started: hold the process, and defer `terminate`, until the helper's code has
    // loaded (its started flag), failed or exited, so what is reported is what the code did.
    if (control !== undefined) {
      this.settled = new Promise((resolve) => {
        const deadline = Date.now() + 20_000;
        const poll = setInterval(() => {
          if (Atomics.load(control, startedWord) === 1 || entry.error !== null || entry.exitCode !== null || Date.now() > deadline) {
            clearInterval(poll);
            resolve();
          }
        }, 2);
      });
    }
  }

  terminate() {
    return this.settled === undefined ? super.terminate() : this.settled.then(() => super.terminate());
  }
}

workerThreads.Worker = ObservedWorker;
syncBuiltinESMExports();

process.on("exit", () => {
  const report = seen.map(({ entry, control }) => ({
    ...entry,
    started: control === undefined ? null : Atomics.load(control, startedWord) === 1,
  }));
  process.stderr.write(`observed workers: ${JSON.stringify(report)}\n`);
});
