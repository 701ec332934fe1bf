// The document edits of the segments bench (issue 36): edit number `n` rewrites one document of
// SciFact x `replicas`, a different one for every n below the chunk count, spread over the
// whole index (a step that shares no factor with the chunk count). An edited chunk keeps its
// row's cached vector (embedding is not what the bench measures), so a fresh build of the
// edited chunks and an index that received the same edits one commit at a time hold the same
// records.

const step = 7919; // a prime; SciFact's 5,183 documents are 71 x 73

/** The position (row) in the replicated chunk order of the document edit `n` rewrites. */
export function editedRow(n, total) {
  return (n * step + 13) % total;
}

/** The chunk as edit `n` leaves it: the same id, document and title, a sentence added to its content. */
export function editedChunk(chunk, n) {
  const content = `${chunk.content} Revision ${n}: the findings above were reviewed again and the figures confirmed.`;
  const title = chunk.title;
  return { ...chunk, content, text: title.trim() === "" ? content : `${title}\n${content}` };
}

/** The chunks with edits 0 .. count - 1 applied (each to its own document). */
export function withEdits(chunks, count) {
  if (count > chunks.length) throw new Error(`${count} edits need ${count} documents, the index holds ${chunks.length}`);
  const edited = [...chunks];
  const rows = new Set();
  for (let n = 0; n < count; n += 1) {
    const row = editedRow(n, chunks.length);
    if (rows.has(row)) throw new Error(`edit ${n} would rewrite row ${row} again (${chunks.length} chunks share a factor with ${step})`);
    rows.add(row);
    edited[row] = editedChunk(chunks[row], n);
  }
  return edited;
}
