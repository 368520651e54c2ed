import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { DATE_RANGE_MESSAGE } from '@saljportalen/contract';
import { Search } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { Table, TBody, KronorTd, Td, Th, THead, Tr } from '@/components/ui/table';
import { formatCount } from '@/lib/format';
import { paths } from '@/lib/paths';
import { notifyFailure, parseId, readOffset } from '../admin-page-helpers';
import { AdminPager } from '../components/admin-pager';
import { LoadingStatus, TableSkeletonRows } from '../components/table-skeleton-rows';
import { Combobox, type ComboboxOption } from '@/components/ui/combobox';
import { groupChoice, groupOptionsState, groupsHint, useGroupOptions } from '../groups';
import { useSellers, type SellerGroupFilter, type SellerSortOption } from './api/list-sellers';
import { LoadError } from '@/components/ui/load-error';

const PAGE_SIZE = 50;
/** spec §2: all groups, only active groups, only archived groups, or one group (every group, by name). */
const GROUP_FILTERS: ComboboxOption[] = [
  { value: 'all', label: 'Alla grupper' },
  { value: 'active', label: 'Endast aktiva grupper' },
  { value: 'archived', label: 'Endast arkiverade grupper' },
];
const SORT_OPTIONS: { value: SellerSortOption; label: string }[] = [
  { value: 'sales', label: 'Högst försäljning' },
  { value: 'commission', label: 'Högst provision' },
  { value: 'orders', label: 'Flest ordrar' },
];

const readSort = (value: string | null): SellerSortOption => (value === 'commission' || value === 'orders' ? value : 'sales');
const readGroup = (value: string | null): SellerGroupFilter =>
  value === 'active' || value === 'archived' ? value : (parseId(value ?? undefined) ?? 'all');
const readDate = (value: string | null): string => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');

/** The dates of the filter, either of them empty; the contract's rule for their order. */
const sellerDatesSchema = z
  .object({ from: z.string(), to: z.string() })
  .refine((dates) => !dates.from || !dates.to || dates.from <= dates.to, { message: DATE_RANGE_MESSAGE, path: ['to'] });
type SellerDates = z.infer<typeof sellerDatesSchema>;

/**
 * spec §2 all sellers: from, to, group and sort filters and a fetch button. A change of sort or
 * group fetches at once; the dates apply when 'Hämta' is pressed. The filters live in the URL.
 */
