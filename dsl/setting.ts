import type { Fields, LowercaseFieldNames } from './fields.ts';
import type { StoredRow } from './rules.ts';
import type { ScopesByMethod } from './scopes.ts';
import type { Caller } from './service-tools.ts';
import type { VersionDeclarations } from './versions.ts';

/** What a setting's check is given: the caller's value before the write and as it will be stored. */
export interface SettingCheckInput<F extends Fields> {
  /** `replace` for PUT, `update` for PATCH. */
  readonly operation: 'replace' | 'update';
  /** The version the write was sent to (`v1`). */
  readonly version: string;
  /** The body as the version represents the setting, validated. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The stored fields this write sets: all of them on PUT, those sent on PATCH (null clears). */
  readonly stored: StoredRow<F>;
  /** The value as it will be stored: the current one with this write applied. Cross-field rules read this. */
  readonly next: StoredRow<F>;
  /** The caller's value before the write; undefined before its first write. */
  readonly current: StoredRow<F> | undefined;
  /** Who is calling: the value belongs to its user, or to its client when the token acts for none. */
  readonly caller: Caller | undefined;
}

/** A check on a setting's write: returns to let it go on, throws a refusal (badRequest, forbidden...) to stop it. */
export type SettingCheck<F extends Fields> = (write: SettingCheckInput<F>) => void;

/**
 * A setting's business rules: one check for PUT (`replace`), one for PATCH (`update`), each run after
 * the body has passed the fields' own validation and before anything is stored. A refusal answers its
 * error body and nothing is written; anything else thrown is a logged 500.
 */
export interface SettingRules<F extends Fields> {
  readonly replace?: SettingCheck<F>;
  readonly update?: SettingCheck<F>;
}

/**
 * A setting at /settings/{version}/{name}: GET reads it, PUT replaces it. Its value is kept per
 * caller: per user when the token acts for one, otherwise per client.
 */
export interface SettingDeclaration<Name extends string = string, F extends Fields = Fields> {
  readonly kind: 'setting';
  /** The path below /settings/{version}/: `gui/lang`. */
  readonly name: Name;
  readonly fields: F;
  readonly versions: VersionDeclarations;
  /** The scopes a caller needs, per method (GET, PUT): see ScopesByMethod. */
  readonly scopes?: ScopesByMethod;
  /** Checks on its writes, per operation: see SettingRules. */
  readonly rules?: SettingRules<F>;
  readonly description?: string;
}

/**
 * Declares a setting.
 *
 * @example
 * export default setting({ name: 'gui/lang', fields: { lang: field.languageTag({ required: true }) }, versions: { v1: {} } });
 */
export function setting<const Name extends string, const F extends Fields>(
  declaration: Omit<SettingDeclaration<Name, F>, 'kind'> & { readonly fields: LowercaseFieldNames<F> },
): SettingDeclaration<Name, F> {
  return { kind: 'setting', ...declaration };
}
