/** A value a metadata field is compared with. */
export type FilterValue = string | number | boolean;

/** Operators on one field, Pinecone style: `{ category: { $eq: "billing" } }`. */
export interface FieldCondition {
  $eq?: FilterValue;
  $ne?: FilterValue;
  $gt?: number;
  $gte?: number;
  $lt?: number;
  $lte?: number;
  $in?: FilterValue[];
  $nin?: FilterValue[];
  $exists?: boolean;
}

/**
 * A Pinecone-style metadata filter. A bare value is shorthand for `$eq`. Top-level field
 * conditions are joined by AND; `$and` / `$or` combine sub-filters.
 */
export type MetadataFilter = {
  $and?: MetadataFilter[];
  $or?: MetadataFilter[];
} & {
  [field: string]: FilterValue | FieldCondition | MetadataFilter[] | undefined;
};

/** The operators a field condition may use. */
export const filterOperators = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"] as const;
export type FilterOperator = (typeof filterOperators)[number];
