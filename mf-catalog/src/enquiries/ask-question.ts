import { ROUTE_PATHS, isApiError, type ResponseOf } from '@boatshop/contract/client';
import { client } from '../api';

export type EnquiryOutcome = ResponseOf<typeof ROUTE_PATHS.enquiries.create>['outcome'];

export interface QuestionInput {
  productId: string;
  message: string;
  /** a guest's name and e-mail; the API takes a signed-in shopper's from the account */
  name?: string;
  email?: string;
  /** the honeypot field, empty for people */
  website?: string;
}

/** Sends the question; the outcome, or the problems to list above the form. */
export async function askQuestion(input: QuestionInput): Promise<{ outcome: EnquiryOutcome } | { problems: string[] }> {
  try {
    const { outcome } = await client.request(ROUTE_PATHS.enquiries.create, { body: input });
    return { outcome };
  } catch (error) {
    if (isApiError(error) && error.status > 0 && error.status < 500) {
      return { problems: error.details.length > 0 ? error.details : [error.message] };
    }
    return { problems: ['Your question could not be sent. Please try again.'] };
  }
}
