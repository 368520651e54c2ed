import { useEffect } from 'react';
import { PageContainer } from '@/components/layout/app-layout';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';
import { notify } from '@/lib/toast';
import { NO_CONNECTION } from '@/lib/api-client';
import { isNetworkFailure } from '@/lib/offline-cache';
import { useProfile } from './api/profile';
import { usePublicName, useSetPublicName } from './api/public-name';
import { ChangeEmailForm } from './components/change-email-form';
import { ChangePasswordForm } from './components/change-password-form';
import { MyDataCard } from './components/my-data-card';
import { NotificationsForm } from './components/notifications-form';
import { ProfileForm } from './components/profile-form';
import { PublicNameForm } from '@/features/public-name';

function SettingsSkeleton() {
  return (
    <>
      <p role="status" className="sr-only">
        Laddar kontoinställningar...
      </p>
      {[3, 3, 2].map((fields, index) => (
        <Card key={index} className="space-y-4 p-5">
          <Skeleton className="h-6 w-40" />
          {Array.from({ length: fields }, (_, field) => (
            <Skeleton key={field} className="h-11 w-full" />
          ))}
        </Card>
      ))}
    </>
  );
}

/** The name buyers see (issue 22), once its choice has loaded; a failure leaves the rest of the page usable. */
function PublicNameSection() {
  const publicName = usePublicName();
  const setPublicName = useSetPublicName();
  if (publicName.isPending) return <Skeleton className="h-40 w-full" />;
  if (publicName.isError) return <Alert tone="error" title="Kunde inte hämta namnvalet." />;
  return <PublicNameForm current={publicName.data} save={setPublicName.mutateAsync} />;
}

/** A guardian's own settings point to where their children's are: the child is not the guardian's account. */
function GuardianCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Dina barn</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <p className="text-sm text-muted">
          Vilket namn köpare ser, barnets översikt och samtycket finns under Mina barn. Här ändrar du bara ditt eget konto.
        </p>
        <Button asChild variant="outline">
          <Link to={paths.guardian}>Till Mina barn</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/**
 * spec §2 /account/settings: profile, the name buyers see and the mail opt-ins (issues 22, 20), change
 * password, change e-mail; issue 22: download or erase one's data. An account that sells nothing (a
 * guardian's) has no name for buyers and no sale mail (issue 33).
 */
export function AccountSettingsPage() {
  const profile = useProfile();

  useEffect(() => {
    if (profile.isError) notify.error('Fel vid laddning', 'Kunde inte hämta profildata');
  }, [profile.isError]);

  return (
    <PageContainer>
      <div className="mx-auto max-w-2xl space-y-6">
        <h1 className="text-2xl font-bold text-ink sm:text-3xl">Kontoinställningar</h1>
        {profile.isPending ? (
          <SettingsSkeleton />
        ) : profile.isError ? (
          <Alert tone="error" title="Kunde inte ladda profildata.">
            {isNetworkFailure(profile.error) && <p>{NO_CONNECTION}</p>}
            {/* spec §2: the retry reloads the page. */}
            <Button variant="outline" size="sm" className="mt-2" onClick={() => window.location.reload()}>
              Försök igen
            </Button>
          </Alert>
        ) : (
          <>
            <ProfileForm user={profile.data.user} />
            {profile.data.account.sells && (
              <>
                <PublicNameSection />
                <NotificationsForm notifications={profile.data.notifications} />
              </>
            )}
            {profile.data.account.is_guardian && <GuardianCard />}
            <ChangePasswordForm email={profile.data.user.email} />
            <ChangeEmailForm />
            <MyDataCard email={profile.data.user.email} account={profile.data.account} />
          </>
        )}
      </div>
    </PageContainer>
  );
}
