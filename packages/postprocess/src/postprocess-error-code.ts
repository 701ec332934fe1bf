/** The codes of the errors `@lookup-knowledge/postprocess` throws (`error.code`); stable, meant for programs. */
export type PostprocessErrorCode = "invalid_argument";
