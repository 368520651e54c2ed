import { useId } from 'react';
import { EyeOff, Trophy } from 'lucide-react';
import type {
  TLeaderboardItem,
  TMembershipRole,
  TOwnOnlyLeaderboard,
  TParticipation,
  TParticipationLeaderboard,
} from '@saljportalen/contract';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { TBody, THead, KronorTd, Td, Th, Tr } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { formatCount, formatKronor, genitive } from '@/lib/format';
import { notify, notifyFailure } from '@/lib/toast';
import { useLeaderboard, type LeaderboardSource } from '../api/leaderboard';
import { useSetLeaderboardVisibility } from '../api/leaderboard-visibility';

/** spec §2: the top five are styled specially; the podium gets its own colours. */
const rankStyles: Record<number, string> = {
  1: 'bg-amber-300 text-ink ring-2 ring-amber-500',
  2: 'bg-slate-300 text-ink ring-2 ring-slate-500',
  3: 'bg-orange-200 text-orange-950 ring-2 ring-orange-400',
  4: 'bg-brand-soft text-brand',
  5: 'bg-brand-soft text-brand',
};

function RankBadge({ rank }: { rank: number }) {
  return (
    <span
      className={cn(
        'inline-flex size-8 items-center justify-center rounded-full text-sm font-bold tabular-nums',
        rankStyles[rank] ?? 'text-muted',
      )}
    >
      {rank}
    </span>
  );
}

function VisibilitySwitch({ groupId, visible }: { groupId: number; visible: boolean }) {
  const labelId = useId();
  const setVisibility = useSetLeaderboardVisibility();
  const onToggle = async () => {
    // aria-disabled rather than disabled while saving: a disabled button drops the keyboard's focus,
    // and the next Space would do nothing (issue 19).
    if (setVisibility.isPending) return;
    try {
      await setVisibility.mutateAsync({ group_id: groupId, show_leaderboard: !visible });
      notify.success('Inställning uppdaterad');
    } catch (error) {
      notifyFailure('Kunde inte uppdatera inställningen', error);
    }
  };
  return (
    <div className="flex items-center gap-3">
      <span id={labelId} className="text-sm font-medium text-ink">
        Visa för säljarna
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={visible}
        aria-labelledby={labelId}
        aria-disabled={setVisibility.isPending}
        onClick={onToggle}
        className={cn(
          'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors aria-disabled:opacity-60',
          visible ? 'bg-brand' : 'bg-slate-500',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'inline-block size-5 rounded-full bg-white shadow transition-transform',
            visible ? 'translate-x-6' : 'translate-x-1',
          )}
        />
      </button>
    </div>
  );
}

function LeaderboardTable({
  items,
  currentUserId,
  titleId,
  meLabel,
}: {
  items: TLeaderboardItem[];
  currentUserId: number;
  titleId: string;
  meLabel: string;
}) {
  if (items.length === 0) return <p className="text-muted">Ingen i gruppen har sålt något ännu.</p>;
  return (
    // A narrow phone may scroll the table sideways: the region takes focus so the keyboard can too.
    // The rank column is exactly its badge wide on a phone (pl-3 + size-8 + pr-1 = w-12), so the
    // demo class fits a 390 px screen without a sideways scroll.
    <div role="region" aria-labelledby={titleId} tabIndex={0} className="-mx-5 overflow-x-auto">
      <table aria-labelledby={titleId} className="w-full border-collapse text-left text-sm">
        <THead>
          <Tr>
            <Th className="w-12 pl-3 pr-1 sm:w-14 sm:px-5">Plats</Th>
            <Th className="px-2 sm:px-3">Säljare</Th>
            <Th className="px-2 text-right sm:px-3">Försäljning</Th>
            <Th className="pl-2 pr-4 text-right sm:px-3 sm:pr-5">Intjäning</Th>
          </Tr>
        </THead>
        <TBody>
          {items.map((item, index) => {
            const rank = index + 1;
            const isMe = item.user_id === currentUserId;
            return (
              <Tr key={item.user_id} className={cn(rank <= 5 && 'bg-amber-50/60', isMe && 'bg-sky-50')}>
                <Td className="py-2 pl-3 pr-1 sm:px-5">
                  <RankBadge rank={rank} />
                </Td>
                <Td className={cn('px-2 py-2 sm:px-3', rank <= 5 && 'font-semibold')}>
                  {/* A long name breaks rather than widening the table past a phone's screen. */}
                  <span className="inline-flex flex-wrap items-center gap-2 [overflow-wrap:anywhere]">
                    {rank === 1 && <Trophy className="size-4 text-amber-700" aria-hidden="true" />}
                    {item.seller_name}
                    {isMe && <Badge variant="brand">{meLabel}</Badge>}
                  </span>
                </Td>
                <KronorTd className="px-2 py-2 sm:px-3" kronor={item.sales} />
                <KronorTd className="py-2 pl-2 pr-4 sm:px-3 sm:pr-5" kronor={item.commission} />
              </Tr>
            );
          })}
        </TBody>
      </table>
    </div>
  );
}

