// The hints the command adds to errors: what to do next.

/** Commander's error, with a hint when a global option came after the command (where it is not read). */
export function withGlobalOptionHint(text: string): string {
  if (!/unknown option '(-c|--config|-d|--data|--store|--index|--namespace|--host|--store-url)\b/.test(text)) return text;
  return `${text.trimEnd()}\n(--config, --data and the store options go before the command: lookup-knowledge --data <dir> query "...")\n`;
}

// What to do next, for the errors a user can fix.
export const errorHints: Record<string, string> = {
  invalid_ingest_root: "Give the folder that holds your Markdown (.md, .mdx) files: `lookup-knowledge ingest <folder>`.",
  index_not_found: "Run `lookup-knowledge ingest <folder>` first, or point --data at the folder you ingested into.",
  analyzer_mismatch: "Run `lookup-knowledge ingest <folder>` again: it rebuilds the index with this version's text analysis.",
  embedder_mismatch:
    "If an earlier release's ingest built this index, run `lookup-knowledge ingest <folder>` again: it rebuilds the index with this version's embedder.",
  different_ingest_root: "Use another data folder (--data <dir>), or `lookup-knowledge ingest --replace <folder>` to replace it.",
  index_locked:
    "Wait for that ingest to finish, then run this command again (the lock of a crashed ingest on this machine is taken over at once; one from another machine goes stale after 30 s).",
  trace_not_found: "List the recorded lookups and their ids with `lookup-knowledge traces`.",
  traces_not_found: 'Run `lookup-knowledge query "..."` first, or point --data at the data folder you used.',
  trace_database_unreachable: "Check DATABASE_URL and that the server is up; lookups keep their records in the spool meanwhile.",
  trace_database_failed:
    "Check DATABASE_URL and the files its options name (sslkey, sslcert, sslrootcert); lookups keep their records in the spool meanwhile.",
  pinecone_rejected:
    "Check PINECONE_API_KEY, the index name or host, and that the index's dimension matches the embedder (356 for the offline one).",
  pinecone_unavailable: "Pinecone did not answer in time on any attempt; try again later.",
  trace_database_unavailable: "Another process may have the embedded trace database open; try again when it is done.",
  inspector_listen_failed:
    "Run `lookup-knowledge inspect --port <n>` with a free port (`--port 0` picks one), or stop the program on that port; --host picks the address.",
  invalid_calibration: "Run `lookup-knowledge calibrate --questions <file>` again to replace it, or delete it to use the defaults.",
};
