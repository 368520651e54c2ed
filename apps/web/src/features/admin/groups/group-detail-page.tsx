import { Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Archive, ArchiveRestore, Download, Pencil, UserPlus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useQueryClient } from '@tanstack/react-query';
import { Card, CardContent, CardHeader, CardTitle, StatCard } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TBody, KronorTd, Td, Th, THead, Tr } from '@/components/ui/table';
import { formatCount, formatKronor } from '@/lib/format';
import { ClassListImportCard, ProtectedIdentityCard } from '@/features/class-members';
import { paths } from '@/lib/paths';
import { notify } from '@/lib/toast';
import { GoalForm, GoalProgress } from '@/features/class-goal';
import { perDayModel, SalesChart } from '@/features/sales-chart';
import { ADMIN_QUERY_ROOT, isNotFound, isSessionFailure, notifyFailure, parseId, readOffset } from '../admin-page-helpers';
import { AdminPager } from '../components/admin-pager';
import { BackLink } from '../components/back-link';
import { LoadingStatus, TableSkeletonRows } from '../components/table-skeleton-rows';
import { useExportGroupCsv } from './api/export-group-csv';
import { useAdminGroupSalesPerDay } from './api/get-group-sales-per-day';
import { GROUP_PEOPLE_PAGE_SIZE, useGroupDetail, type GroupDetail } from './api/get-group-detail';
import { useRenameGroup } from './api/rename-group';
import { ArchiveNotConfirmedError, useSetGroupArchived } from './api/set-group-archived';
import { RenameGroupDialog } from './components/rename-group-dialog';
import { ArchiveGroupDialog } from './components/archive-group-dialog';
import { PayoutAccountCard } from './components/payout-account-card';

function GroupNotFound() {
  return (
    <div className="space-y-4">
      <BackLink to={paths.adminGroups}>Alla grupper</BackLink>
      <h1 className="text-2xl font-bold text-ink">Grupp hittades inte</h1>
      <p className="text-muted">Gruppen finns inte, eller så har länken fel id.</p>
    </div>
  );
}

/** spec §2 group detail: four cards over the group's orders and people. */
function GroupCards({ detail }: { detail: GroupDetail | undefined }) {
  if (!detail) {
    return (
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-hidden="true">
        {Array.from({ length: 4 }, (_, index) => (
          <Card key={index} className="p-4">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="mt-3 h-7 w-20" />
          </Card>
        ))}
      </div>
    );
  }
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <StatCard label="Total försäljning" value={formatKronor(detail.totals.total_sales)} />
      <StatCard label="Total provision" value={formatKronor(detail.totals.total_commission)} />
      <StatCard label="Ordrar" value={formatCount(detail.totals.orders_count)} />
      <StatCard label="Antal personer" value={formatCount(detail.totals.sellers_count)} />
    </div>
  );
}

/** The class goal (issue 20): its progress, and the superadmin sets, changes or removes it. */
function GroupGoalCard({ detail }: { detail: GroupDetail }) {
  const queryClient = useQueryClient();
  const { group } = detail;
  return (
    <Card role="region" aria-labelledby="group-goal-title">
      <CardHeader>
        <CardTitle id="group-goal-title">Klassens mål</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {group.goal ? (
          <GoalProgress goal={group.goal} earned={detail.totals.total_commission} />
        ) : (
          <p className="text-muted">Gruppen har inget mål.</p>
        )}
        <details>
          <summary className="cursor-pointer font-medium text-brand">{group.goal ? 'Ändra målet' : 'Sätt ett mål'}</summary>
          <div className="pt-3">
            <GoalForm
              key={JSON.stringify(group.goal)}
              groupId={group.id}
              goal={group.goal}
              onSaved={() => queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] })}
            />
          </div>
        </details>
      </CardContent>
    </Card>
  );
}

/** Issue 20: the class's sales over its campaign against its goal, as its members see it. */
function GroupSalesOverTime({ groupId }: { groupId: number }) {
  const sales = useAdminGroupSalesPerDay(groupId);
  const model = useMemo(() => (sales.data ? perDayModel(sales.data) : undefined), [sales.data]);
  if (sales.isError) return null;
  return (
    <Card className="p-4 sm:p-5">
      <Suspense fallback={<Skeleton className="h-[260px] w-full" />}>
        {model ? <SalesChart heading="Försäljning över tid" headingLevel="h2" model={model} /> : <Skeleton className="h-[260px] w-full" />}
      </Suspense>
    </Card>
  );
}

