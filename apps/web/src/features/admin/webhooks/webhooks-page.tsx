import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { RotateCw } from 'lucide-react';
import type { TWebhookEvent, TWebhookEventStatus } from '@saljportalen/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { formatCount, formatDateTime } from '@/lib/format';
import { errorMessage, notify } from '@/lib/toast';
import { isSessionFailure, notifyFailure, readOffset } from '../admin-page-helpers';
import { AdminPager } from '../components/admin-pager';
import { LoadingStatus } from '../components/table-skeleton-rows';
import { useWebhookEvent } from './api/get-webhook-event';
import { WEBHOOKS_PAGE_SIZE, useWebhookEvents } from './api/list-webhook-events';
import { useReplayWebhookEvent } from './api/replay-webhook-event';

const STATUSES: { value: TWebhookEventStatus; label: string }[] = [
  { value: 'processed', label: 'Behandlade' },
  { value: 'ignored', label: 'Ignorerade' },
  { value: 'failed', label: 'Misslyckade' },
];

const readStatus = (value: string | null): TWebhookEventStatus | undefined => STATUSES.find((status) => status.value === value)?.value;

/** Shopify's topics in words; the topic itself is shown beside, as Shopify names it. */
const TOPIC_LABELS: Record<string, string> = {
  'orders/create': 'Ny order',
  'orders/updated': 'Order ändrad',
  'orders/paid': 'Order betald',
  'orders/cancelled': 'Order makulerad',
  'refunds/create': 'Återbetalning',
  'products/create': 'Ny produkt',
  'products/update': 'Produkt ändrad',
  'products/delete': 'Produkt borttagen',
};

function StatusBadge({ status }: { status: TWebhookEventStatus }) {
  if (status === 'processed') return <Badge variant="success">Behandlad</Badge>;
  if (status === 'ignored') return <Badge>Ignorerad</Badge>;
  return <Badge variant="danger">Misslyckad</Badge>;
}

function EventName({ event }: { event: TWebhookEvent }) {
  return (
    <>
      <span className="font-semibold text-ink">{TOPIC_LABELS[event.topic] ?? 'Övrigt ämne'}</span>
      <span className="block font-mono text-xs text-muted">
        {event.topic} · nr {event.id}
      </span>
    </>
  );
}

/** What processing did, or why it failed (masked by the server). */
function EventResult({ event }: { event: TWebhookEvent }) {
  if (event.error) return <p className="text-sm break-words text-danger">{event.error}</p>;
  return <p className="text-sm break-words text-ink">{event.outcome ?? '–'}</p>;
}

/** 'Kör igen' for an event that was not processed; a toast tells what came of it. */
function ReplayButton({ event }: { event: TWebhookEvent }) {
  const replay = useReplayWebhookEvent();
  if (event.status !== 'failed') return null;
  const run = () =>
    replay.mutate(event.id, {
      onSuccess: (answer) => {
        if (answer.result === 'processed') notify.success('Händelsen kördes igen', answer.message);
        else if (answer.result === 'already_processed') notify.info('Redan behandlad', answer.message);
        else notify.error('Händelsen misslyckades igen', answer.message);
      },
      onError: (error) => !isSessionFailure(error) && notify.error('Kunde inte köra igen', errorMessage(error)),
    });
  return (
    <Button variant="outline" size="sm" onClick={run} disabled={replay.isPending}>
      <RotateCw aria-hidden="true" className={replay.isPending ? 'animate-spin' : undefined} />
      Kör igen<span className="sr-only"> händelse nr {event.id}</span>
    </Button>
  );
}

/** What Shopify sent, fetched when opened; the server has masked every buyer. */
function EventContent({ event }: { event: TWebhookEvent }) {
  const [open, setOpen] = useState(false);
  const detail = useWebhookEvent(event.id, open);
  return (
    <details className="mt-2 text-sm" onToggle={(toggle) => setOpen(toggle.currentTarget.open)}>
      <summary className="cursor-pointer font-medium text-brand">
        Visa innehåll<span className="sr-only"> i händelse nr {event.id}</span>
      </summary>
      {detail.isError ? (
        <p className="mt-2 text-danger">{errorMessage(detail.error)}</p>
      ) : !detail.data ? (
        <p className="mt-2 text-muted">Hämtar...</p>
      ) : (
        <pre
          tabIndex={0}
          aria-label={`Innehåll i händelse nr ${event.id}, köparens uppgifter maskerade`}
          className="mt-2 max-h-80 max-w-[calc(100vw-4rem)] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs text-ink md:max-w-[22rem]"
        >
          {JSON.stringify(detail.data.payload, null, 2)}
        </pre>
      )}
    </details>
  );
}

