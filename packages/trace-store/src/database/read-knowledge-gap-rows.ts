import { type SQL, sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { KnowledgeGapRow } from "../gaps/knowledge-gap-row.js";
import type { KnowledgeGapRowQuery } from "../gaps/knowledge-gap-row-query.js";
import { readKnowledgeGapRow } from "./read-knowledge-gap-row.js";

/**
 * The period's refused (`found = false`) and low-relevance (`relevanceLevel` `low`) lookups,
 * failed calls left out, one row per distinct stored query, aggregated by the database (issue
 * 37 item 5). Only what grouping needs leaves it: per lookup the best attempt's top score (a
 * lookup makes at most two attempts; a third is read too) and the page behind it (its
 * `topSource`, issue 37 item 1), the threshold and its rank among its query's lookups;
 * then per query the counts, times, scores, newest ids and days, and the pages: each lookup's
 * best attempt's page with its best score, and of its newest lookup (a query's lookups are
 * retrieved alike) the hints, its L0 entries and, when it was answered with low relevance, its
 * evidence's sources. One statement for
 * PGlite and PostgreSQL; every jsonb field is checked for its type before it is read, so a
 * hand-edited row cannot fail it.
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
  const attempts = sql`read.attempts`;
  const page = sql`scored.page`;
  return sql`
    with gap as materialized (
      select id, query, created_at, found, at_ms, top_score, threshold,
        ${text(page, "source")} as top_source, ${text(page, "title")} as top_title,
        row_number() over (partition by query order by created_at desc, id desc) as recency
      from (
        -- The page behind the best attempt's score (its topSource; absent in older records).
        select id, query, created_at, found, at_ms, top_score, threshold,
          case when top_score is null then null
            when first_score = top_score then attempts #> '{0,topSource}'
            when second_score = top_score then attempts #> '{1,topSource}'
            else attempts #> '{2,topSource}' end as page
        from (
          select *, greatest(first_score, second_score, third_score) as top_score from (
            select id, query, created_at, found, attempts,
              (extract(epoch from created_at) * 1000)::float8 as at_ms,
              ${number(attempts, "0,topScore")} as first_score, ${number(attempts, "1,topScore")} as second_score,
              ${number(attempts, "2,topScore")} as third_score,
              case when jsonb_typeof(threshold) = 'number' then (threshold #>> '{}')::float8 end as threshold
            from (
              -- Each field read from the stored jsonb decompresses it whole: two reads a lookup
              -- (three for one that found evidence), the rest from these small values; offset 0
              -- keeps them read once, and only numbers and the best page go on to the sort.
              select id, query, created_at, found, retrieval_details -> 'attempts' as attempts,
                retrieval_details -> 'referenceThreshold' as threshold
              from tool_invocation
              where created_at >= ${query.since} and created_at < ${query.until} and error is null
                and (found = false or retrieval_details ->> 'relevanceLevel' = 'low')
              offset 0
            ) as read
            -- offset 0 (here and below): each value is worked out once a row, not once a
            -- mention (the planner would otherwise copy the expressions into every use).
            offset 0
          ) as numbers
        ) as scores
        offset 0
      ) as scored
    ),
    per_query as (
      select query,
        count(*)::int as lookups,
        (count(*) filter (where not found))::int as refused,
        min(at_ms) as first_ms, max(at_ms) as last_ms, max(top_score) as best,
        (max(top_score) filter (where not found)) as best_refused, max(threshold) as threshold,
        jsonb_agg(jsonb_build_array(id, at_ms) order by recency) filter (where recency <= ${query.maxLookupIds}) as recent
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
      select query, jsonb_agg(jsonb_build_array(day, lookups) order by day) as per_day
      from (select query, floor(at_ms / 86400000)::int as day, count(*)::int as lookups from gap group by query, day) as counted
      group by query
    ),
    pages as (
      select query, jsonb_agg(jsonb_build_array(source, title, best) order by source) as pages
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

/** The number at `path` (comma-separated) of `value`, or null when something else is there. */
function number(value: SQL, path: string): SQL {
  const at = sql.raw(`'{${path}}'`);
  return sql`case when jsonb_typeof(${value} #> ${at}) = 'number' then (${value} #>> ${at})::float8 end`;
}

/** `value ->> 'field'` when it holds a non-empty string, else null: a number or object there is not a page. */
function text(value: SQL, field: "source" | "title"): SQL {
  const key = sql.raw(`'${field}'`);
  return sql`case when jsonb_typeof(${value} -> ${key}) = 'string' then nullif(${value} ->> ${key}, '') end`;
}