/**
 * spec §2: people by total sales, highest first, admins marked; 3 skeleton rows while loading.
 * While another page loads, the shown one stays, dimmed.
 */
function PeopleTable({ groupId, detail, stale }: { groupId: number; detail: GroupDetail | undefined; stale: boolean }) {
  if (detail && detail.sellers_page.total === 0) {
    return <p className="rounded-xl border border-line bg-white p-6 text-center text-muted">Inga personer i gruppen ännu</p>;
  }
  return (
    <Table cards label="Personer i gruppen" aria-busy={!detail || stale} className={stale ? 'opacity-60' : undefined}>
      <caption className="sr-only">Personer i gruppen, sorterade efter försäljning</caption>
      <THead>
        <Tr>
          <Th>Namn</Th>
          <Th className="text-right">Ordrar</Th>
          <Th className="text-right">Försäljning</Th>
          <Th className="text-right">Provision</Th>
          <Th>
            <span className="sr-only">Ordrar per person</span>
          </Th>
        </Tr>
      </THead>
      <TBody>
        {!detail ? (
          <TableSkeletonRows rows={3} columns={5} />
        ) : (
          detail.sellers.map((person) => (
            <Tr key={person.user_id}>
              <Td>
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-ink">{person.full_name}</span>
                  {person.is_admin && <Badge variant="brand">Admin</Badge>}
                </div>
                {person.email && <p className="text-xs text-muted">{person.email}</p>}
              </Td>
              <Td data-label="Ordrar" className="text-right tabular-nums">
                {formatCount(person.orders_count)}
              </Td>
              <KronorTd data-label="Försäljning" kronor={person.total_sales} />
              <KronorTd data-label="Provision" kronor={person.total_commission} />
              <Td data-wide className="text-right">
                <Link
                  to={paths.adminSellerOrders(groupId, person.user_id)}
                  className="whitespace-nowrap font-medium text-brand underline-offset-4 hover:underline"
                >
                  Visa ordrar<span className="sr-only"> för {person.full_name}</span>
                </Link>
              </Td>
            </Tr>
          ))
        )}
      </TBody>
    </Table>
  );
}

