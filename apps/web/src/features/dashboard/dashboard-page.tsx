import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { Flag, Hourglass, Settings2, ShieldCheck, Users, WifiOff } from 'lucide-react';
import type { TMeSummaryResponse } from '@saljportalen/contract';
import { PageContainer } from '@/components/layout/app-layout';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount, formatDateTime, formatKronor } from '@/lib/format';
import { isNetworkFailure, useIsOnline } from '@/lib/offline-cache';
import { paths } from '@/lib/paths';
import { useIsSuperadmin } from '@/features/admin-access';
import { CampaignNotices } from '@/features/campaign';
import { CatalogCard } from '@/features/catalog';
import { PersonalGoalCard } from '@/features/class-goal';
import { LeaderboardCard, useLeaderboard } from '@/features/leaderboard';
import { PersonalLinkCard } from '@/features/personal-link';
import { GroupSalesChart } from '@/features/sales-chart';
import { useGroupTotals } from './api/group-totals';
import { useMeSummary } from './api/me-summary';
import { GroupResults, StatList, StatListSkeleton } from '@/features/group-results';
import { firstName } from './first-name';
import { useLiveDashboard } from './use-live-dashboard';

const LOAD_ERROR = 'Något gick fel vid laddning av data.';

function SuperadminButton() {
  // spec §6/§9: shown when the admin check passes; the check stays fresh 10 minutes.
  const isSuperadmin = useIsSuperadmin();
  if (!isSuperadmin) return null;
  return (
    <Button asChild variant="accent" className="self-start">
      <Link to={paths.admin}>
        <ShieldCheck aria-hidden="true" />
        Superadmin
      </Link>
    </Button>
  );
}

function Greeting({ summary }: { summary: TMeSummaryResponse }) {
  const name = firstName(summary.user.full_name);
  const group = summary.group_hint;
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
      <div>
        <h1 className="text-2xl font-bold text-ink sm:text-3xl">{name ? `Hej, ${name}!` : 'Hej!'}</h1>
        {group && (
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-muted">
            <span className="font-semibold text-ink">{group.name}</span>
            <span>
              Gruppkod: <span className="font-mono font-semibold text-ink">{group.code}</span>
            </span>
            <Badge variant={summary.user.role === 'admin' ? 'brand' : 'default'}>
              {summary.user.role === 'admin' ? 'Admin' : 'Säljare'}
            </Badge>
          </p>
        )}
      </div>
      <SuperadminButton />
    </div>
  );
}

// The class list for marking protected identities (issue 22) is the teacher's alone: a pupil's
// phone never downloads it (decision 045).
const ProtectedIdentityCard = lazy(() => import('@/features/class-members').then((module) => ({ default: module.ProtectedIdentityCard })));
const ClassOrdersCard = lazy(() => import('@/features/class-members').then((module) => ({ default: module.ClassOrdersCard })));
const ClassListImportCard = lazy(() => import('@/features/class-members').then((module) => ({ default: module.ClassListImportCard })));
const ClassPayoutAccountCard = lazy(() =>
  import('@/features/class-members').then((module) => ({ default: module.ClassPayoutAccountCard })),
);

// Issue 31: the teacher's card once the campaign is over (what the money became, next term).
const ClassLinkCard = lazy(() => import('@/features/class-link').then((module) => ({ default: module.ClassLinkCard })));
const CampaignEndCard = lazy(() => import('@/features/campaign').then((module) => ({ default: module.CampaignEndCard })));

const GroupSettingsForms = lazy(() =>
  import('./components/group-settings-forms').then((module) => ({ default: module.GroupSettingsForms })),
);

/**
 * The group admin's choices for the class (issue 20): its goal and what its leaderboard shows.
 * The forms are made, and their code loaded, when the teacher first opens them (decision 045):
 * most visits never do, and the goal form's date field alone cost a load tens of milliseconds of
 * a phone's main thread (Intl's time zones). Once made they stay, so closing keeps what was typed.
 */
