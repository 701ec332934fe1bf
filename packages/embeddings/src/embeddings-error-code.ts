/** The codes of the errors `@lookup-knowledge/embeddings` throws (`error.code`); stable, meant for programs. */
export type EmbeddingsErrorCode = "corrupt_word_table" | "invalid_embedding_input";
