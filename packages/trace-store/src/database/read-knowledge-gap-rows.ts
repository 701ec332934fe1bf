import { type SQL, sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { KnowledgeGapRow } from "../gaps/knowledge-gap-row.js";
import type { KnowledgeGapRowQuery } from "../gaps/knowledge-gap-row-query.js";
import { readKnowledgeGapRow } from "./read-knowledge-gap-row.js";

/**
 * The period's refused (`found = false`) and low-relevance (`relevanceLevel` `low`) lookups,
 * failed calls left out, one row per distinct stored query, aggregated by the database (issue
 * 37 item 5): only the fields grouping needs leave it (the top score of the attempts, the
 * threshold, the newest hints without their entries, the pages' sources and titles), never a
 * whole record. One statement for PGlite and PostgreSQL; every jsonb field is checked for its
 * type before it is read, so a hand-edited row cannot fail the statement.
 */
export async function readKnowledgeGapRows(
  database: PgDatabase<PgQueryResultHKT>,
  query: KnowledgeGapRowQuery,
): Promise<KnowledgeGapRow[]> {
  const result = await database.execute(sql`
    with gap as (
      select id, query, created_at, found,
        (extract(epoch from created_at) * 1000)::float8 as at_ms,
        (select max(case when jsonb_typeof(attempt -> 'topScore') = 'number' then (attempt ->> 'topScore')::float8 end)
           from jsonb_array_elements(case when jsonb_typeof(retrieval_details -> 'attempts') = 'array'
             then retrieval_details -> 'attempts' else '[]'::jsonb end) as attempt) as top_score,
        case when jsonb_typeof(retrieval_details -> 'referenceThreshold') = 'number'
          then (retrieval_details ->> 'referenceThreshold')::float8 end as threshold,
        case when jsonb_typeof(retrieval_details -> 'hints') = 'object' then retrieval_details -> 'hints' end as hints,
        case when jsonb_typeof(retrieval_details -> 'evidence') = 'array' then retrieval_details -> 'evidence' end as evidence
      from tool_invocation
      where created_at >= ${query.since} and created_at < ${query.until} and error is null
        and (found = false or retrieval_details ->> 'relevanceLevel' = 'low')
    ),
    per_query as (
      select query,
        count(*)::int as lookups,
        (count(*) filter (where not found))::int as refused,
        min(at_ms) as first_ms, max(at_ms) as last_ms, max(top_score) as best, (max(top_score) filter (where not found)) as best_refused, max(threshold) as threshold,
        (array_agg(hints - 'entries' order by created_at desc, id desc))[1] as hints,
        to_jsonb((array_agg(jsonb_build_array(id, at_ms) order by created_at desc, id desc))[1:${query.maxLookupIds}]) as recent
      from gap group by query
    ),
    days as (
      select query, jsonb_agg(jsonb_build_array(day, lookups) order by day) as per_day
      from (select query, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as lookups
            from gap group by query, day) as counted
      group by query
    ),
    pages as (
      select query, jsonb_agg(jsonb_build_array(source, title, best) order by source) as pages
      from (
        select query, source, min(title) as title, max(score) as best from (
          select gap.query, ${text(sql`block`, "source")} as source, ${text(sql`block`, "title")} as title, gap.top_score as score
            from gap cross join lateral jsonb_array_elements(coalesce(gap.evidence, '[]'::jsonb)) as block
          union all
          select gap.query, ${text(sql`entry`, "source")}, ${text(sql`entry`, "title")}, null::float8
            from gap cross join lateral jsonb_array_elements(case when jsonb_typeof(gap.hints -> 'entries') = 'array'
              then gap.hints -> 'entries' else '[]'::jsonb end) as entry
        ) as near where source is not null and source <> '' group by query, source
      ) as merged
      group by query
    )
    select per_query.*, days.per_day, pages.pages
    from per_query left join days using (query) left join pages using (query)
  `);
  const rows = (result as unknown as { rows: unknown[] }).rows;
  return rows.flatMap((row) => readKnowledgeGapRow(row) ?? []);
}

/** `value ->> 'field'` when it holds a non-empty string, else null: a number or object there is not a page. */
function text(value: SQL, field: "source" | "title"): SQL {
  return sql`case when jsonb_typeof(${value} -> ${sql.raw(`'${field}'`)}) = 'string' then nullif(${value} ->> ${sql.raw(`'${field}'`)}, '') end`;
}
