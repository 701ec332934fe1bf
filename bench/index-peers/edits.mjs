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

/**
 * The chunks of `chunks` (any iterable of `total` chunks, read once, in order) with edits
 * 0 .. count - 1 applied (each to its own document), yielded one by one as they are read.
 */
export function* editedChunks(chunks, total, count) {
  if (count > total) throw new Error(`${count} edits need ${count} documents, the index holds ${total}`);
  const edits = new Map();
  for (let n = 0; n < count; n += 1) {
    const row = editedRow(n, total);
    if (edits.has(row)) throw new Error(`edit ${n} would rewrite row ${row} again (${total} chunks share a factor with ${step})`);
    edits.set(row, n);
  }
  let row = 0;
  for (const chunk of chunks) {
    const n = edits.get(row);
    yield n === undefined ? chunk : editedChunk(chunk, n);
    row += 1;
  }
}

/** The chunks with edits 0 .. count - 1 applied (each to its own document). */
export function withEdits(chunks, count) {
  return [...editedChunks(chunks, chunks.length, count)];
}