function GroupSettings({ groupId }: { groupId: number }) {
  const totals = useGroupTotals();
  const [opened, setOpened] = useState(false);
  // Drawn before the class's figures have arrived, so that nothing below it moves when they do
  // (at the top of a teacher's page, a late card pushed the leaderboard's switch from under a tap).
  return (
    <details
      className="group rounded-xl border border-line bg-white shadow-sm"
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary className="flex cursor-pointer items-center gap-2 rounded-xl p-4 font-semibold text-ink">
        <Settings2 className="size-5 text-brand" aria-hidden="true" />
        Klassens mål och topplista
      </summary>
      {opened &&
        (totals.data ? (
          <Suspense fallback={<Skeleton className="m-4 h-40" />}>
            <GroupSettingsForms
              groupId={groupId}
              goal={totals.data.goal}
              mode={totals.data.leaderboard_mode}
              campaign={totals.data.campaign}
            />
          </Suspense>
        ) : (
          <Skeleton className="m-4 h-40" />
        ))}
    </details>
  );
}

/**
 * The campaign's days at the top of the page, and once the campaign is over what the money became
 * (issue 31): the teacher's card to write it and start next term, the pupil's card to read it.
 */
function CampaignPart({
  teacher,
  groupId,
  groupName,
  archived,
}: {
  teacher: boolean;
  groupId: number;
  groupName: string;
  archived: boolean;
}) {
  const totals = useGroupTotals();
  const ended = totals.data?.campaign?.state === 'ended';
  return (
    <CampaignNotices
      totals={totals.data}
      groupName={groupName}
      archived={archived}
      instead={
        teacher && ended && !archived ? (
          <Suspense fallback={<Skeleton className="h-64 w-full" />}>
            <CampaignEndCard groupId={groupId} groupName={groupName} note={totals.data?.closing_note ?? null} />
          </Suspense>
        ) : undefined
      }
    />
  );
}

function GroupSummary({ final, groupId }: { final: boolean; groupId: number }) {
  const totals = useGroupTotals();
  return (
    <GroupResults
      totals={totals}
      final={final}
      chart={
        <Suspense fallback={<Skeleton className="h-[260px] w-full" />}>
          <GroupSalesChart groupId={groupId} />
        </Suspense>
      }
    />
  );
}

/**
 * An archived group has ended (issue 19): its figures are final, and its links no longer sell for
 * it (decision 027), so the link and the catalogue give way to this.
 */
function GroupEnded({ groupName }: { groupName: string }) {
  return (
    <Card className="flex gap-4 border-amber-300 bg-amber-50 p-6" role="region" aria-labelledby="group-ended-title">
      <Flag className="size-8 shrink-0 text-amber-700" aria-hidden="true" />
      <div>
        <h2 id="group-ended-title" className="text-lg font-semibold text-ink">
          Gruppen är avslutad
        </h2>
        <p className="mt-1 text-ink">
          Försäljningen för {groupName} är avslutad. Siffrorna här är gruppens slutliga resultat. Din personliga länk och katalogen säljer
          inte längre för gruppen. Tack för att du var med!
        </p>
      </div>
    </Card>
  );
}

/**
 * The installed app without network (issue 19): the figures as last fetched, and when; the
 * personal link below works as ever, since copying and sharing need no server.
 */
function OfflineNotice({ fetchedAt }: { fetchedAt?: number }) {
  return (
    <div role="status" className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <WifiOff className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div>
        <p className="font-semibold">Du är offline</p>
        {fetchedAt ? (
          <p className="mt-1 text-sm">
            Siffrorna hämtades <time dateTime={new Date(fetchedAt).toISOString()}>{formatDateTime(fetchedAt)}</time> och uppdateras när du
            är ansluten igen. Din personliga länk kan du kopiera och dela som vanligt.
          </p>
        ) : (
          <p className="mt-1 text-sm">Översikten visas när du är ansluten igen.</p>
        )}
      </div>
    </div>
  );
}

/**
 * The pupil's own goal, offered as a share of the class goal when there is one; measured, like the
 * class goal, in what the pupil has earned (their commission).
 */