/** spec §2 /admin/groups/{id}. */
export function GroupDetailPage() {
  const params = useParams();
  const groupId = parseId(params.id);
  const [searchParams, setSearchParams] = useSearchParams();
  const offset = readOffset(searchParams.get('offset'));
  const navigate = useNavigate();
  const detailQuery = useGroupDetail(groupId, offset);
  const exportCsv = useExportGroupCsv(groupId ?? 0);
  const setArchived = useSetGroupArchived(groupId ?? 0);
  const rename = useRenameGroup(groupId ?? 0);
  const [renameOpen, setRenameOpen] = useState(false);
  const [archiveOpen, setArchiveOpen] = useState(false);

  // spec §8: 'Fel vid hämtning av grupp', then back to the list. A missing group is shown here instead.
  const failed = detailQuery.isError && !isNotFound(detailQuery.error);
  useEffect(() => {
    if (!failed || isSessionFailure(detailQuery.error)) return;
    notifyFailure('Fel vid hämtning av grupp', detailQuery.error);
    navigate(paths.adminGroups, { replace: true });
  }, [failed, detailQuery.error, navigate]);

  const showOffset = (next: number) => setSearchParams(next > 0 ? { offset: String(next) } : {});
  // A page past the end (an old link, fewer people now) gives way to the first page.
  const pastEnd = offset > 0 && !detailQuery.isPlaceholderData && detailQuery.data?.sellers.length === 0;
  useEffect(() => {
    if (pastEnd) setSearchParams({}, { replace: true });
  }, [pastEnd, setSearchParams]);

  if (groupId === undefined || (detailQuery.isError && isNotFound(detailQuery.error))) return <GroupNotFound />;
  if (failed) return null;

  const detail = detailQuery.data;
  const group = detail?.group;

  const onToggleArchived = async () => {
    if (!group) return;
    const archived = !group.archived;
    try {
      await setArchived.mutateAsync(archived);
      setArchiveOpen(false);
      notify.success(archived ? 'Grupp arkiverad' : 'Grupp återaktiverad');
    } catch (error) {
      setArchiveOpen(false);
      if (error instanceof ArchiveNotConfirmedError) notify.error('Kunde inte bekräfta arkivering');
      else notifyFailure('Kunde inte uppdatera grupp', error);
    }
  };

  const onExport = async () => {
    try {
      await exportCsv.mutateAsync();
    } catch (error) {
      notifyFailure('Export misslyckades', error);
    }
  };

  const onRename = async (name: string) => {
    try {
      await rename.mutateAsync(name);
      notify.success('Gruppnamn uppdaterat');
      setRenameOpen(false);
    } catch (error) {
      notifyFailure('Kunde inte byta namn', error);
    }
  };

  return (
    <div className="space-y-6">
      <BackLink to={paths.adminGroups}>Alla grupper</BackLink>

      {!group ? (
        <div className="space-y-3" aria-hidden="true">
          <Skeleton className="h-8 w-64" />
          <Skeleton className="h-5 w-40" />
        </div>
      ) : (
        <div className="space-y-4">
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="break-words text-2xl font-bold text-ink">{group.name}</h1>
              {group.archived ? <Badge variant="warning">Arkiverad</Badge> : <Badge variant="success">Aktiv</Badge>}
            </div>
            <p className="mt-1 text-muted">
              Gruppkod: <span className="font-mono text-lg font-semibold tracking-widest text-ink">{group.code}</span>
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="brand">
              <Link to={paths.adminGroupAddUser(group.id)}>
                <UserPlus aria-hidden="true" />
                Lägg till användare
              </Link>
            </Button>
            <Button variant="outline" onClick={onExport} disabled={exportCsv.isPending}>
              <Download aria-hidden="true" />
              {exportCsv.isPending ? 'Exporterar...' : 'Exportera CSV'}
            </Button>
            <Button variant="outline" onClick={() => setRenameOpen(true)}>
              <Pencil aria-hidden="true" />
              Byt namn
            </Button>
            <Button
              variant={group.archived ? 'success' : 'warning'}
              // Archiving asks first (issue 19); reactivating does not.
              onClick={group.archived ? onToggleArchived : () => setArchiveOpen(true)}
              disabled={setArchived.isPending}
            >
              {group.archived ? <ArchiveRestore aria-hidden="true" /> : <Archive aria-hidden="true" />}
              {group.archived ? 'Återaktivera' : 'Arkivera'}
            </Button>
          </div>
        </div>
      )}

      {!detail && <LoadingStatus>Laddar grupp...</LoadingStatus>}
      <GroupCards detail={detail} />
      {detail && <GroupGoalCard detail={detail} />}
      {detail && <PayoutAccountCard groupId={detail.group.id} />}
      <GroupSalesOverTime groupId={groupId} />

      {/* No name of its own: the table's scroll region is already the landmark 'Personer i gruppen' (axe landmark-unique). */}
      <section className="space-y-3">
        <h2 id="group-people" className="text-lg font-semibold text-ink">
          Personer i gruppen
        </h2>
        <PeopleTable groupId={groupId} detail={detail} stale={detailQuery.isPlaceholderData} />
        {detail && (
          <AdminPager
            label="Sidor av personer i gruppen"
            offset={offset}
            limit={GROUP_PEOPLE_PAGE_SIZE}
            total={detail.sellers_page.total}
            onOffsetChange={showOffset}
          />
        )}
      </section>

      {/* Issue 22: a superadmin marks protected personal data as the group's admin does. */}
      {/* Issue 31: a superadmin adds a class list as the group's admin does. */}
      {group && !group.archived && <ClassListImportCard groupId={groupId} />}
      {group && <ProtectedIdentityCard groupId={groupId} />}

      {group && (
        <RenameGroupDialog
          open={renameOpen}
          onOpenChange={setRenameOpen}
          currentName={group.name}
          onRename={onRename}
          pending={rename.isPending}
        />
      )}
      {group && (
        <ArchiveGroupDialog
          open={archiveOpen}
          onOpenChange={setArchiveOpen}
          groupName={group.name}
          onArchive={onToggleArchived}
          pending={setArchived.isPending}
        />
      )}
    </div>
  );
}
