import { useRef, useState, type FormEvent } from 'react';
import type { TCampaign } from '@saljportalen/contract';
import { stockholmToday } from '@saljportalen/contract/plain';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { loadContractSchemas } from '@/lib/contract-schemas';
import { refusedFields } from '@/lib/server-field-errors';
import { notify, notifyFailure } from '@/lib/toast';
import { useSetCampaign } from '../api/campaign';

const FIELD_ORDER = ['starts_on', 'ends_on'] as const;
type FieldName = (typeof FIELD_ORDER)[number];
type FieldErrors = Partial<Record<FieldName, string>>;

/**
 * The class's campaign days (issue 31 point 3), on the teacher's 'Klassens mål och topplista'.
 * Checked with the contract's schema, as the server checks them.
 */
export function CampaignForm({ groupId, campaign }: { groupId: number; campaign: TCampaign | null }) {
  const [startsOn, setStartsOn] = useState(campaign?.starts_on ?? '');
  const [endsOn, setEndsOn] = useState(campaign?.ends_on ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSetCampaign();
  const inputs = { starts_on: useRef<HTMLInputElement>(null), ends_on: useRef<HTMLInputElement>(null) };
  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    const first = FIELD_ORDER.find((name) => found[name]);
    if (first) inputs[first].current?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    try {
      const { ZCampaignRequestSchema } = await loadContractSchemas();
      const parsed = ZCampaignRequestSchema.safeParse({ group_id: groupId, starts_on: startsOn, ends_on: endsOn });
      if (!parsed.success) {
        const found: FieldErrors = {};
        for (const issue of parsed.error.issues) {
          const field = issue.path[0] as FieldName;
          // An empty date field is said in Swedish words, not as the date format's rule.
          found[field] ??= (field === 'starts_on' ? startsOn : endsOn) === '' ? 'Välj ett datum' : issue.message;
        }
        showErrors(found);
        return;
      }
      setErrors({});
      await save.mutateAsync(parsed.data);
      notify.success('Försäljningsperioden är sparad');
    } catch (error) {
      const refused = refusedFields(error).filter((issue) => (FIELD_ORDER as readonly string[]).includes(issue.field));
      showErrors(Object.fromEntries(refused.map((issue) => [issue.field, issue.message])));
      notifyFailure('Kunde inte spara försäljningsperioden', error);
    }
  };

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      onFocus={() => void loadContractSchemas().catch(() => undefined)}
      noValidate
      className="space-y-3"
      aria-label="Försäljningsperiod"
    >
      <p className="text-sm text-muted">
        Elevernas länker leder till butiken från första till sista dagen. Före och efter visar de en vänlig sida i stället, och när perioden
        är slut får du och vårdnadshavarna en sammanfattning.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Första försäljningsdag" error={errors.starts_on}>
          <Input ref={inputs.starts_on} type="date" value={startsOn} onChange={(event) => setStartsOn(event.target.value)} />
        </Field>
        <Field label="Sista försäljningsdag" error={errors.ends_on}>
          <Input
            ref={inputs.ends_on}
            type="date"
            value={endsOn}
            min={startsOn || stockholmToday()}
            onChange={(event) => setEndsOn(event.target.value)}
          />
        </Field>
      </div>
      <Button type="submit" variant="brand" aria-disabled={save.isPending}>
        {campaign ? 'Ändra perioden' : 'Spara perioden'}
      </Button>
    </form>
  );
}
