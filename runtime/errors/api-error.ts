import { STATUS_CODES } from 'node:http';

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
    this.entries = [first, ...(options.more ?? [])];
  }

  /** The error title: the top-level `message` of the body. */
  get title(): string {
    return STATUS_CODES[this.status] ?? 'Error';
  }

  /** The conventions' error body. */
  toBody(): ErrorBody {
    return { message: this.title, errors: this.entries.map((entry) => ({ ...entry })) };
  }
}

export interface ErrorBody {
  message: string;
  errors: ErrorEntry[];
}
