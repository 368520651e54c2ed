import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Users } from 'lucide-react';
import { TEXT_LIMITS, ZGuardianChildPasswordRequestSchema, type TGuardianChildPasswordRequest } from '@saljportalen/contract';
import { PasswordInput } from '@/components/ui/password-input';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { PageContainer } from '@/components/layout/app-layout';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount, formatKronor, genitive } from '@/lib/format';
import { notify, notifyFailure } from '@/lib/toast';
import { PublicNameForm } from '@/features/public-name';
import { CatalogCard } from '@/features/catalog';
import { GroupResults, StatList, StatListSkeleton } from '@/features/group-results';
import { CampaignNotices } from '@/features/campaign';
import { LeaderboardCard } from '@/features/leaderboard';
import { PersonalLinkCard } from '@/features/personal-link';
import {
  childPath,
  useChildPublicName,
  useChildSummary,
  useChildTotals,
  useGuardianChildren,
  useSetChildPassword,
  useSetChildPublicName,
  useWithdrawConsent,
} from './api/children';

const LOAD_ERROR = 'Något gick fel vid laddning av data.';
const firstNameOf = (fullName: string) => fullName.trim().split(/\s+/)[0] ?? fullName;

function WithdrawConsent({ childId, firstName }: { childId: number; firstName: string }) {
  const [open, setOpen] = useState(false);
  const withdraw = useWithdrawConsent();
  const onConfirm = async () => {
    try {
      await withdraw.mutateAsync(childId);
      setOpen(false);
      notify.success('Samtycket är återkallat', `${genitive(firstName)} konto är borttaget.`);
    } catch (error) {
      notifyFailure('Det gick inte att återkalla samtycket', error);
    }
  };
  return (
    <section aria-labelledby="withdraw-title" className="space-y-3 rounded-lg border border-line p-4">
      <h2 id="withdraw-title" className="text-lg font-semibold text-ink">
        Samtycke
      </h2>
      <p className="text-sm text-muted">
        Du har godkänt att {firstName} använder Säljportalen. Återkallar du samtycket tas {genitive(firstName)} konto bort. Sålda varor
        finns kvar i klassens bokföring, utan namn.
      </p>
      <Button variant="destructive" onClick={() => setOpen(true)}>
        Återkalla samtycke
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Återkalla samtycket?"
        description={`${genitive(firstName)} konto tas bort och länken slutar fungera. Det går inte att ångra.`}
      >
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setOpen(false)}>
            Avbryt
          </Button>
          <Button variant="destructive" onClick={() => void onConfirm()} disabled={withdraw.isPending}>
            {withdraw.isPending ? 'Tar bort...' : 'Återkalla och ta bort kontot'}
          </Button>
        </div>
      </Dialog>
    </section>
  );
}

/** The group's results as the child sees them (no sales chart: that is for the group's members). */
function GroupFigures({ childId }: { childId: number }) {
  return <GroupResults totals={useChildTotals(childId)} />;
}

/** One child's dashboard as the child sees it, read only: figures, link, catalogue, group and leaderboard. */
/**
 * A class-list pupil's sign-in (issue 31): the username, and a new password the guardian sets,
 * since the pupil has no address to reset one from.
 */
function ChildSignIn({ childId, username, firstName }: { childId: number; username: string; firstName: string }) {
  const setPassword = useSetChildPassword(childId);
  const form = useForm<TGuardianChildPasswordRequest>({
    resolver: zodResolver(ZGuardianChildPasswordRequestSchema),
    defaultValues: { new_password: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await setPassword.mutateAsync(values);
      form.reset();
      notify.success('Lösenord ändrat', `${firstName} loggar in med det nya lösenordet.`);
    } catch (error) {
      if (!showRefusalAtFields(form, error, ['new_password'])) notifyFailure('Fel vid lösenordsändring', error);
    }
  });
  return (
    <Card className="space-y-4 p-6">
      <h3 className="text-lg font-semibold text-ink">{genitive(firstName)} inloggning</h3>
      <p className="text-ink">
        Användarnamn: <strong>{username}</strong>
      </p>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label={`Nytt lösenord för ${firstName}`} hint="Minst 8 tecken." error={form.formState.errors.new_password?.message}>
          <PasswordInput autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.register('new_password')} />
        </Field>
        <Button type="submit" variant="outline" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Sparar...' : 'Byt lösenord'}
        </Button>
      </form>
    </Card>
  );
}

