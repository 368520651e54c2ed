import { z } from 'zod';

/**
 * Live figures (issue 20 §4): a signed-in caller asks for a ticket, then opens
 * `GET /api/events?ticket=…` as Server-Sent Events (the access token never goes in a URL).
 */
export const ZEventTicketResponseSchema = z.object({
  ticket: z.string(),
  /** Seconds the ticket may wait before it is used; it is good for one stream only. */
  expires_in: z.number().int().positive(),
});
export type TEventTicketResponse = z.infer<typeof ZEventTicketResponseSchema>;

export const ZEventsQuerySchema = z.object({
  ticket: z.string().max(200, 'Ogiltig biljett').optional(),
  /** The last event id seen, for a client that cannot send the Last-Event-ID header (EventSource with a new URL). */
  last_event_id: z.string().max(100, 'Ogiltigt händelse-id').optional(),
});

/** The names of the stream's events and their data. */
export const LIVE_EVENT_NAMES = ['figures', 'payout', 'sale', 'resync'] as const;
export type TLiveEventName = (typeof LIVE_EVENT_NAMES)[number];

/**
 * The data version after the event's change (decision 057): a read that presents it in the
 * `x-data-version` header is answered with the change, on whichever server process it lands.
 * Missing when the server could not learn it in time.
 */
const dataVersion = z.number().int().nonnegative().optional();

/** A group's figures changed (orders, refunds, cancellations, assignments, members): refetch its figures. */
export const ZFiguresEventSchema = z.object({ group_id: z.number().int(), version: z.number().int(), data_version: dataVersion });
export type TFiguresEvent = z.infer<typeof ZFiguresEventSchema>;

/** A payout of the group was created or paid. */
export const ZPayoutEventSchema = z.object({ group_id: z.number().int(), payout_id: z.number().int(), data_version: dataVersion });
export type TPayoutEvent = z.infer<typeof ZPayoutEventSchema>;

/** The caller's own link sold: the amount in SEK, for 'Ny försäljning! +249 kr'. Never who bought. */
export const ZSaleEventSchema = z.object({ group_id: z.number().int(), amount: z.number(), data_version: dataVersion });
export type TSaleEvent = z.infer<typeof ZSaleEventSchema>;

/** What happened meanwhile is not known to the server: refetch everything. */
export const ZResyncEventSchema = z.object({ reason: z.enum(['unknown_last_event', 'feed_reconnected', 'slow_reader']) });
export type TResyncEvent = z.infer<typeof ZResyncEventSchema>;
