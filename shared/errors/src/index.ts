/**
 * Error kinds and codes shared by every process (DESIGN §2 "Error codes", CONVENTIONS "Errors").
 *
 * Domain code throws an {@link AppError} with a kind and a stable string `code`; the kind decides the
 * HTTP status in exactly one table (the gateway's problem middleware). Errors cross NATS as JSON
 * (see {@link AppError.toWire}) and are rebuilt with {@link AppError.fromWire}: no `instanceof` across a wire.
 */

/** The fixed set of error kinds. */
export const ErrorKind = {
  invalid: 'invalid',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'not_found',
  not_acceptable: 'not_acceptable',
  conflict: 'conflict',
  unprocessable: 'unprocessable',
  too_many: 'too_many',
  /** The company's access point (an upstream provider) refused or failed (issue #35). */
  bad_gateway: 'bad_gateway',
  unavailable: 'unavailable',
  timeout: 'timeout',
  internal: 'internal',
} as const;
export type ErrorKind = (typeof ErrorKind)[keyof typeof ErrorKind];

/**
 * Error kind → HTTP status (DESIGN §2 "Errors"): the only such table. The gateway answers with it and
 * services send it as `Nats-Service-Error-Code`.
 */
export const statusOfKind: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  not_acceptable: 406,
  conflict: 409,
  unprocessable: 422,
  too_many: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
  timeout: 504,
};