function ChildDashboard({ childId, username }: { childId: number; username: string | null }) {
  const summary = useChildSummary(childId);
  const childTotals = useChildTotals(childId);
  if (summary.isPending) return <StatListSkeleton count={3} className="grid-cols-2 sm:grid-cols-3" />;
  if (summary.isError) return <LoadError title={LOAD_ERROR} query={summary} showReason={false} />;
  const { user, group_hint: group, personal } = summary.data;
  const firstName = firstNameOf(user.full_name);
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-bold text-ink">{user.full_name}</h2>
        {group && <p className="text-muted">{group.name}</p>}
        <p className="mt-1 text-sm text-muted">
          Du ser {genitive(firstName)} översikt som den ser ut för {firstName}. Du väljer hur {genitive(firstName)} namn visas för köpare
          och kan återkalla samtycket; resten kan du inte ändra.
        </p>
      </div>
      {!group ? (
        <Alert title={`${firstName} är inte med i någon aktiv grupp just nu`} />
      ) : (
        <>
          {/* The class's campaign and, once written, what the money became (issue 31), as the child sees them. */}
          <CampaignNotices totals={childTotals.data} groupName={group.name} archived={group.archived} />
          <section aria-labelledby="child-personal-title" className="space-y-3">
            <h3 id="child-personal-title" className="sr-only">
              {genitive(firstName)} försäljning
            </h3>
            <StatList
              className="grid-cols-2 sm:grid-cols-3"
              stats={[
                { label: `${genitive(firstName)} försäljning`, value: formatKronor(personal.total_sales) },
                { label: `${genitive(firstName)} intjäning`, value: formatKronor(personal.total_commission) },
                { label: 'Ordrar', value: formatCount(personal.orders_count) },
                // The pupil's own goal is private to the pupil and their guardians (issue 20), measured in commission.
                ...(personal.goal === null
                  ? []
                  : [
                      {
                        label: `${genitive(firstName)} eget mål`,
                        value: `${formatKronor(personal.total_commission)} av ${formatKronor(personal.goal)}`,
                      },
                    ]),
              ]}
            />
          </section>
          {!group.archived && personal.personal_link && (
            <div className="grid gap-6 lg:grid-cols-3 [&>*]:min-w-0">
              <div className="lg:col-span-2">
                <PersonalLinkCard
                  link={personal.personal_link}
                  sellerName={user.public_seller_name}
                  owner={firstName}
                  goal={childTotals.data?.goal}
                  campaign={childTotals.data?.campaign}
                />
              </div>
              <CatalogCard sellerName={user.public_seller_name} path={childPath(childId, 'catalog.pdf')} owner={firstName} />
            </div>
          )}
          <div className="grid gap-6 lg:grid-cols-3 [&>*]:min-w-0">
            <GroupFigures childId={childId} />
            <div className="lg:col-span-2">
              <LeaderboardCard
                role="seller"
                groupId={group.id}
                currentUserId={user.id}
                owner={firstName}
                source={{ queryKey: ['guardian', 'child', childId, 'leaderboard'], path: childPath(childId, 'leaderboard') }}
              />
            </div>
          </div>
        </>
      )}
      {username !== null && <ChildSignIn childId={childId} username={username} firstName={firstName} />}
      <ChildPublicName childId={childId} firstName={firstName} />
      <WithdrawConsent childId={childId} firstName={firstName} />
    </div>
  );
}

/** The name buyers see on the child's catalogue and share texts: the guardian's choice for a child under 13. */
function ChildPublicName({ childId, firstName }: { childId: number; firstName: string }) {
  const publicName = useChildPublicName(childId);
  const setPublicName = useSetChildPublicName(childId);
  if (publicName.isPending) return <Skeleton className="h-40 w-full" />;
  if (publicName.isError) return <Alert tone="error" title="Kunde inte hämta namnvalet." />;
  return <PublicNameForm key={childId} current={publicName.data} save={setPublicName.mutateAsync} childName={firstName} />;
}

/** `/vardnadshavare`: a guardian's children, one at a time, read only (issue 22). */
export function GuardianPage() {
  const children = useGuardianChildren();
  const [chosen, setChosen] = useState<number | null>(null);

  let body;
  if (children.isPending) {
    body = <Skeleton className="h-40 w-full" />;
  } else if (children.isError) {
    body = <LoadError title={LOAD_ERROR} query={children} showReason={false} />;
  } else if (children.data.children.length === 0) {
    body = (
      <Card className="flex gap-4 p-6">
        <Users className="size-8 shrink-0 text-brand" aria-hidden="true" />
        <div>
          <h2 className="text-lg font-semibold text-ink">Inga barn att visa</h2>
          <p className="mt-1 text-muted">När du har godkänt ett barns konto via länken i mejlet visas barnets översikt här.</p>
        </div>
      </Card>
    );
  } else {
    const list = children.data.children;
    const current = list.find((child) => child.user_id === chosen) ?? list[0]!;
    body = (
      <div className="space-y-6">
        {list.length > 1 && (
          <Field label="Visa barn" className="max-w-sm">
            <Select value={current.user_id} onChange={(event) => setChosen(Number(event.target.value))}>
              {list.map((child) => (
                <option key={child.user_id} value={child.user_id}>
                  {child.full_name}
                  {child.group_name ? ` (${child.group_name})` : ''}
                </option>
              ))}
            </Select>
          </Field>
        )}
        <ChildDashboard key={current.user_id} childId={current.user_id} username={current.username} />
      </div>
    );
  }

  return (
    <PageContainer>
      <div className="space-y-6">
        <h1 className="text-2xl font-bold text-ink sm:text-3xl">Mina barn</h1>
        {body}
      </div>
    </PageContainer>
  );
}