/** '18 av 25 har sålt': the share of the class that has started (issue 20). */
export const participationText = ({ started, members }: TParticipation) => `${formatCount(started)} av ${formatCount(members)} har sålt`;

/** `participation`: who has sold at least once, in name order, with no amounts and no ranks. */
function ParticipationList({
  leaderboard,
  currentUserId,
  meLabel,
}: {
  leaderboard: TParticipationLeaderboard;
  currentUserId: number;
  meLabel: string;
}) {
  return (
    <div className="space-y-3">
      <p className="text-lg font-semibold text-ink">{participationText(leaderboard.participation)}</p>
      {leaderboard.sellers.length === 0 ? (
        <p className="text-muted">Ingen i gruppen har sålt något ännu.</p>
      ) : (
        <ul aria-label="De som har sålt" className="flex flex-wrap gap-2">
          {leaderboard.sellers.map((seller) => (
            <li
              key={seller.user_id}
              className={cn(
                'inline-flex items-center gap-2 rounded-full border border-line px-3 py-1 text-sm text-ink [overflow-wrap:anywhere]',
                seller.user_id === currentUserId && 'border-brand bg-sky-50',
              )}
            >
              {seller.seller_name}
              {seller.user_id === currentUserId && <Badge variant="brand">{meLabel}</Badge>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** `own_only`: the caller's own figures, the class total and the share started; nobody else's. */
function OwnFigures({ leaderboard, owner }: { leaderboard: TOwnOnlyLeaderboard; owner?: string }) {
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="text-sm text-muted">{owner ? `${genitive(owner)} försäljning` : 'Din försäljning'}</dt>
          <dd className="text-xl font-bold tabular-nums text-ink">{formatKronor(leaderboard.own.sales)}</dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="text-sm text-muted">Klassen totalt</dt>
          <dd className="text-xl font-bold tabular-nums text-ink">{formatKronor(leaderboard.total_sales)}</dd>
        </div>
      </dl>
      <p className="font-semibold text-ink">{participationText(leaderboard.participation)}</p>
      <p className="text-sm text-muted">
        {owner
          ? `Här visas bara ${genitive(owner)} egna siffror och klassens gemensamma resultat.`
          : 'Här visas bara dina egna siffror och klassens gemensamma resultat.'}
      </p>
    </div>
  );
}

/**
 * spec §2 leaderboard: rank numbers, the top five styled; a seller sees it only while it is
 * visible (the server sends no rows otherwise); the group's admins always see it and toggle it.
 */
export function LeaderboardCard({
  role,
  groupId,
  currentUserId,
  source,
  owner,
}: {
  role: TMembershipRole;
  groupId: number;
  currentUserId: number;
  /** Another source than the seller's own (the guardian view), read only. */
  source?: LeaderboardSource;
  /** The child's first name, for a guardian: the card speaks of the child (their row's badge, 'Alvas försäljning'). */
  owner?: string;
}) {
  const titleId = useId();
  const meLabel = owner ?? 'Du';
  const leaderboard = useLeaderboard(source);
  const isAdmin = role === 'admin';
  const visible = leaderboard.data?.group.leaderboard_visible ?? true;

  let body;
  if (leaderboard.isPending) {
    body = (
      <div className="space-y-3" aria-hidden="true">
        {Array.from({ length: 5 }, (_, index) => (
          <Skeleton key={index} className="h-8 w-full" />
        ))}
      </div>
    );
  } else if (leaderboard.isError && !leaderboard.data) {
    body = (
      <Alert tone="error" title="Något gick fel vid laddning av data.">
        <Button variant="outline" size="sm" className="mt-2" onClick={() => void leaderboard.refetch()}>
          Försök igen
        </Button>
      </Alert>
    );
  } else if (leaderboard.data.mode === 'own_only') {
    body = <OwnFigures leaderboard={leaderboard.data} owner={owner} />;
  } else if (!visible && !isAdmin) {
    body = (
      <p className="flex items-center gap-2 rounded-lg bg-slate-100 p-4 text-ink">
        <EyeOff className="size-5 shrink-0 text-muted" aria-hidden="true" />
        Topplistan är för närvarande dold av administratören.
      </p>
    );
  } else {
    body = (
      <>
        {!visible && (
          <p className="mb-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-950">
            Topplistan är dold för säljarna. Bara administratörer ser den.
          </p>
        )}
        {leaderboard.data.mode === 'full' ? (
          <LeaderboardTable items={leaderboard.data.items} currentUserId={currentUserId} titleId={titleId} meLabel={meLabel} />
        ) : (
          <ParticipationList leaderboard={leaderboard.data} currentUserId={currentUserId} meLabel={meLabel} />
        )}
      </>
    );
  }

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3 space-y-0">
        <CardTitle id={titleId}>{leaderboard.data?.mode === 'participation' ? 'De som har sålt' : 'Topplista'}</CardTitle>
        {isAdmin && !source && leaderboard.isSuccess && leaderboard.data.mode !== 'own_only' && (
          <VisibilitySwitch groupId={groupId} visible={visible} />
        )}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
