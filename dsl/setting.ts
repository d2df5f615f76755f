import type { Fields, LowercaseFieldNames } from './fields.ts';
import type { ScopesByMethod } from './scopes.ts';
import type { VersionDeclarations } from './versions.ts';

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
