import type { ColumnKind } from '../table-spec.ts';

/**
 * The type changes a migration can make to stored values. `widening`: every value converts
 * (integer 7 → "7"); `narrowing`: some may not ("7a" is no integer), and such a value either stops the
 * migration or, when data loss is accepted, is emptied. A change not listed here is refused: declare
 * a new field and remove the old one. Each engine's migration-sql.ts writes the SQL of each pair.
 */
export const CONVERSIONS = {
  'string->integer': 'narrowing',
  'integer->string': 'widening',
  'integer->number': 'widening',
  'number->integer': 'narrowing',
  'boolean->string': 'widening',
  'time->string': 'widening',
} as const satisfies Record<string, 'widening' | 'narrowing'>;

export type Conversion = keyof typeof CONVERSIONS;

/** The conversion from one kind to another, or undefined when the toolkit has none. */
export function conversionOf(from: ColumnKind, to: ColumnKind): Conversion | undefined {
  const key = `${from}->${to}`;
  return key in CONVERSIONS ? (key as Conversion) : undefined;
}

/** What a value must look like to convert, for messages: `a whole number`. */
export const CONVERTIBLE_VALUES: Record<Conversion, string> = {
  'string->integer': 'a whole number written in digits (an optional minus sign, surrounding spaces ignored, at most 18 digits)',
  'integer->string': 'any value',
  'integer->number': 'any value',
  'number->integer': 'a whole number (at most 18 digits)',
  'boolean->string': 'any value (true and false become "true" and "false")',
  'time->string': 'any value',
};