function PersonalGoal({ earned, goal }: { earned: number; goal: number | null }) {
  const totals = useGroupTotals();
  if (!totals.data) return null;
  return <PersonalGoalCard goal={goal} earned={earned} classGoal={totals.data.goal} pupils={totals.data.participation.members} />;
}

/**
 * A pupil under 13 whose guardian has not approved yet (issue 22), or a pupil of a class list whose
 * guardian has not (issue 31, perhaps with no address given yet): said kindly, in place of the link
 * and the catalogue, which are not active until then.
 */
function AwaitingGuardianConsent() {
  return (
    <Card className="flex gap-4 border-sky-300 bg-sky-50 p-6" role="region" aria-labelledby="awaiting-consent-title">
      <Hourglass className="size-8 shrink-0 text-sky-800" aria-hidden="true" />
      <div>
        <h2 id="awaiting-consent-title" className="text-lg font-semibold text-ink">
          Väntar på godkännande från vårdnadshavare
        </h2>
        <p className="mt-1 text-ink">
          Din vårdnadshavare behöver godkänna ditt konto. När hen har gjort det får du din personliga länk och din katalog här, och du syns
          i topplistan. Vi mejlar hen när din lärare eller du har gett oss hens e-postadress: tipsa gärna hen om att titta i sin e-post!
        </p>
      </div>
    </Card>
  );
}

function NoActiveGroup() {
  return (
    <Card className="flex gap-4 p-6">
      <Users className="size-8 shrink-0 text-brand" aria-hidden="true" />
      <div>
        <h2 className="text-lg font-semibold text-ink">Du är inte med i någon aktiv grupp just nu</h2>
        <p className="mt-1 text-muted">
          När du går med i en klass eller förening med gruppkoden från din lärare eller ledare visas din försäljning, din personliga länk
          och gruppens topplista här. Är du med i flera grupper kan du välja grupp i menyn högst upp.
        </p>
      </div>
    </Card>
  );
}

