/**
 * The one error type of the server. A code says what went wrong, the message says it in
 * Swedish to a person; the HTTP status follows from the code alone.
 */
export const errorStatus = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  INVALID_JSON: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_SIGNATURE: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** A link that was good once: used or expired (a guardian's consent code). */
  GONE: 410,
  /** A consent link whose child's account is gone (declined, withdrawn, deleted). */
  ACCOUNT_REMOVED: 410,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  ALREADY_PAID: 409,
  /** A payout cannot be marked paid before its group has an account to be paid to (issue 30 point 6). */
  PAYOUT_ACCOUNT_MISSING: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  DATA_DIR_LOCKED: 500,
  CONFIG: 500,
  NOT_CONFIGURED: 503,
  /** The database is away or too slow (connection lost, pool full, a time limit): try again shortly. */
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** What a refusal says about one field of the request, by the field's name in the body. */
export interface FieldIssue {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  /** The fields the refusal is about, so a form shows it at them (issue 33 point 3). */
  readonly details?: readonly FieldIssue[];

  constructor(code: ErrorCode, message: string, details?: readonly FieldIssue[]) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get statusCode(): number {
    return errorStatus[this.code];
  }
}

export const notFound = (message = 'Hittades inte') => new AppError('NOT_FOUND', message);
export const forbidden = (message = 'Du har inte behörighet till detta') => new AppError('FORBIDDEN', message);
export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);

/**
 * A refusal about one field of the form that sent it (a wrong group code, an address already in
 * use, a wrong password): `details` names the field, and the form shows the message beside it.
 */
export const fieldError = (code: ErrorCode, field: string, message: string) => new AppError(code, message, [{ field, message }]);

/** The one answer while the database is away or too slow (plugins/errors.ts, GET /api/ready). */
export const databaseUnavailable = () => new AppError('UNAVAILABLE', 'Databasen svarar inte just nu. Försök igen om en stund.');
