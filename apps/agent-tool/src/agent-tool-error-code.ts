/** The codes of the errors `@lookup-knowledge/agent-tool` throws (`error.code`); stable, meant for programs. */
export type AgentToolErrorCode =
  | "invalid_retriever_options"
  | "invalid_argument"
  | "search_failed"
  | "trace_record_build_failed"
  | "trace_flush_failed"
  | "trace_records_lost"
  | "invalid_question_file"
  | "invalid_calibration"
  | "too_few_questions";
