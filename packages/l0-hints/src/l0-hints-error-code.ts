/** The codes of the errors `@lookup-knowledge/l0-hints` throws (`error.code`); stable, meant for programs. */
export type L0HintsErrorCode = "invalid_knowledge_entry";
