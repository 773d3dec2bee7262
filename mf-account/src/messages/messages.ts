import { atom } from 'nanostores';
import { ROUTE_PATHS, isApiError, type ResponseOf } from '@boatshop/contract/client';
import { client } from '../api';

export type EnquirySummary = ResponseOf<typeof ROUTE_PATHS.enquiries.list>['data'][number];
export type Enquiry = ResponseOf<typeof ROUTE_PATHS.enquiries.get>;

const problemsOf = (error: unknown, fallback: string): string[] =>
  isApiError(error) && error.status > 0 && error.status < 500 ? (error.details.length > 0 ? error.details : [error.message]) : [fallback];

/** The shopper's conversations with the shop, latest activity first. */
export const $conversations = atom<{ status: 'idle' | 'loading' | 'ready' | 'failed'; data: EnquirySummary[] }>({
  status: 'idle',
  data: [],
});

export async function fetchConversations(): Promise<void> {
  $conversations.set({ ...$conversations.get(), status: 'loading' });
  try {
    const { data } = await client.request(ROUTE_PATHS.enquiries.list, {});
    $conversations.set({ status: 'ready', data });
  } catch {
    $conversations.set({ status: 'failed', data: [] });
  }
}

/** The conversation open on its page, and what went wrong last. */
export const $conversation = atom<{ status: 'idle' | 'loading' | 'ready' | 'missing'; enquiry: Enquiry | null; problems: string[] }>({
  status: 'idle',
  enquiry: null,
  problems: [],
});

export async function openConversation(id: string): Promise<void> {
  $conversation.set({ status: 'loading', enquiry: null, problems: [] });
  try {
    const enquiry = await client.request(ROUTE_PATHS.enquiries.get, { params: { id } });
    $conversation.set({ status: 'ready', enquiry, problems: [] });
  } catch {
    $conversation.set({ status: 'missing', enquiry: null, problems: [] });
  }
}

/** Sends the shopper's reply; true when it was sent (the conversation then shows it). */
export async function replyInConversation(id: string, body: string): Promise<boolean> {
  try {
    const enquiry = await client.request(ROUTE_PATHS.enquiries.reply, { params: { id }, body: { body } });
    $conversation.set({ status: 'ready', enquiry, problems: [] });
    return true;
  } catch (error) {
    $conversation.set({ ...$conversation.get(), problems: problemsOf(error, 'Your message could not be sent. Please try again.') });
    return false;
  }
}

export function leaveConversation(): void {
  $conversation.set({ status: 'idle', enquiry: null, problems: [] });
}

/** A guest's confirmation link: the boat's name once confirmed, or why not. */
export async function confirmEnquiry(token: string): Promise<{ productName: string } | { problems: string[] }> {
  try {
    return await client.request(ROUTE_PATHS.enquiries.confirm, { body: { token } });
  } catch (error) {
    return { problems: problemsOf(error, 'Your question could not be confirmed. Please try again.') };
  }
}
