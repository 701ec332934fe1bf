import { type SQL, sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { KnowledgeGapRow } from "../../gaps/knowledge-gap-row.js";
import type { KnowledgeGapRowQuery } from "../../gaps/knowledge-gap-row-query.js";
import { readKnowledgeGapRow } from "./read-knowledge-gap-row.js";

/**
 * The period's refused (`found = false`) and low-relevance (`relevanceLevel` `low`) lookups,
 * failed calls left out, one row per distinct stored query, aggregated by the database (issue
 * 37 item 5). Only what grouping needs leaves it: per lookup the best attempt's top score and
 * the page behind it (its `topSource`, issue 37 item 1) and the threshold, read from the
 * `gap_fields` the database derives at each write (migration 0002), and its rank among its query's lookups;
 * then per query the counts, times, scores, newest ids and days, and the pages: each lookup's
 * best attempt's page with its best score, and of its newest lookup (a query's lookups are
 * retrieved alike) the hints, its L0 entries and, when it was answered with low relevance, its
 * evidence's sources. One statement for
 * PGlite and PostgreSQL; only the newest lookup of each query has its jsonb read, each field
 * checked for its type first, so a hand-edited row cannot fail it.
 */
export async function readKnowledgeGapRows(
  database: PgDatabase<PgQueryResultHKT>,
  query: KnowledgeGapRowQuery,
): Promise<KnowledgeGapRow[]> {
  const result = await database.execute(knowledgeGapStatement(query));
  const rows = (result as unknown as { rows: unknown[] }).rows;
  return rows.flatMap((row) => readKnowledgeGapRow(row) ?? []);
}

/** The statement of `readKnowledgeGapRows` (apart, to be explained and timed on its own). */
export function knowledgeGapStatement(query: KnowledgeGapRowQuery): SQL {
  const details = sql`tool_invocation.retrieval_details`;
  return sql`
    with gap as materialized (
      select id, query, created_at, found, at_ms, (fields ->> 'score')::float8 as top_score,
        fields ->> 'source' as top_source, fields ->> 'title' as top_title, (fields ->> 'threshold')::float8 as threshold,
        row_number() over (partition by query order by created_at desc, id desc) as recency
      from (
        -- gap_fields: what the database derived from each row's jsonb as it was written
        -- (migration 0002); a row stored before that has it derived here (offset 0: once a row).
        select id, query, created_at, found, at_ms, coalesce(gap_fields, lookup_knowledge_gap_fields(retrieval_details)) as fields
        from (
          select id, query, created_at, found, gap_fields, retrieval_details, (extract(epoch from created_at) * 1000)::float8 as at_ms
          from tool_invocation
          where created_at >= ${query.since} and created_at < ${query.until} and error is null
          offset 0
        ) as period
        offset 0
      ) as derived
      where found = false or fields ->> 'level' = 'low'
    ),
    -- json, not jsonb, for what is only sent to the reader: built as text, with no binary form to
    -- build and write out again (some 15% of the statement at 100k records).
    per_query as (
      select query,
        count(*)::int as lookups,
        (count(*) filter (where not found))::int as refused,
        min(at_ms) as first_ms, max(at_ms) as last_ms, max(top_score) as best,
        (max(top_score) filter (where not found)) as best_refused, max(threshold) as threshold,
        -- Two flat lists rather than a list of pairs: one array each to parse, not one per lookup.
        json_agg(id order by recency) filter (where recency <= ${query.maxLookupIds}) as recent_ids,
        json_agg(at_ms order by recency) filter (where recency <= ${query.maxLookupIds}) as recent_ms
      from gap group by query
    ),
    newest as (
      select gap.query, gap.found, gap.top_score,
        case when jsonb_typeof(${details} -> 'hints') = 'object' then ${details} -> 'hints' end as hints,
        case when gap.found and jsonb_typeof(${details} -> 'evidence') = 'array' then ${details} -> 'evidence' end as evidence
      from gap join tool_invocation using (id) where gap.recency = 1
    ),
    days as (
      -- Days since 1970 (UTC), written as dates by the reader: numbers group and sort faster than text.
      select query, json_agg(json_build_array(day, lookups) order by day) as per_day
      from (select query, floor(at_ms / 86400000)::int as day, count(*)::int as lookups from gap group by query, day) as counted
      group by query
    ),
    pages as (
      select query, json_agg(json_build_array(source, title, best) order by source) as pages
      from (
        select query, source, min(title) as title, max(score) as best from (
          select newest.query, ${text(sql`block`, "source")} as source, ${text(sql`block`, "title")} as title, newest.top_score as score
            from newest cross join lateral jsonb_array_elements(coalesce(newest.evidence, '[]'::jsonb)) as block
          union all
          select newest.query, ${text(sql`entry`, "source")}, ${text(sql`entry`, "title")}, null::float8
            from newest cross join lateral jsonb_array_elements(case when jsonb_typeof(newest.hints -> 'entries') = 'array'
              then newest.hints -> 'entries' else '[]'::jsonb end) as entry
          union all
          -- Grouped apart first (hashed, not sorted): one row a query and page, not one a lookup.
          select query, top_source, min(top_title), max(top_score) from gap where top_source is not null group by query, top_source
        ) as near where source is not null group by query, source
      ) as merged
      group by query
    )
    select per_query.*, newest.hints, days.per_day, pages.pages
    from per_query left join newest using (query) left join days using (query) left join pages using (query)
  `;
}

/** `value ->> 'field'` when it holds a non-empty string, else null: a number or object there is not a page. */
function text(value: SQL, field: "source" | "title"): SQL {
  const key = sql.raw(`'${field}'`);
  return sql`case when jsonb_typeof(${value} -> ${key}) = 'string' then nullif(${value} ->> ${key}, '') end`;
}
