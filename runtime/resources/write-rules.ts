import { isRefusal, refusalAsApiError } from '../errors/index.ts';
import { runFlow, type Flow, type Row } from '../storage/index.ts';
import type { ComputedFieldsModel, FieldModel, RuleCheck, WriteRulesModel } from './model.ts';
import { tooLongStrings } from './string-lengths.ts';
import { invalidInput } from './write-input.ts';

/** Who asked for a write, as rules see it (the authenticated principal; undefined for the server's own work). */
export interface WriteCaller {
  readonly client: string;
  readonly user?: string;
}

/** A declaration that may carry rules: a collection or an aggregate model. */
export interface RuledModel {
  readonly name: string;
  readonly fields: readonly FieldModel[];
  readonly rules?: WriteRulesModel;
  readonly compute?: ComputedFieldsModel;
  readonly effects?: WriteRulesModel;
}

/** Whether writes of `model` run anything besides validation: collections without rules take the plain path. */
export const hasWriteRules = (model: RuledModel): boolean =>
  model.rules !== undefined || model.compute !== undefined || model.effects !== undefined;

/** What a create, replace or update check is told (the DSL's WriteCheckInput). */
export interface WriteFacts {
  readonly operation: 'create' | 'replace' | 'update';
  readonly version: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** The stored values the write sets, references already resolved to identifiers. */
  readonly stored: Readonly<Record<string, unknown>>;
  /** The stored fields of the row before the write; undefined on create. */
  readonly current: Readonly<Record<string, unknown>> | undefined;
  readonly key: string | number | undefined;
}

/**
 * Runs the operation's check, then the computed fields, on a write about to be stored. Answers the
 * stored values they add (a read-only field a rule sets, every computed field), which the caller
 * validates and writes with the rest; a string among them longer than its field allows is a 400
 * value_too_long naming that field. A refusal becomes the runtime's error for this collection;
 * anything else thrown propagates as it is (a 500, logged with its cause).
 */
export function* valuesFromRules(
  model: RuledModel,
  facts: WriteFacts,
  caller: WriteCaller | undefined,
  data: unknown,
): Flow<Record<string, unknown>> {
  const next = { ...facts.current, ...facts.stored };
  let added: Record<string, unknown> = {};
  const check = model.rules?.[facts.operation];
  if (check !== undefined) {
    const set = yield* runCheck(model, check, { ...facts, next, caller, data });
    if (set !== undefined && set !== null) {
      if (typeof set !== 'object' || Array.isArray(set))
        throw new TypeError(
          `the ${facts.operation} rule of ${model.name} answered ${typeof set}: it answers nothing, or stored values to set`,
        );
      added = assertStoredNames(model, set as Record<string, unknown>);
    }
  }
  for (const [name, compute] of Object.entries(model.compute ?? {})) {
    const value = compute({ ...next, ...added });
    added[name] = value === undefined ? null : value;
  }
  // Values derived from the write are held to their fields' bounds too (an indexed column has a
  // hard limit on PostgreSQL): the client shortens what it sent.
  const tooLong = model.fields.flatMap((field) =>
    Object.hasOwn(added, field.name) ? tooLongStrings(field, added[field.name], field.name, model.name) : [],
  );
  if (tooLong.length > 0) throw invalidInput(tooLong);
  return added;
}

/**
 * Runs a setting's check on the value about to be stored: the same check a collection's write gets,
 * without data access (a setting's value is the caller's own, kept apart from the collections). A
 * refusal becomes the runtime's error naming the setting; anything else thrown is a 500.
 */
export function checkSettingWrite(
  setting: RuledModel,
  facts: WriteFacts & { readonly operation: 'replace' | 'update' },
  caller: WriteCaller | undefined,
): void {
  if (setting.rules?.[facts.operation] !== undefined) runFlow(valuesFromRules(setting, facts, caller, undefined));
}

/** Runs the delete check of `model`, if it has one, on the row about to be deleted. */
export function* checkDelete(
  model: RuledModel,
  current: Row,
  key: string | number,
  caller: WriteCaller | undefined,
  data: unknown,
): Flow<void> {
  const check = model.rules?.delete;
  if (check !== undefined)
    yield* runCheck(model, check, { operation: 'delete', current: storedOf(model, current), key, caller, data });
}

/** Runs the effect of `operation`, if the model declares one, on the row the write left (or deleted). */
export function* runEffect(
  model: RuledModel,
  operation: keyof WriteRulesModel,
  row: Row,
  key: string | number,
  caller: WriteCaller | undefined,
  data: unknown,
): Flow<void> {
  const effect = model.effects?.[operation];
  if (effect !== undefined) yield* runCheck(model, effect, { operation, row, key, caller, data });
}

/** A computed field's value for a row stored before the field was declared (null there): filled on read. */
export function withComputedFields(model: RuledModel, row: Row): Row {
  let filled: Row | undefined;
  for (const [name, compute] of Object.entries(model.compute ?? {})) {
    if (row[name] !== null && row[name] !== undefined) continue;
    const value = compute(storedOf(model, row));
    if (value !== null && value !== undefined) (filled ??= { ...row })[name] = value;
  }
  return filled ?? row;
}

/** The stored fields of a row, without its key and times: what rules see as `current`. */
export function storedOf(model: RuledModel, row: Row): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  for (const field of model.fields) if (row[field.name] !== undefined) stored[field.name] = row[field.name];
  return stored;
}

/**
 * Calls a check and drives what it answers: a generator (a check that reads or writes through
 * `data`) is run to its end inside the caller's Flow, so it stays synchronous on SQLite. A promise is
 * refused: SQLite's transaction cannot wait for one, so a rule that works on one engine only would be
 * a trap.
 */
function* runCheck(model: RuledModel, check: RuleCheck, argument: Record<string, unknown>): Flow<unknown> {
  try {
    const answer = check(argument);
    if (answer instanceof Promise) {
      answer.catch(() => undefined);
      throw new TypeError(
        `a ${String(argument.operation)} rule or effect of ${model.name} returned a promise: write it as a generator function (function*) and yield* each data access`,
      );
    }
    return isGenerator(answer) ? yield* answer : answer;
  } catch (error) {
    throw isRefusal(error) ? refusalAsApiError(error, model.name) : error;
  }
}

/** Whether a check or handler answered a generator (a generator function's result), to be driven. */
export function isGenerator(value: unknown): value is Flow<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Flow<unknown>).next === 'function' &&
    typeof (value as Flow<unknown>).throw === 'function'
  );
}

function assertStoredNames(model: RuledModel, values: Record<string, unknown>): Record<string, unknown> {
  for (const name of Object.keys(values)) {
    if (!model.fields.some((field) => field.name === name))
      throw new TypeError(`a rule of ${model.name} set ${name}, which is not one of its stored fields`);
  }
  return { ...values };
}
