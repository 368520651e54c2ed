import type { TEventTicketResponse } from '@saljportalen/contract';
import { apiJson } from '@/lib/api-client';

/** A single-use ticket for the live-figure stream (the access token never goes in a URL). */
export const fetchEventTicket = () => apiJson<TEventTicketResponse>('/api/events/ticket', { method: 'POST' });
