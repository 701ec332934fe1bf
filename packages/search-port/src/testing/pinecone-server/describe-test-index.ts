import type { PineconeTestIndex } from "./pinecone-test-index.js";

/** `GET /indexes/{name}`: what `pc.describeIndex(name)` reads, with the field map of an integrated index. */
export function describeTestIndex(index: PineconeTestIndex): Record<string, unknown> {
  const { metric, dimension } = index;
  const integrated = index.options.integrated;
  return {
    name: index.indexName,
    dimension: dimension ?? null,
    metric,
    host: index.url,
    deletion_protection: "disabled",
    tags: null,
    spec: { serverless: { cloud: "aws", region: "us-east-1" } },
    status: { ready: true, state: "Ready" },
    vector_type: "dense",
    ...(integrated === undefined
      ? {}
      : {
          embed: {
            model: integrated.model ?? "test-embedder",
            metric,
            dimension: dimension ?? null,
            vector_type: "dense",
            field_map: { text: integrated.textField },
          },
        }),
  };
}
