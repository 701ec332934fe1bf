import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigurationError, LookupKnowledgeError } from "@lookup-knowledge/core";
import { parseAnswerabilityModel, type AnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import type { z as Zod } from "zod";
import type { AgentToolErrorCode } from "../agent-tool-error-code.js";

/** The format version this release writes and reads. */
export const calibrationFormatVersion = 1;

/** The file a calibration is kept in, inside a store's state folder (the data folder for the local index). */
export const calibrationFileName = "calibration.json";

/**
 * What `lookup-knowledge calibrate` fitted on the user's questions, for one store and
 * embedder: the local index's answerability model, or the reference threshold of a store
 * with plain scores.
 */
export interface Calibration {
  version: typeof calibrationFormatVersion;
  /** The store it was fitted for: kind, description (no secret) and identity key. */
  store: { kind: string; description: string; key: string };
  /** The embedder of that store (`pinecone-integrated` when the index embeds). */
  embedder: { id: string; version?: string; dimension?: number };
  /** ISO time of the fit. */
  fittedAt: string;
  /** The question file (its name only) and how many questions of each kind it held. */
  questions: { file: string; answerable: number; outOfScope: number };
  fitted: { kind: "answerability-model"; model: AnswerabilityModel } | { kind: "reference-threshold"; referenceThreshold: number };
}

// Built, and zod loaded, on first use (issue 36 item 5: a lookup without a calibration file loads no zod).
const fileSchema = schemaOnDemand(buildFileSchema);

function buildFileSchema(z: typeof Zod) {
  return z.strictObject({
    version: z.number().int().min(1),
    store: z.strictObject({ kind: z.string().min(1), description: z.string(), key: z.string().min(1) }),
    embedder: z.strictObject({ id: z.string().min(1), version: z.string().optional(), dimension: z.number().int().positive().optional() }),
    fittedAt: z.iso.datetime({ offset: true }),
    questions: z.strictObject({ file: z.string(), answerable: z.number().int().min(0), outOfScope: z.number().int().min(0) }),
    fitted: z.discriminatedUnion("kind", [
      z.strictObject({ kind: z.literal("answerability-model"), model: z.unknown() }),
      z.strictObject({ kind: z.literal("reference-threshold"), referenceThreshold: z.number().min(0).max(1) }),
    ]),
  });
}

/** `<stateDirectory>/calibration.json`. */
export function calibrationFilePath(stateDirectory: string): string {
  return join(stateDirectory, calibrationFileName);
}

/**
 * Reads the calibration of a store's state folder, or undefined when there is none. A file
 * that is not JSON, not a calibration, or from a newer release is refused with an error
 * (code `invalid_calibration`) naming the file and the field.
 */
export async function readCalibrationFile(stateDirectory: string): Promise<Calibration | undefined> {
  const file = calibrationFilePath(stateDirectory);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw invalid(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, error);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw invalid(file, "is not valid JSON", error);
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version > calibrationFormatVersion) {
    throw invalid(
      file,
      `has format version ${version}, newer than this release reads (${calibrationFormatVersion}); upgrade lookup-knowledge or calibrate again`,
    );
  }
  const parsed = fileSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(file, `${issue?.path.join(".") || "the file"}: ${issue?.message ?? "invalid"}`);
  }
  const { fitted, embedder, ...rest } = parsed.data;
  let model: AnswerabilityModel | undefined;
  if (fitted.kind === "answerability-model") {
    try {
      model = parseAnswerabilityModel(fitted.model, "fitted.model");
    } catch (error) {
      throw invalid(
        file,
        `holds a bad answerability model (${ConfigurationError.isInstance(error) ? error.message : String(error)})`,
        error,
      );
    }
  }
  return {
    ...rest,
    version: calibrationFormatVersion,
    embedder: Object.fromEntries(Object.entries(embedder).filter(([, value]) => value !== undefined)) as Calibration["embedder"],
    fitted: model ? { kind: "answerability-model", model } : (fitted as Extract<Calibration["fitted"], { kind: "reference-threshold" }>),
  };
}

/** Writes the calibration into a store's state folder (atomically: a temporary file renamed over it) and returns the file. */
export async function writeCalibrationFile(stateDirectory: string, calibration: Calibration): Promise<string> {
  const file = calibrationFilePath(stateDirectory);
  await mkdir(stateDirectory, { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(calibration, null, 2)}\n`, { flag: "wx" });
  await rename(temporary, file);
  return file;
}

function invalid(file: string, reason: string, cause?: unknown): LookupKnowledgeError<AgentToolErrorCode> {
  return new LookupKnowledgeError<AgentToolErrorCode>({
    code: "invalid_calibration",
    message: `The calibration file ${file} ${reason}.`,
    ...(cause === undefined ? {} : { cause }),
  });
}
