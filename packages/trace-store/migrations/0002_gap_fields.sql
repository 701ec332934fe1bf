-- What the gaps report reads of a lookup (issue 37 item 5), derived by the database from the
-- row's retrieval_details as it is written, by every writer: the best topScore of the first three
-- attempts, the topSource of the first attempt with it, the reference threshold and the relevance
-- level. Each field is checked for its type and a number outside float8's range is null, so no
-- hand-edited row can fail a write or a read. Rows stored before this migration keep null; the
-- report derives theirs as it reads them (no table rewrite here: the migration is instant).
CREATE OR REPLACE FUNCTION lookup_knowledge_finite(value jsonb) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  exact numeric;
BEGIN
  IF value IS NULL OR jsonb_typeof(value) <> 'number' THEN RETURN NULL; END IF;
  exact := (value #>> '{}')::numeric;
  IF exact = 0 OR abs(exact) BETWEEN 1e-300 AND 1e300 THEN RETURN exact::double precision; END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION lookup_knowledge_text(value jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(value) = 'string' THEN nullif(value #>> '{}', '') END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION lookup_knowledge_gap_fields(details jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  attempts jsonb := CASE WHEN jsonb_typeof(details -> 'attempts') = 'array' THEN details -> 'attempts' END;
  score double precision;
  best double precision;
  page jsonb;
BEGIN
  FOR position IN 0..2 LOOP
    score := lookup_knowledge_finite(attempts -> position -> 'topScore');
    IF score IS NOT NULL AND (best IS NULL OR score > best) THEN
      best := score;
      page := attempts -> position -> 'topSource';
    END IF;
  END LOOP;
  RETURN jsonb_build_object(
    'score', best,
    'source', lookup_knowledge_text(page -> 'source'),
    'title', lookup_knowledge_text(page -> 'title'),
    'threshold', lookup_knowledge_finite(details -> 'referenceThreshold'),
    'level', lookup_knowledge_text(details -> 'relevanceLevel'));
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION lookup_knowledge_set_gap_fields() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.gap_fields := lookup_knowledge_gap_fields(NEW.retrieval_details);
  RETURN NEW;
END $$;--> statement-breakpoint
ALTER TABLE "tool_invocation" ADD COLUMN "gap_fields" jsonb;--> statement-breakpoint
CREATE TRIGGER tool_invocation_gap_fields BEFORE INSERT OR UPDATE ON "tool_invocation"
FOR EACH ROW EXECUTE FUNCTION lookup_knowledge_set_gap_fields();
