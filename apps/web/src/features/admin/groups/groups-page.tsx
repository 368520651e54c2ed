import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Plus, Search } from 'lucide-react';
import { ZAdminGroupListQuerySchema, type TGroupStatusFilter } from '@saljportalen/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { Table, TBody, KronorTd, Td, Th, THead, Tr } from '@/components/ui/table';
import { formatCount, formatDate } from '@/lib/format';
import { paths } from '@/lib/paths';
import { GoalProgress } from '@/features/class-goal';
import { notifyFailure } from '../admin-page-helpers';
import { AdminPager } from '../components/admin-pager';
import { LoadingStatus, TableSkeletonRows } from '../components/table-skeleton-rows';
import { useGroups } from './api/list-groups';
import { LoadError } from '@/components/ui/load-error';

const PAGE_SIZE = 50;
const STATUS_OPTIONS: { value: TGroupStatusFilter; label: string }[] = [
  { value: 'all', label: 'Alla' },
  { value: 'active', label: 'Aktiva' },
  { value: 'archived', label: 'Arkiverade' },
];

const readStatus = (value: string | null): TGroupStatusFilter => (value === 'active' || value === 'archived' ? value : 'all');
const readOffset = (value: string | null): number => (value && /^\d+$/.test(value) ? Number(value) : 0);

/** The search as the server reads it (trimmed, at most 100 characters; empty is no search). */
const groupSearchSchema = z.object({ q: ZAdminGroupListQuerySchema.shape.q });

/** spec §2 /admin/groups: status filter (all/active/archived, default all, from `?status=`) and search. */
export function GroupsPage() {
  const [params, setParams] = useSearchParams();
  const status = readStatus(params.get('status'));
  const q = params.get('q') ?? '';
  const offset = readOffset(params.get('offset'));
  const search = useForm({ resolver: zodResolver(groupSearchSchema), defaultValues: { q } });
  const resetSearch = search.reset;
  // The URL is the truth: back, forward or a link puts its search into the field.
  useEffect(() => resetSearch({ q }), [resetSearch, q]);

  const groups = useGroups({ status, q: q || undefined, limit: PAGE_SIZE, offset });
  useEffect(() => {
    if (groups.isError) notifyFailure('Fel vid hämtning av grupper', groups.error);
  }, [groups.isError, groups.error]);

  /** Changes the URL's filters; a new filter starts from the first page. */
  const update = (changes: { status?: TGroupStatusFilter; q?: string; offset?: number }) => {
    const next = new URLSearchParams(params);
    const values = { status, q, offset: 0, ...changes };
    if (values.status === 'all') next.delete('status');
    else next.set('status', values.status);
    if (values.q.trim()) next.set('q', values.q.trim());
    else next.delete('q');
    if (values.offset > 0) next.set('offset', String(values.offset));
    else next.delete('offset');
    setParams(next);
  };

  const onSearch = search.handleSubmit((values) => update({ q: values.q ?? '' }));

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-ink">Grupper</h1>
        <Button asChild variant="brand">
          <Link to={paths.adminGroupCreate}>
            <Plus aria-hidden="true" />
            Skapa grupp
          </Link>
        </Button>
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field label="Status" className="sm:w-48">
          <Select value={status} onChange={(event) => update({ status: readStatus(event.target.value) })}>
            {STATUS_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </Field>
        <form role="search" onSubmit={onSearch} noValidate className="flex flex-1 items-end gap-2">
          <Field label="Sök grupp" className="flex-1" error={search.formState.errors.q?.message}>
            <Input type="search" placeholder="Namn eller gruppkod" {...search.register('q')} />
          </Field>
          <Button type="submit" variant="outline">
            <Search aria-hidden="true" />
            Sök
          </Button>
        </form>
      </div>

      {groups.isError ? (
        <LoadError title="Fel vid hämtning av grupper" query={groups} />
      ) : groups.data && groups.data.items.length === 0 ? (
        <p className="rounded-xl border border-line bg-white p-6 text-center text-muted" role="status">
          Inga grupper
        </p>
      ) : (
        <>
          {groups.isPending && <LoadingStatus>Laddar grupper...</LoadingStatus>}
          <Table cards label="Grupper" aria-busy={groups.isPending}>
            <caption className="sr-only">Grupper</caption>
            <THead>
              <Tr>
                <Th>Grupp</Th>
                <Th>Gruppkod</Th>
                <Th>Status</Th>
                <Th className="text-right">Personer</Th>
                <Th className="text-right">Försäljning</Th>
                <Th className="text-right">Provision</Th>
                <Th>Mål</Th>
                <Th>Skapad</Th>
              </Tr>
            </THead>
            <TBody>
              {groups.isPending ? (
                <TableSkeletonRows rows={5} columns={8} />
              ) : (
                groups.data?.items.map((group) => (
                  <Tr key={group.id}>
                    <Td>
                      <Link
                        to={paths.adminGroup(group.id)}
                        className="whitespace-nowrap font-semibold text-brand underline-offset-4 hover:underline"
                      >
                        {group.name}
                      </Link>
                    </Td>
                    <Td data-label="Gruppkod" className="font-mono tracking-wider">
                      {group.code}
                    </Td>
                    <Td data-label="Status">
                      {group.archived ? <Badge variant="warning">Arkiverad</Badge> : <Badge variant="success">Aktiv</Badge>}
                    </Td>
                    <Td data-label="Personer" className="text-right tabular-nums">
                      {formatCount(group.sellers_count)}
                    </Td>
                    <KronorTd data-label="Försäljning" kronor={group.total_sales} />
                    <KronorTd data-label="Provision" kronor={group.total_commission} />
                    <Td data-label="Mål" className="min-w-40">
                      {group.goal ? (
                        <GoalProgress compact goal={group.goal} earned={group.total_commission} />
                      ) : (
                        <span className="text-muted">–</span>
                      )}
                    </Td>
                    <Td data-label="Skapad" className="whitespace-nowrap">
                      {formatDate(group.created_at)}
                    </Td>
                  </Tr>
                ))
              )}
            </TBody>
          </Table>
          {groups.data && (
            <AdminPager
              label="Sidor i grupplistan"
              offset={offset}
              limit={PAGE_SIZE}
              total={groups.data.total}
              onOffsetChange={(next) => update({ offset: next })}
            />
          )}
        </>
      )}
    </div>
  );
}