/**
 * 'Webbhookar' (issue 21): every event Shopify has sent, by status; a failed one shows its error
 * and can be run again. Buyers' names, addresses, e-mail addresses and phones never reach this
 * page: the server masks them.
 */
export function WebhooksPage() {
  const [params, setParams] = useSearchParams();
  const status = readStatus(params.get('status'));
  const offset = readOffset(params.get('offset'));
  const events = useWebhookEvents(status, offset);
  const data = events.data;

  useEffect(() => {
    if (events.isError) notifyFailure('Fel vid hämtning av webbhookar', events.error);
  }, [events.isError, events.error]);

  const show = (next: { status?: TWebhookEventStatus; offset?: number }) =>
    setParams({
      ...(next.status ? { status: next.status } : {}),
      ...(next.offset ? { offset: String(next.offset) } : {}),
    });

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold text-ink">Webbhookar</h1>
        <p className="max-w-prose text-muted">
          Händelser som Shopify-butiken har skickat. En händelse som inte kunde behandlas visar sitt fel och kan köras igen; en order räknas
          aldrig två gånger. Köparnas namn, adresser, e-post och telefon visas maskerade.
        </p>
      </div>

      <div className="rounded-xl border border-line bg-white p-4 sm:max-w-xs">
        <Field label="Status">
          <Select value={status ?? ''} onChange={(change) => show({ status: readStatus(change.target.value) })}>
            <option value="">
              Alla{data ? ` (${formatCount(data.counts.processed + data.counts.ignored + data.counts.failed)})` : ''}
            </option>
            {STATUSES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
                {data ? ` (${formatCount(data.counts[option.value])})` : ''}
              </option>
            ))}
          </Select>
        </Field>
      </div>

      {events.isError ? (
        <LoadError title="Fel vid hämtning av webbhookar" query={events} retryWhileFetching={false} />
      ) : !data ? (
        <>
          <LoadingStatus>Laddar webbhookar...</LoadingStatus>
          <div className="space-y-3" aria-hidden="true">
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} className="h-20 w-full md:h-14" />
            ))}
          </div>
        </>
      ) : data.items.length === 0 ? (
        <p className="rounded-xl border border-line bg-white p-6 text-center text-muted" role="status">
          {status === 'failed' ? 'Inga misslyckade händelser.' : 'Inga händelser.'}
        </p>
      ) : (
        <div aria-busy={events.isPlaceholderData} className={events.isPlaceholderData ? 'opacity-60' : undefined}>
          <ul className="space-y-3 md:hidden" aria-label="Händelser från Shopify">
            {data.items.map((event) => (
              <li key={event.id} className="rounded-xl border border-line bg-white p-4">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <EventName event={event} />
                  </div>
                  <StatusBadge status={event.status} />
                </div>
                <p className="mt-2 text-sm text-muted">
                  Mottagen {formatDateTime(event.received_at)} · {formatCount(event.attempts)} försök
                </p>
                <div className="mt-2">
                  <EventResult event={event} />
                </div>
                <EventContent event={event} />
                {event.status === 'failed' && (
                  <div className="mt-3">
                    <ReplayButton event={event} />
                  </div>
                )}
              </li>
            ))}
          </ul>
          <div className="hidden md:block">
            <Table label="Händelser från Shopify">
              <THead>
                <Tr>
                  <Th>Händelse</Th>
                  <Th>Mottagen</Th>
                  <Th>Status</Th>
                  <Th>Resultat</Th>
                  <Th className="text-right">Försök</Th>
                  <Th>
                    <span className="sr-only">Åtgärder</span>
                  </Th>
                </Tr>
              </THead>
              <TBody>
                {data.items.map((event) => (
                  <Tr key={event.id}>
                    <Th scope="row" className="align-top font-normal whitespace-nowrap">
                      <EventName event={event} />
                    </Th>
                    <Td className="align-top whitespace-nowrap tabular-nums">{formatDateTime(event.received_at)}</Td>
                    <Td className="align-top">
                      <StatusBadge status={event.status} />
                    </Td>
                    <Td className="max-w-md align-top">
                      <EventResult event={event} />
                      <EventContent event={event} />
                    </Td>
                    <Td className="text-right align-top tabular-nums">{formatCount(event.attempts)}</Td>
                    <Td className="text-right align-top">
                      <ReplayButton event={event} />
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          </div>
          <AdminPager
            label="Sidor i listan över webbhookar"
            offset={offset}
            limit={WEBHOOKS_PAGE_SIZE}
            total={data.total}
            onOffsetChange={(next) => show({ status, offset: next })}
          />
        </div>
      )}
    </div>
  );
}
