export type ErrorType = 'invalid_request_error' | 'authentication_error' | 'not_found_error' | 'rate_limit_error' | 'api_error' | 'overloaded_error';

/** An error the fake answers with, in the real API's status/type vocabulary. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    /** `error.details`: `error_code` names the cause where the API gives one (platform.claude.com/docs/en/api/errors). */
    readonly details?: { error_code: string },
  ) {
    super(message);
  }
}

export const invalidRequest = (message: string) => new ApiError(400, 'invalid_request_error', message);

export function errorBody(type: ErrorType, message: string, requestId?: string, details?: { error_code: string }) {
  return {
    type: 'error' as const,
    error: { type, message, ...(details ? { details } : {}) },
    ...(requestId === undefined ? {} : { request_id: requestId }),
  };
}
