import { Suspense, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowRight, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, StatCard } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { formatCount, formatKronor } from '@/lib/format';
import { paths } from '@/lib/paths';
import { LoadingStatus } from '../components/table-skeleton-rows';
import { useAdminOverview } from './api/get-overview';
import { useSalesPerWeek } from './api/get-sales-per-week';
import { perWeekModel, SalesChart } from '@/features/sales-chart';
import { LoadError } from '@/components/ui/load-error';
import { EndedCampaignsToSettle } from '../payouts';

/** A count that leads to its list (spec §2: tiles link to the groups, archived groups and sellers). */
function LinkTile({ to, label, value }: { to: string; label: string; value: string }) {
  return (
    <Link to={to} className="group block rounded-xl">
      <Card className="flex h-full items-end justify-between gap-3 p-4 transition-colors group-hover:border-brand">
        <div>
          <p className="text-sm text-muted">{label}</p>
          <p className="mt-1 text-2xl font-bold tabular-nums text-ink">{value}</p>
        </div>
        <ArrowRight className="size-5 text-brand" aria-hidden="true" />
      </Card>
    </Link>
  );
}

/** Counts sit two to a row on a phone; money (which runs to millions) gets a whole row. */
function TileGrid({ children, money = false }: { children: ReactNode; money?: boolean }) {
  return <div className={cn('grid gap-3 lg:grid-cols-3', money ? 'grid-cols-1 sm:grid-cols-3' : 'grid-cols-2')}>{children}</div>;
}

/** Issue 20: every group's sales per week, the last 26 weeks. */
function SalesPerWeek() {
  const weeks = useSalesPerWeek();
  const model = useMemo(() => (weeks.data ? perWeekModel(weeks.data) : undefined), [weeks.data]);
  if (weeks.isError) return null;
  return (
    <Card className="p-4 sm:p-5">
      <Suspense fallback={<Skeleton className="h-[260px] w-full" />}>
        {model ? <SalesChart heading="Försäljning per vecka" model={model} /> : <Skeleton className="h-[260px] w-full" />}
      </Suspense>
    </Card>
  );
}

/** spec §2 admin overview: active and archived groups, sellers (admins included), total sales and commission. */
export function AdminOverviewPage() {
  const overview = useAdminOverview();

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-ink">Översikt</h1>
        <Button asChild variant="brand">
          <Link to={paths.adminGroupCreate}>
            <Plus aria-hidden="true" />
            Skapa grupp
          </Link>
        </Button>
      </div>

      {overview.isPending && (
        <>
          <LoadingStatus>Laddar översikten...</LoadingStatus>
          <TileGrid>
            {Array.from({ length: 5 }, (_, index) => (
              <Card key={index} className="p-4" aria-hidden="true">
                <Skeleton className="h-4 w-28" />
                <Skeleton className="mt-3 h-7 w-20" />
              </Card>
            ))}
          </TileGrid>
        </>
      )}

      {overview.isError && <LoadError title="Kunde inte ladda översikten" query={overview} retryWhileFetching={false} />}

      {overview.data && (
        <>
          <section aria-labelledby="overview-groups" className="space-y-3">
            <h2 id="overview-groups" className="text-lg font-semibold text-ink">
              Grupper och säljare
            </h2>
            <TileGrid>
              <LinkTile to={paths.adminGroups} label="Aktiva grupper" value={formatCount(overview.data.active_groups)} />
              <LinkTile to={paths.adminArchivedGroups} label="Arkiverade grupper" value={formatCount(overview.data.archived_groups)} />
              <LinkTile to={paths.adminSellers} label="Säljare (inkl. admins)" value={formatCount(overview.data.sellers_total)} />
            </TileGrid>
          </section>
          <section aria-labelledby="overview-unattributed" className="space-y-3">
            <h2 id="overview-unattributed" className="text-lg font-semibold text-ink">
              Att hantera
            </h2>
            <TileGrid>
              <LinkTile
                to={paths.adminUnattributedOrders}
                label="Ordrar utan säljare"
                value={formatCount(overview.data.unattributed_orders)}
              />
            </TileGrid>
          </section>
          <EndedCampaignsToSettle />
          <section aria-labelledby="overview-sales" className="space-y-3">
            <h2 id="overview-sales" className="text-lg font-semibold text-ink">
              Försäljning i alla grupper
            </h2>
            <TileGrid money>
              <StatCard label="Total försäljning" value={formatKronor(overview.data.total_sales)} />
              <StatCard label="Total provision" value={formatKronor(overview.data.total_commission)} />
              <StatCard label="Ordrar" value={formatCount(overview.data.orders_count)} />
            </TileGrid>
            <SalesPerWeek />
          </section>
        </>
      )}
    </div>
  );
}
