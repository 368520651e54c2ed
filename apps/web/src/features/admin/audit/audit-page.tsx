import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { TAuditEntry } from '@saljportalen/contract';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { paths } from '@/lib/paths';
import { notifyFailure, readOffset } from '../admin-page-helpers';
import { AdminPager } from '../components/admin-pager';
import { LoadingStatus } from '../components/table-skeleton-rows';
import { AUDIT_PAGE_SIZE, useAuditEntries } from './api/list-audit-entries';
import { actionLabel, targetLabel } from './audit-labels';

/** An action as the address carries it: a dotted verb, nothing else. */
const readAction = (value: string | null): string | undefined => (value && /^[a-z_]+(\.[a-z_]+)*$/.test(value) ? value : undefined);

function Actor({ entry }: { entry: TAuditEntry }) {
  if (!entry.actor) return <span className="text-muted">Systemet</span>;
  return (
    <>
      <span className="font-medium text-ink">{entry.actor.full_name}</span>
      {entry.actor.email && <span className="block text-xs break-all text-muted">{entry.actor.email}</span>}
    </>
  );
}

/** Which group or person the action was about: links to the group, and the person by name. */
function Target({ entry }: { entry: TAuditEntry }) {
  if (!entry.group && !entry.user) {
    return <span className="text-muted">{targetLabel(entry.target_type, entry.target_id)}</span>;
  }
  return (
    <>
      {entry.group && (
        <Link to={paths.adminGroup(entry.group.id)} className="font-medium text-brand underline-offset-2 hover:underline">
          {entry.group.name}
        </Link>
      )}
      {entry.user && <span className="block text-sm text-ink">{entry.user.full_name}</span>}
    </>
  );
}

/**
 * 'Händelselogg' (issue 21): what superadmins and group admins have done, newest first: who, what,
 * to which group or person, and when; filtered by action, a page at a time.
 */
export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const action = readAction(params.get('action'));
  const offset = readOffset(params.get('offset'));
  const entries = useAuditEntries(action, offset);
  const data = entries.data;

  useEffect(() => {
    if (entries.isError) notifyFailure('Fel vid hämtning av händelseloggen', entries.error);
  }, [entries.isError, entries.error]);

  const show = (next: { action?: string; offset?: number }) =>
    setParams({ ...(next.action ? { action: next.action } : {}), ...(next.offset ? { offset: String(next.offset) } : {}) });

  // The filter offers every action the log holds, and the chosen one even while it has no entry.
  const actions = [...new Set([...(data?.actions ?? []), ...(action ? [action] : [])])].sort((a, b) =>
    actionLabel(a).localeCompare(actionLabel(b), 'sv'),
  );

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold text-ink">Händelselogg</h1>
        <p className="max-w-prose text-muted">Vem som gjorde vad, i vilken grupp eller för vilken person, och när.</p>
      </div>

      <div className="rounded-xl border border-line bg-white p-4 sm:max-w-sm">
        <Field label="Händelse">
          <Select value={action ?? ''} onChange={(change) => show({ action: readAction(change.target.value) })}>
            <option value="">Alla händelser</option>
            {actions.map((value) => (
              <option key={value} value={value}>
                {actionLabel(value)}
              </option>
            ))}
          </Select>
        </Field>
      </div>

      {entries.isError ? (
        <LoadError title="Fel vid hämtning av händelseloggen" query={entries} retryWhileFetching={false} />
      ) : !data ? (
        <>
          <LoadingStatus>Laddar händelseloggen...</LoadingStatus>
          <div className="space-y-3" aria-hidden="true">
            {Array.from({ length: 5 }, (_, index) => (
              <Skeleton key={index} className="h-20 w-full md:h-12" />
            ))}
          </div>
        </>
      ) : data.items.length === 0 ? (
        <p className="rounded-xl border border-line bg-white p-6 text-center text-muted" role="status">
          Inga händelser.
        </p>
      ) : (
        <div aria-busy={entries.isPlaceholderData} className={entries.isPlaceholderData ? 'opacity-60' : undefined}>
          <ul className="space-y-3 md:hidden" aria-label="Händelser i loggen">
            {data.items.map((entry) => (
              <li key={entry.id} className="rounded-xl border border-line bg-white p-4">
                <p className="font-semibold text-ink">{actionLabel(entry.action)}</p>
                <p className="text-sm text-muted tabular-nums">{formatDateTime(entry.created_at)}</p>
                <dl className="mt-3 grid grid-cols-1 gap-2 text-sm">
                  <div>
                    <dt className="text-muted">Vem</dt>
                    <dd>
                      <Actor entry={entry} />
                    </dd>
                  </div>
                  <div>
                    <dt className="text-muted">Grupp eller person</dt>
                    <dd>
                      <Target entry={entry} />
                    </dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
          <div className="hidden md:block">
            <Table label="Händelser i loggen">
              <THead>
                <Tr>
                  <Th>När</Th>
                  <Th>Vem</Th>
                  <Th>Vad</Th>
                  <Th>Grupp eller person</Th>
                </Tr>
              </THead>
              <TBody>
                {data.items.map((entry) => (
                  <Tr key={entry.id}>
                    <Td className="align-top whitespace-nowrap tabular-nums">{formatDateTime(entry.created_at)}</Td>
                    <Td className="align-top">
                      <Actor entry={entry} />
                    </Td>
                    <Th scope="row" className="align-top font-medium text-ink">
                      {actionLabel(entry.action)}
                    </Th>
                    <Td className="align-top">
                      <Target entry={entry} />
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          </div>
          <AdminPager
            label="Sidor i händelseloggen"
            offset={offset}
            limit={AUDIT_PAGE_SIZE}
            total={data.total}
            onOffsetChange={(next) => show({ action, offset: next })}
          />
        </div>
      )}
    </div>
  );
}
