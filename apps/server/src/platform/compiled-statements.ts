import type { Compilable, CompiledQuery } from 'kysely';

/** Compiled statements one cache keeps; past it the oldest goes. */
const MAX_COMPILED = 1_000;

/**
 * Statements of a hot read compiled once per set of inputs. Building and compiling a Kysely query of many filters
 * costs more in Node than running it on a warm connection: on the ticket list, a tenth of the process's time went
 * to building the same statement again for every request of the same screen.
 *
 * `key` must name every input the builder reads (the same key must always build the same statement); a compiled
 * statement holds its SQL and parameter values only, so it serves any connection of the same dialect. A null key
 * compiles without keeping (inputs rarely asked twice, such as a search).
 */
export function compiledStatements<Row>(max = MAX_COMPILED) {
  const compiled = new Map<string, CompiledQuery<Row>>();
  return (key: string | null, build: () => Compilable<Row>): CompiledQuery<Row> => {
    if (key === null) return build().compile();
    const hit = compiled.get(key);
    if (hit) return hit;
    const made = build().compile();
    if (compiled.size >= max) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, made);
    return made;
  };
}

const identities = new WeakMap<CompiledQuery, string>();

/**
 * A compiled statement's text and parameter values as one string: two statements with the same identity read the
 * same rows. Kept per statement object, which `compiledStatements` hands out again for the same inputs.
 */
export function statementIdentity(statement: CompiledQuery): string {
  let identity = identities.get(statement);
  if (identity === undefined) {
    identity = `${statement.sql}\u0000${JSON.stringify(statement.parameters)}`;
    identities.set(statement, identity);
  }
  return identity;
}
