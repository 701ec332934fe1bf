/** The codes of the errors `@lookup-knowledge/l0-hints` throws (`error.code`); stable, meant for programs. */
export type L0HintsErrorCode =
  | "invalid_knowledge_entry"
  /** A snapshot's bytes are not one `snapshotL0Index` wrote: damaged or another format. */
  | "invalid_l0_snapshot"
  /** A snapshot written under other settings, another text analyser or an older layout: build the index again. */
  | "stale_l0_snapshot";
