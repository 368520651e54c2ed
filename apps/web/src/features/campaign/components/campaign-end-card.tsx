import { useId, useRef, useState, type FormEvent } from 'react';
import { Flag } from 'lucide-react';
import type { TClosingNote } from '@saljportalen/contract';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { refusedFields } from '@/lib/server-field-errors';
import { notify, notifyFailure } from '@/lib/toast';
import { useClassPupils } from '@/features/class-members';
import { useCloneGroup, useWriteClosingNote } from '../api/campaign';

/** What the money became (issue 31 point 5): written once the campaign has ended, mailed to the guardians the first time. */
function ClosingNoteForm({ groupId, note }: { groupId: number; note: TClosingNote | null }) {
  const [text, setText] = useState(note?.text ?? '');
  const [error, setError] = useState<string>();
  const field = useRef<HTMLTextAreaElement>(null);
  const save = useWriteClosingNote();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    if (text.trim() === '') {
      setError('Skriv vad pengarna blev');
      field.current?.focus();
      return;
    }
    try {
      const answer = await save.mutateAsync({ group_id: groupId, text });
      setError(undefined);
      setText(answer.closing_note.text);
      notify.success(
        answer.mailed > 0
          ? `Sparat och mejlat till ${answer.mailed} vårdnadshavare`
          : note
            ? 'Ändringen är sparad'
            : 'Sparat. Ingen vårdnadshavare i klassen har ett konto här, så inget mejl skickades.',
      );
    } catch (failure) {
      const refused = refusedFields(failure).find((issue) => issue.field === 'text');
      if (refused) {
        setError(refused.message);
        field.current?.focus();
      }
      notifyFailure('Kunde inte spara texten', failure);
    }
  };
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-3" aria-labelledby="closing-note-form-title">
      <h3 id="closing-note-form-title" className="font-semibold text-ink">
        Vad blev pengarna?
      </h3>
      <Field
        label="Text till elever och vårdnadshavare"
        error={error}
        hint={`Högst ${TEXT_LIMITS.closingNote} tecken. Första gången du sparar mejlas texten till vårdnadshavarna; den visas också för eleverna. Skriv om klassen, inte om enskilda elever.`}
      >
        <Textarea
          ref={field}
          className="min-h-32"
          value={text}
          maxLength={TEXT_LIMITS.closingNote}
          onChange={(event) => setText(event.target.value)}
        />
      </Field>
      <Button type="submit" variant="brand" aria-disabled={save.isPending}>
        {note ? 'Spara ändringen' : 'Spara och mejla vårdnadshavarna'}
      </Button>
    </form>
  );
}

/** Next term (issue 31 point 6): a new group with the ticked pupils, new links, nothing carried over. */
function NextTermForm({ groupId, groupName }: { groupId: number; groupName: string }) {
  const pupils = useClassPupils(groupId);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [dropped, setDropped] = useState<Set<number>>(new Set());
  const nameField = useRef<HTMLInputElement>(null);
  const listId = useId();
  const clone = useCloneGroup();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (clone.isPending || !pupils.data) return;
    if (name.trim() === '') {
      setNameError('Ange ett namn på den nya gruppen');
      nameField.current?.focus();
      return;
    }
    try {
      const kept = pupils.data.filter((pupil) => !dropped.has(pupil.membership_id)).map((pupil) => pupil.membership_id);
      const answer = await clone.mutateAsync({ group_id: groupId, name, membership_ids: kept });
      // The page becomes the new group's (its totals are fetched again): the toast says what happened to the old one.
      notify.success(
        `${answer.group.name} är skapad med gruppkod ${answer.group.code}. ` +
          (answer.old_group === 'archived' ? `${groupName} är arkiverad.` : `${groupName} arkiveras när provisionen är utbetald.`),
      );
    } catch (failure) {
      const refused = refusedFields(failure).find((issue) => issue.field === 'name');
      if (refused) {
        setNameError(refused.message);
        nameField.current?.focus();
      }
      notifyFailure('Kunde inte skapa nästa termins grupp', failure);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-3" aria-labelledby="next-term-title">
      <h3 id="next-term-title" className="font-semibold text-ink">
        Nästa termin
      </h3>
      <p className="text-sm text-muted">
        Skapa en ny grupp med ny gruppkod för nästa försäljning. Eleverna du väljer följer med och får nya personliga länkar; siffror, mål
        och period börjar om från noll.
      </p>
      <Field label="Den nya gruppens namn" error={nameError}>
        <Input ref={nameField} value={name} maxLength={TEXT_LIMITS.groupName} onChange={(event) => setName(event.target.value)} />
      </Field>
      <fieldset className="space-y-2">
        <legend id={listId} className="text-sm font-medium text-ink">
          Elever som följer med
        </legend>
        {pupils.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : pupils.isError ? (
          <Alert tone="error" title="Kunde inte hämta klasslistan." />
        ) : pupils.data.length === 0 ? (
          <p className="text-sm text-muted">Inga elever i gruppen.</p>
        ) : (
          <ul className="grid gap-1 sm:grid-cols-2">
            {pupils.data.map((pupil) => (
              <li key={pupil.membership_id}>
                <label className="flex min-h-11 items-center gap-3 rounded-md px-2 hover:bg-slate-50">
                  <input
                    type="checkbox"
                    className="size-5 accent-brand"
                    checked={!dropped.has(pupil.membership_id)}
                    onChange={(event) => {
                      const next = new Set(dropped);
                      if (event.target.checked) next.delete(pupil.membership_id);
                      else next.add(pupil.membership_id);
                      setDropped(next);
                    }}
                  />
                  <span className="[overflow-wrap:anywhere]">{pupil.full_name}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <Button type="submit" variant="brand" aria-disabled={clone.isPending || !pupils.data}>
        Skapa nästa termins grupp
      </Button>
    </form>
  );
}

/** The teacher's card once the campaign has ended: what the money became, and next term. */
export function CampaignEndCard({ groupId, groupName, note }: { groupId: number; groupName: string; note: TClosingNote | null }) {
  return (
    <Card role="region" aria-labelledby="campaign-end-title">
      <CardHeader>
        <CardTitle id="campaign-end-title" className="flex items-center gap-2">
          <Flag className="size-5 text-brand" aria-hidden="true" />
          Försäljningen är slut
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-8">
        <ClosingNoteForm key={note?.written_at ?? 'ny'} groupId={groupId} note={note} />
        <NextTermForm groupId={groupId} groupName={groupName} />
      </CardContent>
    </Card>
  );
}
