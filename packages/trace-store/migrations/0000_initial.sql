CREATE TABLE "tool_invocation" (
	"id" text PRIMARY KEY NOT NULL,
	"tool_name" text NOT NULL,
	"query" text NOT NULL,
	"transformed_query" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"duration_ms" double precision NOT NULL,
	"found" boolean NOT NULL,
	"evidence_status" text NOT NULL,
	"retrieval_layer" text NOT NULL,
	"fallback_reason" text,
	"candidate_count" integer NOT NULL,
	"evidence_count" integer NOT NULL,
	"error" text,
	"retrieval_details" jsonb NOT NULL
);
