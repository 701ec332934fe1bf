/**
 * The code of the dense scan worker (`DenseScanHelper`), run with `eval: true` so it needs
 * no file of its own beside the compiled package (and runs the same from the TypeScript
 * sources under test). It waits on the control words with `Atomics.wait`; each wake-up it
 * first takes the messages queued for it (`receiveMessageOnPort`: attach a matrix's shared
 * memory and kernel, detach one, stop), then claims chunks of the current scan until none
 * is left or a newer scan has begun, writes their dot products to its own region and marks
 * each chunk with the scan's number, only while that scan is still the current one. The
 * control word numbers match dense-scan-helper.ts.
 *
 * Node runs an eval worker as a CommonJS script, or as an ES module when the process was
 * started with `--input-type=module` (`node --input-type=module -e ...`, or in
 * `NODE_OPTIONS`): a worker inherits the process's options. So the code is valid, and the
 * same, in both: no `require` (missing in a module), no `import` statement (a syntax error
 * in a script), no top-level `await`; `node:worker_threads` comes from a dynamic `import()`,
 * which both have. A module that fails to load rejects, which ends the worker with an error
 * (the helper then leaves the scans to the calling thread).
 */
export const denseScanWorkerSource = `
"use strict";
import("node:worker_threads").then(({ workerData, receiveMessageOnPort }) => {
  const { control, port } = workerData;
  const COMMAND = 0, JOB = 1, NEXT = 2, MATRIX = 3, CHUNKS = 4, ROWS = 5, STARTED = 6;
  // Loaded and about to wait: what the helper's started flag reads (a diagnostic for tests).
  Atomics.store(control, STARTED, 1);
  const matrices = new Map();
  let seen = 0;
  let stopped = false;
  while (!stopped) {
    Atomics.wait(control, COMMAND, seen);
    seen = Atomics.load(control, COMMAND);
    for (let received = receiveMessageOnPort(port); received !== undefined; received = receiveMessageOnPort(port)) {
      const message = received.message;
      if (message.type === "stop") stopped = true;
      else if (message.type === "detach") matrices.delete(message.id);
      else if (message.type === "attach") {
        try {
          const instance = new WebAssembly.Instance(message.kernel, { env: { memory: message.memory } });
          const layout = message.layout;
          matrices.set(message.id, { scan: instance.exports.scan, done: new Int32Array(message.memory.buffer, layout.doneOffset), ...layout });
        } catch {
          matrices.delete(message.id);
        }
      }
    }
    if (stopped) break;
    for (;;) {
      // JOB is 0 while a scan is being set up: its own wake-up follows. The fields read
      // between two equal loads of JOB belong to that scan.
      const job = Atomics.load(control, JOB);
      if (job === 0) break;
      const matrix = matrices.get(Atomics.load(control, MATRIX));
      const chunks = Atomics.load(control, CHUNKS);
      const rows = Atomics.load(control, ROWS);
      if (Atomics.load(control, JOB) !== job) continue;
      if (matrix === undefined) break;
      const claimed = Atomics.add(control, NEXT, 1);
      // A newer scan reset the counter meanwhile: its own wake-up follows.
      if (claimed >>> 16 !== job) break;
      const chunk = claimed & 0xffff;
      if (chunk >= chunks) break;
      const start = chunk * rows;
      const { scan, queryOffset, rowsOffset, workerOutputOffset, stride, count, done } = matrix;
      // Never past the matrix (the kernel would run on until memory ends).
      const length = Math.min(rows, count - start);
      if (!(length > 0)) break;
      try {
        scan(queryOffset, rowsOffset + start * stride, stride / 16, length, workerOutputOffset + start * 4);
      } catch {
        break;
      }
      if (Atomics.load(control, JOB) === job) Atomics.store(done, chunk, job);
    }
  }
  port.close();
});
`;
