// Errors in the body shape Stripe's API returns, `{ error: { type, code, message, param, ... } }`,
// so the `stripe` SDK raises the same typed errors (StripeCardError, StripeInvalidRequestError,
// StripeAuthenticationError, StripeIdempotencyError) it raises against the real API.

export type StripeErrorType = 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';

export interface StripeErrorBody {
  type: StripeErrorType;
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: object;
  payment_method?: object;
}

export class StripeApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

function docUrl(code: string): string {
  return `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;
}

export function invalidRequest(message: string, options: { code?: string; param?: string; status?: number } = {}): StripeApiError {
  return new StripeApiError(options.status ?? 400, {
    type: 'invalid_request_error',
    message,
    ...(options.code ? { code: options.code, doc_url: docUrl(options.code) } : {}),
    ...(options.param ? { param: options.param } : {}),
  });
}

export function missingParam(param: string): StripeApiError {
  return invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param });
}

export function unknownParam(param: string): StripeApiError {
  return invalidRequest(`Received unknown parameter: ${param}`, { code: 'parameter_unknown', param });
}

export function authenticationError(message: string): StripeApiError {
  return new StripeApiError(401, { type: 'invalid_request_error', message });
}

export function notFound(kind: string, id: string, param = 'id'): StripeApiError {
  return invalidRequest(`No such ${kind}: '${id}'`, { code: 'resource_missing', param, status: 404 });
}

export interface CardErrorDetails {
  code: string;
  message: string;
  declineCode?: string;
  param?: string;
}

export function cardErrorBody(details: CardErrorDetails): StripeErrorBody {
  return {
    type: 'card_error',
    code: details.code,
    message: details.message,
    doc_url: docUrl(details.code),
    ...(details.declineCode ? { decline_code: details.declineCode } : {}),
    ...(details.param ? { param: details.param } : {}),
  };
}