/** Stable error codes of DESIGN §2, grouped by the kind they belong to. */
export const ErrorCode = {
  ValidationFailed: 'ValidationFailed',
  BadRequest: 'BadRequest',
  Unauthorized: 'Unauthorized',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  NotAcceptable: 'NotAcceptable',
  DuplicateRecordNumber: 'DuplicateRecordNumber',
  InvalidState: 'InvalidState',
  Conflict: 'Conflict',
  OperationCanceledException: 'OperationCanceledException',
  LotNumberRequired: 'LotNumberRequired',
  ReferenceNotFound: 'ReferenceNotFound',
  VatCodeNotValid: 'VatCodeNotValid',
  VatParagraphNotValid: 'VatParagraphNotValid',
  CostPriceRequired: 'CostPriceRequired',
  PeriodNotFound: 'PeriodNotFound',
  PeriodClosed: 'PeriodClosed',
  /** 422: an e-invoice fails the pre-flight rules (EN 16931, Peppol BIS 3.0, Slovak CIUS); `errors` name each rule id (issue #21). */
  EInvoiceNotValid: 'EInvoiceNotValid',
  /** 422: a received e-invoice whose buyer is not the calling company (issue #21). */
  EInvoiceNotForThisCompany: 'EInvoiceNotForThisCompany',
  PeppolIdTaken: 'PeppolIdTaken',
  /** 502: the company's access point answered with an error (issue #35); `extensions.providerCode` carries its code. */
  AccessPointError: 'AccessPointError',
  /** 429: a rate limit or the bounded authentication queue refused the request (issue #12); `Retry-After` says when to retry. */
  TooManyRequests: 'TooManyRequests',
  /** 422: an `Idempotency-Key` reused with another request (issue #12). */
  IdempotencyKeyReused: 'IdempotencyKeyReused',
  ServiceUnavailable: 'ServiceUnavailable',
  Timeout: 'Timeout',
  InternalError: 'InternalError',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** One field error: `path` is the dotted input path (`rows.0.quantity`), `message` says what is wrong. */
export interface FieldError {
  path: string;
  message: string;
}

/** The JSON form of an error on the wire (NATS reply body with the service error headers). */
export interface WireError {
  kind: ErrorKind;
  code: string;
  detail: string;
  errors?: FieldError[];
  /** Extra members of the problem document, e.g. `shortfalls` of OperationCanceledException. */
  extensions?: Record<string, unknown>;
  /** Seconds after which a retry may succeed (429, 503): sent as `Retry-After`. */
  retryAfterSeconds?: number;
  /** The work may have been stored (a connection lost during the commit, issue #46). */
  outcomeUnknown?: boolean;
}

/** An error with a kind, a stable code and structured details. Thrown by domain and service code. */
export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly errors?: FieldError[];
  readonly extensions?: Record<string, unknown>;
  /** Seconds after which a retry may succeed (429, 503): the gateway sends it as `Retry-After`. */
  readonly retryAfterSeconds?: number;
  /**
   * Whether the work was stored is not known: a 504 of the caller's own timer (no answer came; a service
   * that gives up at its deadline says so with a plain 504 instead), or a service's 503 for a database
   * connection lost during the commit (issue #46, sent over the wire). The gateway then keeps the
   * request's `Idempotency-Key` locked for its lease instead of releasing it.
   */
  readonly outcomeUnknown?: boolean;

  constructor(
    kind: ErrorKind,
    code: string,
    detail: string,
    opts: {
      errors?: FieldError[];
      extensions?: Record<string, unknown>;
      cause?: unknown;
      retryAfterSeconds?: number;
      outcomeUnknown?: boolean;
    } = {},
  ) {
    super(detail, { cause: opts.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.code = code;
    this.errors = opts.errors;
    this.extensions = opts.extensions;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.outcomeUnknown = opts.outcomeUnknown;
  }

  /** Serialises for a NATS error reply. */
  toWire(): WireError {
    return {
      kind: this.kind,
      code: this.code,
      detail: this.message,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.extensions ? { extensions: this.extensions } : {}),
      ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
      ...(this.outcomeUnknown ? { outcomeUnknown: true } : {}),
    };
  }

  /** Rebuilds an error received from another process. */
  static fromWire(w: WireError): AppError {
    return new AppError(w.kind, w.code, w.detail, {
      errors: w.errors,
      extensions: w.extensions,
      retryAfterSeconds: w.retryAfterSeconds,
      outcomeUnknown: w.outcomeUnknown,
    });
  }
}

/** 400 ValidationFailed naming the offending fields. */
export const validationFailed = (errors: FieldError[], detail?: string): AppError =>
  new AppError(
    ErrorKind.invalid,
    ErrorCode.ValidationFailed,
    detail ?? errors.map((e) => `${e.path}: ${e.message}`).join('; '),
    {
      errors,
    },
  );

/** 404 NotFound: the same answer for an unknown id and another company's id (DESIGN §2 "Auth failure"). */
export const notFound = (what: string): AppError =>
  new AppError(ErrorKind.not_found, ErrorCode.NotFound, `${what} not found`);

/** 422 ReferenceNotFound for an id or code in a body or query that the company does not have. */
export const referenceNotFound = (path: string, what: string): AppError =>
  new AppError(
    ErrorKind.unprocessable,
    ErrorCode.ReferenceNotFound,
    `${what} referenced by ${path} does not exist`,
    {
      errors: [{ path, message: `${what} not found` }],
    },
  );

/** 409 Conflict, e.g. a company-unique code used twice. */
export const conflict = (detail: string, errors?: FieldError[]): AppError =>
  new AppError(ErrorKind.conflict, ErrorCode.Conflict, detail, { errors });

/** 422 with an explicit code (PeriodClosed, VatCodeNotValid, ...). */
export const unprocessable = (
  code: ErrorCode,
  detail: string,
  opts: { errors?: FieldError[]; extensions?: Record<string, unknown> } = {},
): AppError => new AppError(ErrorKind.unprocessable, code, detail, opts);

/** Narrowing helper. */
export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** 429 TooManyRequests with the seconds to wait (issue #12 "Authentication under attack"). */
export const tooManyRequests = (detail: string, retryAfterSeconds: number): AppError =>
  new AppError(ErrorKind.too_many, ErrorCode.TooManyRequests, detail, { retryAfterSeconds });

/** 503 ServiceUnavailable with the seconds to wait (NATS down, a full queue, the database's connection limit). */
export const unavailable = (detail: string, retryAfterSeconds = 1): AppError =>
  new AppError(ErrorKind.unavailable, ErrorCode.ServiceUnavailable, detail, { retryAfterSeconds });
