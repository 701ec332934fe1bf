// The lookup form the Playground and the Why-not view share: the query, the filter lines and the rag.* overrides.
import type { Info } from "./types.js";

export type Overrides = Record<string, string>;

/** The query and its filter (`key=value` lines); `names` are the form fields' names. */
export function QueryFields({
  names,
  query,
  filter,
  onQuery,
  onFilter,
}: {
  names: { query: string; filter: string };
  query: string;
  filter: string;
  onQuery: (value: string) => void;
  onFilter: (value: string) => void;
}) {
  return (
    <>
      <label class="wide">
        query <input name={names.query} value={query} onInput={(e) => onQuery(e.currentTarget.value)} />
      </label>
      <label class="wide">
        filter (key=value, one a line){" "}
        <textarea name={names.filter} rows={2} value={filter} onInput={(e) => onFilter(e.currentTarget.value)} />
      </label>
    </>
  );
}

/** Overrides of any rag.* key, each field showing the configured value as its placeholder. */
export function ConfigForm({
  name,
  info,
  value,
  onChange,
}: {
  name: string;
  info: Info;
  value: Overrides;
  onChange: (value: Overrides) => void;
}) {
  return (
    <fieldset data-testid={`config-${name}`}>
      <legend>configuration {name}</legend>
      {info.ragKeys.map((key) => (
        <label key={key} class="setting">
          <span>{key}</span>
          <input
            class="setting-value"
            name={`${name}:${key}`}
            placeholder={info.config[key] === undefined ? "" : String(info.config[key])}
            value={value[key] ?? ""}
            onInput={(e) => onChange({ ...value, [key]: e.currentTarget.value })}
          />
        </label>
      ))}
    </fieldset>
  );
}
