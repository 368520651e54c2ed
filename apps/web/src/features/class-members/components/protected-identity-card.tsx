import { useId, useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import type { TGroupMember } from '@saljportalen/contract';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { notify, notifyFailure } from '@/lib/toast';
import { useClassMembers } from '../api/class-members';
import { useSetProtectedIdentity } from '../api/set-protected-identity';

function MemberRow({ groupId, member, describedBy }: { groupId: number; member: TGroupMember; describedBy: string }) {
  const nameId = useId();
  const setProtected = useSetProtectedIdentity(groupId);
  const onToggle = async () => {
    try {
      await setProtected.mutateAsync({ group_id: groupId, membership_id: member.membership_id, protected: !member.protected_identity });
      notify.success('Inställning uppdaterad');
    } catch (error) {
      notifyFailure('Kunde inte uppdatera inställningen', error);
    }
  };
  return (
    <li className="flex items-center justify-between gap-3 py-2">
      <span id={nameId} className="flex min-w-0 flex-wrap items-center gap-2 text-ink [overflow-wrap:anywhere]">
        {member.full_name}
        {member.protected_identity && (
          <Badge variant="brand">
            <ShieldCheck className="size-3.5" aria-hidden="true" />
            Skyddad
          </Badge>
        )}
      </span>
      <Switch
        checked={member.protected_identity}
        busy={setProtected.isPending}
        onToggle={onToggle}
        aria-label={`Skyddade personuppgifter för ${member.full_name}`}
        aria-describedby={describedBy}
      />
    </li>
  );
}

/**
 * Issue 22: the class's pupils with a switch each for protected personal data (skyddade
 * personuppgifter). A marked pupil is shown only by alias outside the admin area and is on no
 * leaderboard; here, for the teacher and the superadmin, the real name stays.
 */
export function ProtectedIdentityCard({ groupId }: { groupId: number }) {
  const titleId = useId();
  const explanationId = useId();
  const [open, setOpen] = useState(false);
  const members = useClassMembers(groupId);
  const pupils = members.data?.items.filter((member) => member.role === 'seller') ?? [];
  const marked = pupils.filter((member) => member.protected_identity).length;

  let body;
  if (members.isPending) body = <Skeleton className="h-24 w-full" />;
  else if (members.isError) body = <Alert tone="error" title="Kunde inte hämta klasslistan." />;
  else if (pupils.length === 0) body = <p className="text-muted">Inga elever i gruppen ännu.</p>;
  else
    body = (
      <ul aria-labelledby={titleId} className="divide-y divide-slate-200">
        {pupils.map((member) => (
          <MemberRow key={member.membership_id} groupId={groupId} member={member} describedBy={explanationId} />
        ))}
      </ul>
    );

  return (
    <Card>
      <CardHeader className="space-y-2">
        <CardTitle id={titleId}>Elever med skyddade personuppgifter</CardTitle>
        <p id={explanationId} className="text-sm text-muted">
          En markerad elev visas bara med sitt alias på katalogen och i delade meddelanden, och finns inte med på topplistan.
        </p>
        <p className="text-sm text-ink">
          {marked === 0 ? 'Ingen elev är markerad.' : `${marked} av ${pupils.length} elever är markerade.`}
        </p>
      </CardHeader>
      <CardContent>
        <Button variant="outline" size="sm" aria-expanded={open} onClick={() => setOpen(!open)} className="mb-3">
          {open ? 'Dölj klasslistan' : 'Visa klasslistan'}
        </Button>
        {open && body}
      </CardContent>
    </Card>
  );
}
