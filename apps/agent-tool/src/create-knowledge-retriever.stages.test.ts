import { createL0Index } from "@lookup-knowledge/l0-hints";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import type { TraceStore } from "@lookup-knowledge/trace-store";
import { describe, expect, it } from "vitest";
import { createRetrieverWithStages } from "./create-knowledge-retriever.js";
import { defaultLookupStages, type LookupStages } from "./retriever/lookup-stages.js";
import { billingEntries, hit } from "./test/fixtures.js";

// The real stage functions, each wrapped to log when it runs, injected into the retriever.
const events: string[] = [];
const logged =
  <A extends unknown[], R>(name: string, run: (...args: A) => R) =>
  (...args: A): R => {
    events.push(name);
    return run(...args);
  };
const stages: LookupStages = {
  normalizeHits: logged("identity", defaultLookupStages.normalizeHits),
  postprocessCandidates: logged("post-processing", defaultLookupStages.postprocessCandidates),
  packContext: logged("context packing", defaultLookupStages.packContext),
  assessRelevance: logged("relevance", defaultLookupStages.assessRelevance),
  assessCompleteness: logged("completeness", defaultLookupStages.assessCompleteness),
  buildToolInvocationRecord: logged("trace record", defaultLookupStages.buildToolInvocationRecord),
};

describe("stage order", () => {
  it("R1: transformation -> L0 -> L1 -> post-processing -> evidence -> packing -> assembly -> trace recording", async () => {
    const index = createL0Index(billingEntries);
    const port: KnowledgeSearchPort = {
      async search(request) {
        events.push(`L1 "${request.query}"`);
        return [hit("billing/refunds", 0, 0.9, { category: "billing", title: "Refunds" }), hit("billing/refunds", 1, 0.7)];
      },
    };
    const store: TraceStore = {
      async record(invocation) {
        events.push(`store ${invocation.evidenceCount} blocks`);
      },
    };
    const retriever = createRetrieverWithStages(
      {
        searchPort: port,
        l0Index: {
          size: index.size,
          match(query) {
            events.push(`L0 "${query}"`);
            return index.match(query);
          },
        },
        traceStore: store,
      },
      stages,
    );
    events.length = 0;
    const result = await retriever.lookup("  Who can\u0000 refund?  ");
    events.push("result returned");
    expect(events).toEqual([
      'L0 "Who can refund?"',
      'L1 "Who can refund?"',
      "identity",
      "post-processing",
      "context packing",
      "relevance",
      "completeness",
      "trace record",
      "store 2 blocks",
      "result returned",
    ]);
    expect(result.found && result.contextPack.blocks.map((block) => block.evidenceKey)).toEqual([
      "billing/refunds#chunk-0",
      "billing/refunds#chunk-1",
    ]);
  });
});
