/**
 * The codes of the errors the `lookup-knowledge` command raises itself. The library's errors
 * keep their own codes (`index_not_found`, `trace_database_unreachable`, ...).
 */
export type CliErrorCode =
  /** The settings file cannot be read, is not JSON or not an object, or holds a refused value. */
  | "invalid_configuration"
  /** A command-line option's value is refused (`--since`, `--older-than`, `--limit`). */
  | "invalid_option"
  /** `trace <id>`: no recorded lookup has that id. */
  | "trace_not_found"
  /** `traces`: the data folder does not exist, or never recorded a lookup. */
  | "traces_not_found"
  /** `optimize`: the settings name a store that keeps no index of its own here (Pinecone, libSQL). */
  | "not_a_local_index";