export function SellersPage() {
  const [params, setParams] = useSearchParams();
  const from = readDate(params.get('from'));
  const to = readDate(params.get('to'));
  const group = readGroup(params.get('group'));
  const sort = readSort(params.get('sort'));
  const offset = readOffset(params.get('offset'));

  const dates = useForm<SellerDates>({ resolver: zodResolver(sellerDatesSchema), defaultValues: { from, to } });
  const resetDates = dates.reset;
  // The URL is the truth: back, forward or a link puts its dates into the fields.
  useEffect(() => resetDates({ from, to }), [resetDates, from, to]);
  const [draftFrom, draftTo] = dates.watch(['from', 'to']);

  const groups = useGroupOptions();
  const groupChoices = useMemo(() => [...GROUP_FILTERS, ...(groups.data ?? []).map(groupChoice)], [groups.data]);
  const sellers = useSellers({ from: from || undefined, to: to || undefined, group, sort, limit: PAGE_SIZE, offset });
  useEffect(() => {
    if (sellers.isError) notifyFailure('Fel vid hämtning', sellers.error);
  }, [sellers.isError, sellers.error]);

  const update = (changes: { from?: string; to?: string; group?: SellerGroupFilter; sort?: SellerSortOption; offset?: number }) => {
    const values = { from, to, group, sort, offset: 0, ...changes };
    const next = new URLSearchParams();
    if (values.from) next.set('from', values.from);
    if (values.to) next.set('to', values.to);
    if (values.group !== 'all') next.set('group', String(values.group));
    if (values.sort !== 'sales') next.set('sort', values.sort);
    if (values.offset > 0) next.set('offset', String(values.offset));
    setParams(next);
  };

  const onFetch = dates.handleSubmit((values) => {
    if (values.from === from && values.to === to && offset === 0) void sellers.refetch();
    else update(values);
  });

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-ink">Säljare</h1>

      <form
        onSubmit={onFetch}
        noValidate
        aria-label="Filter"
        className="grid grid-cols-2 gap-3 lg:grid-cols-[1fr_1fr_1.5fr_1fr_auto] lg:items-start"
      >
        <Field label="Från">
          <Input type="date" max={draftTo || undefined} {...dates.register('from')} />
        </Field>
        <Field label="Till" error={dates.formState.errors.to?.message}>
          <Input type="date" min={draftFrom || undefined} {...dates.register('to')} />
        </Field>
        <Field label="Grupp" className="col-span-2 lg:col-span-1" hint={groupsHint(groupOptionsState(groups))}>
          <Combobox
            value={String(group)}
            onChange={(value) => update({ group: readGroup(value) })}
            options={groupChoices}
            listLabel="Grupper"
            // A group in the URL that is not (yet) among the options still shows as chosen.
            fallbackLabel={groups.isPending ? 'Hämtar grupper...' : `Grupp ${group}`}
          />
        </Field>
        <Field label="Sortera" className="col-span-2 sm:col-span-1">
          <Select value={sort} onChange={(event) => update({ sort: readSort(event.target.value) })}>
            {SORT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </Field>
        <div className="col-span-2 flex items-end sm:col-span-1 lg:pt-[1.625rem]">
          <Button type="submit" variant="brand" className="w-full lg:w-auto" disabled={sellers.isFetching}>
            <Search aria-hidden="true" />
            Hämta
          </Button>
        </div>
      </form>

      {sellers.isError ? (
        <LoadError title="Fel vid hämtning" query={sellers} />
      ) : sellers.data && sellers.data.items.length === 0 ? (
        <p className="rounded-xl border border-line bg-white p-6 text-center text-muted" role="status">
          Inga personer hittades.
        </p>
      ) : (
        <>
          {sellers.isPending && <LoadingStatus>Laddar säljare...</LoadingStatus>}
          <Table cards label="Säljare" aria-busy={sellers.isPending}>
            <caption className="sr-only">
              Säljare, sorterade efter {SORT_OPTIONS.find((option) => option.value === sort)!.label.toLowerCase()}
            </caption>
            <THead>
              <Tr>
                <Th>Namn</Th>
                <Th>Grupp</Th>
                <Th className="text-right">Ordrar</Th>
                <Th className="text-right">Försäljning</Th>
                <Th className="text-right">Provision</Th>
              </Tr>
            </THead>
            <TBody>
              {sellers.isPending ? (
                <TableSkeletonRows rows={5} columns={5} />
              ) : (
                sellers.data?.items.map((seller) => (
                  <Tr key={`${seller.user_id}-${seller.group_id}`}>
                    <Td>
                      <div className="flex items-center gap-2 whitespace-nowrap">
                        <Link
                          to={paths.adminSellerOrders(seller.group_id, seller.user_id)}
                          className="font-semibold text-brand underline-offset-4 hover:underline"
                        >
                          {seller.full_name}
                        </Link>
                        {seller.is_admin && <Badge variant="brand">Admin</Badge>}
                      </div>
                    </Td>
                    <Td data-label="Grupp">
                      <div className="flex items-center gap-2 whitespace-nowrap">
                        <Link to={paths.adminGroup(seller.group_id)} className="text-ink underline-offset-4 hover:underline">
                          {seller.group_name}
                        </Link>
                        {!seller.is_active && <Badge variant="warning">Arkiverad</Badge>}
                      </div>
                    </Td>
                    <Td data-label="Ordrar" className="text-right tabular-nums">
                      {formatCount(seller.orders_count)}
                    </Td>
                    <KronorTd data-label="Försäljning" kronor={seller.total_sales} />
                    <KronorTd data-label="Provision" kronor={seller.total_commission} />
                  </Tr>
                ))
              )}
            </TBody>
          </Table>
          {sellers.data && (
            <AdminPager
              label="Sidor i säljarlistan"
              offset={offset}
              limit={PAGE_SIZE}
              total={sellers.data.total}
              onOffsetChange={(next) => update({ offset: next })}
            />
          )}
        </>
      )}
    </div>
  );
}
