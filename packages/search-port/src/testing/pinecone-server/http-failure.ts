/** An answer that ends the request with an HTTP error, the way Pinecone words one. */
export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
