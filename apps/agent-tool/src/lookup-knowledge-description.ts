/** What the model is told about `lookup_knowledge` by default, in every face (LangChain tool, MCP). */
export const lookupKnowledgeDescription =
  "Look up evidence in the company knowledge base. Call it with a focused question or keywords. " +
  "It returns evidence blocks with their document_id, source and the reasons each was chosen, " +
  "or says plainly that the knowledge base has no evidence.";
