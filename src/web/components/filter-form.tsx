import { DATE_PARAMS, PARAM_LABELS } from '../format.js';

/** The part of a query parameter's JSON Schema the form reads (the declarations' TypeBox schemas are JSON Schema). */
export interface ParamSchema {
  type?: string;
  enum?: readonly string[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

export interface Choice {
  value: string;
  label: string;
  count?: number;
}

export interface FilterFormProps {
  action: string;
  /** The filters' query parameters and their schemas, as declared in src/catalog/fields/. */
  params: Readonly<Record<string, unknown>>;
  /** The current values, by parameter (a list for a multi-choice one). */
  values: Readonly<Record<string, string | undefined>>;
  /** Labels for an enum's values, by parameter. */
  optionLabels?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** How many results each of an enum's values would give (its facet counts), by parameter; absent values: 0. */
  optionCounts?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Parameters taking comma-separated values, shown as a group of checkboxes (OR within the group). */
  multi?: Readonly<Record<string, Choice[]>>;
  /** Values the form carries unchanged (the listing's order), as hidden fields. */
  keep?: readonly (readonly [string, string])[];
}

const idOf = (name: string) => `f-${name}`;
const labelOf = (name: string) => PARAM_LABELS[name] ?? name;

/** One control, chosen by the parameter's schema: enum → select, boolean → checkbox, integer → number, else text. */
export function Control(props: {
  name: string;
  schema: ParamSchema;
  value: string | undefined;
  labels?: Readonly<Record<string, string>>;
  counts?: Readonly<Record<string, number>> | undefined;
}) {
  const { name, schema, value } = props;
  const id = idOf(name);
  if (schema.enum) {
    return (
      <div>
        <label for={id}>{labelOf(name)}</label>
        <select id={id} name={name}>
          <option value="">Any</option>
          {schema.enum.map((v) => (
            <option value={v} selected={v === value}>
              {props.labels?.[v] ?? v}
              {props.counts ? ` (${props.counts[v] ?? 0})` : ''}
            </option>
          ))}
        </select>
      </div>
    );
  }
  if (schema.type === 'boolean') {
    return (
      <label class="check" for={id}>
        <input type="checkbox" id={id} name={name} value="true" checked={value === 'true'} />
        {labelOf(name)}
      </label>
    );
  }
  const common = { id, name, value: value ?? '' };
  let input = <input type="text" {...common} maxLength={schema.maxLength} />;
  if (schema.type === 'integer')
    input = <input type="number" {...common} min={schema.minimum} max={schema.maximum} inputMode="numeric" />;
  else if (DATE_PARAMS.has(name)) input = <input type="date" {...common} />;
  return (
    <div>
      <label for={id}>{labelOf(name)}</label>
      {input}
    </div>
  );
}

/** Checkboxes for a comma-separated parameter: the browser repeats the name, the route joins the values. */
function Choices(props: { name: string; choices: Choice[]; value: string | undefined }) {
  const chosen = new Set((props.value ?? '').split(',').filter(Boolean));
  return (
    <fieldset>
      <legend>{labelOf(props.name)}</legend>
      {props.choices.map((c, i) => (
        <label class="check" for={`${idOf(props.name)}-${i}`}>
          <input
            type="checkbox"
            id={`${idOf(props.name)}-${i}`}
            name={props.name}
            value={c.value}
            checked={chosen.has(c.value)}
          />
          {c.label}
          {c.count === undefined ? null : <span class="count">{c.count}</span>}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * A GET form of a listing's search and filters, the filters' controls derived from the filter declarations: the URL it
 * submits is the listing's state, so it can be shared and the back button returns to it. The search box shows
 * first; the filters sit in a disclosure (a `<details>`, which needs no script) that a phone keeps closed, so its
 * results come first, and that a wide screen always shows open (styles.ts).
 */
export function FilterForm(props: FilterFormProps) {
  const set = Object.keys(props.params).filter((name) => props.values[name]).length;
  return (
    <form class="filters" method="get" action={props.action} data-enhance="">
      <div>
        <label for="f-search">{labelOf('search')}</label>
        <div class="search">
          <input
            type="search"
            id="f-search"
            name="search"
            maxLength={200}
            value={props.values.search ?? ''}
          />
          <button type="submit">Search</button>
        </div>
      </div>
      <details class="more">
        <summary>{set ? `Filters (${set} set)` : 'Filters'}</summary>
        <div>
          {Object.entries(props.params).map(([name, schema]) => {
            const choices = props.multi?.[name];
            if (choices)
              return choices.length ? (
                <Choices name={name} choices={choices} value={props.values[name]} />
              ) : null;
            return (
              <Control
                name={name}
                schema={schema as ParamSchema}
                value={props.values[name]}
                labels={props.optionLabels?.[name]}
                counts={props.optionCounts?.[name]}
              />
            );
          })}
          {props.keep?.map(([name, value]) => (
            <input type="hidden" name={name} value={value} />
          ))}
          <div>
            <button type="submit">Apply filters</button> <a href={props.action}>Clear</a>
          </div>
        </div>
      </details>
    </form>
  );
}