function DashboardSkeleton() {
  return (
    <div className="space-y-6">
      <h1 className="sr-only">Översikt</h1>
      <p role="status" className="sr-only">
        Laddar översikten...
      </p>
      <div className="space-y-2">
        <Skeleton className="h-9 w-48" />
        <Skeleton className="h-5 w-72 max-w-full" />
      </div>
      <StatListSkeleton count={3} className="grid-cols-2 sm:grid-cols-3" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/**
 * spec §2 /dashboard: greeting, personal figures, link, catalogue, group summary and leaderboard;
 * a pupil's own part first, a teacher's class first (issue 33 point 1).
 */
export function DashboardPage() {
  const summary = useMeSummary();
  useLiveDashboard();
  // Started together with the summary rather than after it, so the page fills in at once.
  const totals = useGroupTotals();
  useLeaderboard();
  // The group's figures and leaderboard (below the personal part, on a phone below the first
  // screen) are drawn in a deferred render just after the first paint: a slow phone's main thread
  // is held for half the page at a time, and the seller's own figures and link show first.
  const showGroup = useDeferredValue(true, false);
  const online = useIsOnline();

  if (summary.isPending && !online) {
    return (
      <PageContainer>
        <h1 className="mb-4 text-2xl font-bold text-ink">Översikt</h1>
        <OfflineNotice />
      </PageContainer>
    );
  }

  if (summary.isPending) {
    return (
      // Fills the screen as DashboardPending does: the footer never shows and then jumps away.
      <PageContainer className="min-h-dvh">
        <DashboardSkeleton />
      </PageContainer>
    );
  }

  // A failed refresh leaves the last answer in place: it is shown, not replaced by the error.
  if (summary.isError && !summary.data) {
    return (
      <PageContainer>
        <h1 className="mb-4 text-2xl font-bold text-ink">Översikt</h1>
        <LoadError title={LOAD_ERROR} query={summary} showReason={false} />
      </PageContainer>
    );
  }

  const { user, group_hint: group, personal } = summary.data;
  // A guardian who sells for no group has their children's view instead (issue 22).
  if (!group && user.is_guardian) return <Navigate to={paths.guardian} replace />;
  const awaiting = user.awaiting_guardian_consent === true;
  // A group admin's dashboard leads with the class: its goal and leaderboard, its figures, its
  // list; their own selling comes after (issue 33 point 1). A pupil's leads with their own.
  const teacher = user.role === 'admin';
  const ownSelling = group && (
    <>
      <section aria-labelledby="personal-title" className="space-y-3">
        {/* After the class on a teacher's page, so said there; a pupil's page begins with it. */}
        <h2 id="personal-title" className={teacher ? 'text-lg font-semibold text-ink' : 'sr-only'}>
          {teacher ? 'Din egen försäljning' : 'Din försäljning'}
        </h2>
        <StatList
          className="grid-cols-2 sm:grid-cols-3"
          stats={[
            { label: 'Din försäljning', value: formatKronor(personal.total_sales) },
            { label: 'Din intjäning', value: formatKronor(personal.total_commission) },
            { label: 'Dina ordrar', value: formatCount(personal.orders_count) },
            // Issue 30 point 4: under a holding period, the part of the earnings not yet payable.
            ...(summary.data && summary.data.payout_hold_days > 0
              ? [
                  {
                    label: 'Väntande',
                    value: formatKronor(personal.pending_commission),
                    note: `Av din intjäning: köparen har ${summary.data.payout_hold_days} dagars ångerrätt, sedan kan den betalas ut.`,
                  },
                ]
              : []),
          ]}
        />
      </section>

      {!group.archived && awaiting && <AwaitingGuardianConsent />}
      {/* min-w-0: a grid column must not grow to its widest content on a phone. */}
      {!group.archived && personal.personal_link && (
        <div className="grid gap-6 lg:grid-cols-3 [&>*]:min-w-0">
          <div className="lg:col-span-2">
            <PersonalLinkCard
              link={personal.personal_link}
              sellerName={user.public_seller_name ?? ''}
              goal={totals.data?.goal}
              campaign={totals.data?.campaign}
            />
          </div>
          <CatalogCard sellerName={user.public_seller_name ?? firstName(user.full_name)} />
        </div>
      )}

      {/* A pupil's own goal; the teacher's card holds the class's. */}
      {!group.archived && user.role === 'seller' && <PersonalGoal earned={personal.total_commission} goal={personal.goal} />}
    </>
  );
  const classPart = group && (
    <>
      {teacher && !group.archived && <GroupSettings groupId={group.id} />}
      {(showGroup || teacher) && (
        <div className="grid gap-6 lg:grid-cols-3 [&>*]:min-w-0">
          <GroupSummary final={group.archived} groupId={group.id} />
          <div className="lg:col-span-2">
            <LeaderboardCard role={user.role ?? 'seller'} groupId={group.id} currentUserId={user.id} />
          </div>
        </div>
      )}
      {/* Issue 22: the teacher marks pupils with protected personal data. */}
      {teacher && (
        <Suspense fallback={null}>
          {/* Issue 31: pupils from a class list, with usernames and sign-in slips. */}
          {!group.archived && <ClassListImportCard groupId={group.id} />}
          {/* Issue 32: the class link, its poster and the text on the buyer pages. */}
          {!group.archived && <ClassLinkCard groupId={group.id} />}
          <ProtectedIdentityCard groupId={group.id} />
          {!group.archived && <ClassOrdersCard groupId={group.id} />}
          <ClassPayoutAccountCard groupId={group.id} />
        </Suspense>
      )}
    </>
  );
  return (
    <PageContainer>
      <div className="space-y-6">
        {(!online || isNetworkFailure(summary.error)) && <OfflineNotice fetchedAt={summary.dataUpdatedAt} />}
        <Greeting summary={summary.data} />
        {!group || (!personal.personal_link && !awaiting) ? (
          <NoActiveGroup />
        ) : (
          <>
            {group.archived && <GroupEnded groupName={group.name} />}
            <CampaignPart teacher={teacher} groupId={group.id} groupName={group.name} archived={group.archived} />
            {teacher ? (
              <>
                {classPart}
                {ownSelling}
              </>
            ) : (
              <>
                {ownSelling}
                {classPart}
              </>
            )}
          </>
        )}
      </div>
    </PageContainer>
  );
}
