// Preloaded into the CLI's process (`node --import`): at exit, writes the process's CPU time
// and peak RSS to the file named by BENCH_USAGE_FILE.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  const cpu = process.cpuUsage();
  const usage = { cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify(usage));
});
