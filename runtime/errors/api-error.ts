import { STATUS_CODES } from '../node/http.ts';
import type { DocumentFor } from './error-documents.ts';

/** One entry of the conventions' error body: `errors[]`. */
export interface ErrorEntry {
  /** Key words of the failure, lowercase, joined with underscores (`missing_field`). */
  code: string;
  message: string;
  resource?: string;
  field?: string;
  /** Address of documentation for this failure. */
  document?: string;
}

export interface ApiErrorOptions {
  field?: string;
  resource?: string;
  document?: string;
  /** Headers the rendered response must carry (Allow, WWW-Authenticate, Retry-After...). */
  headers?: Record<string, string>;
  /** Further entries, when one request fails for several reasons (several invalid fields). */
  more?: ErrorEntry[];
  cause?: unknown;
}

const CODE_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/**
 * The most entries one error body lists. A request can be wrong in as many ways as it has members
 * (a 1 MB body with 120,000 unknown keys); the body keeps the first ones and says how many more
 * there were, so an error costs no more to render than the request it answers.
 */
export const MAX_ERROR_ENTRIES = 20;

/**
 * The one error type of the runtime. Anything that fails a request throws an ApiError (or lets the
 * error handler turn an unknown error into a 500); `errorHandler()` renders it as the conventions'
 * body `{message, errors: [{code, message, resource?, field?, document?}]}`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly resource: string | undefined;
  readonly document: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly entries: readonly ErrorEntry[];

  constructor(status: number, code: string, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (!CODE_PATTERN.test(code)) throw new TypeError(`error code "${code}" is not lowercase_with_underscores`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = options.field;
    this.resource = options.resource;
    this.document = options.document;
    this.headers = options.headers ?? {};
    const first: ErrorEntry = { code, message };
    if (options.resource !== undefined) first.resource = options.resource;
    if (options.field !== undefined) first.field = options.field;
    if (options.document !== undefined) first.document = options.document;
    const more = options.more ?? [];
    const kept = more.length < MAX_ERROR_ENTRIES ? more : more.slice(0, MAX_ERROR_ENTRIES - 1);
    const leftOut = more.length - kept.length;
    this.entries =
      leftOut === 0
        ? [first, ...kept]
        : [
            first,
            ...kept,
            {
              code: 'more_errors',
              message: `${leftOut} more ${leftOut === 1 ? 'error' : 'errors'} of this request left out`,
            },
          ];
  }

  /** The error title: the top-level `message` of the body. */
  get title(): string {
    return STATUS_CODES[this.status] ?? 'Error';
  }

  /**
   * The conventions' error body. `documentFor` gives the documentation address of each entry that
   * names none of its own (`errors[].document`).
   */
  toBody(documentFor?: DocumentFor): ErrorBody {
    return { message: this.title, errors: this.entries.map((entry) => withDocument(entry, documentFor)) };
  }
}

function withDocument(entry: ErrorEntry, documentFor: DocumentFor | undefined): ErrorEntry {
  if (entry.document !== undefined || documentFor === undefined) return { ...entry };
  const document = documentFor(entry.code);
  return document === undefined ? { ...entry } : { ...entry, document };
}

export interface ErrorBody {
  message: string;
  errors: ErrorEntry[];
}
