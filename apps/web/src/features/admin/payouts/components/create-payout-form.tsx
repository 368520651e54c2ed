import { useEffect, useId, useMemo, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { FilePlus2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { formatDate, formatKronor } from '@/lib/format';
import { errorMessage, notify } from '@/lib/toast';
import { useCreatePayout } from '../api/create-payout';
import { downloadPayoutPdf } from '../api/download-payout-pdf';
import { FormCombobox } from '@/components/ui/form-combobox';
import { Dialog } from '@/components/ui/dialog';
import type { PayoutPrefill } from './outstanding-payouts';
import { groupChoice, groupsHint, type GroupOption, type GroupOptionsState } from '../../groups';
import { showRefusalAtFields } from '@/lib/server-field-errors';

// spec §5 and §8, word for word.
const FIELDS_REQUIRED = 'Fyll i alla fält för avräkningen';
const RANGE_TITLE = 'Ogiltigt datumintervall';
const RANGE_MESSAGE = 'Från-datum kan inte vara efter Till-datum.';
const NOT_CREATED_REASON: Record<string, string> = {
  no_orders_in_range: 'Inga ordrar i valt datumintervall.',
  no_items_unpaid: 'Alla orderrader i intervallet är redan avräknade.',
};

const createPayoutFormSchema = z
  .object({ group_id: z.string(), from: z.string(), to: z.string(), auto_archive: z.boolean() })
  .superRefine((values, context) => {
    const missing: [keyof typeof values, string][] = [
      ['group_id', 'Välj en grupp'],
      ['from', 'Välj ett från-datum'],
      ['to', 'Välj ett till-datum'],
    ];
    for (const [field, message] of missing) {
      if (values[field] === '') context.addIssue({ code: 'custom', path: [field], message });
    }
    // ISO dates compare as text.
    if (values.from && values.to && values.from > values.to) context.addIssue({ code: 'custom', path: ['to'], message: RANGE_MESSAGE });
  });
type CreatePayoutForm = z.infer<typeof createPayoutFormSchema>;

const emptyForm: CreatePayoutForm = { group_id: '', from: '', to: '', auto_archive: true };

/** Issue 19: what archiving means, naming the group. */
export const archiveConsequence = (groupName: string) => `${groupName} arkiveras: eleverna kan inte längre sälja via sina länkar.`;

/**
 * spec §2 'Skapa ny avräkning': settles a group's period, then saves its PDF at once (spec §7).
 * With 'Arkivera gruppen efter avräkning' ticked (the default) for a group still selling, the
 * form first asks (issue 19): a payout for an old period must not end a class without a word.
 * `prefill` ('Avräkna' under 'Att reglera') fills in group and period.
 */
export function CreatePayoutForm({
  groups,
  groupsState,
  prefill,
}: {
  groups: GroupOption[];
  groupsState: GroupOptionsState;
  prefill?: PayoutPrefill | null;
}) {
  const headingId = useId();
  const archiveId = useId();
  const createPayout = useCreatePayout();
  const form = useForm<CreatePayoutForm>({ resolver: zodResolver(createPayoutFormSchema), defaultValues: emptyForm });
  const { errors, isSubmitting } = form.formState;
  const groupChoices = useMemo(() => groups.map(groupChoice), [groups]);
  const [confirming, setConfirming] = useState<CreatePayoutForm | null>(null);

  const chosenGroup = groups.find((group) => String(group.id) === form.watch('group_id'));
  const archiving = form.watch('auto_archive');

  useEffect(() => {
    if (!prefill) return;
    // Settling what is outstanding is no reason to end a group.
    form.reset({ ...emptyForm, ...prefill, auto_archive: false });
    document.getElementById(headingId)?.scrollIntoView({ block: 'start' });
    form.setFocus('from');
  }, [prefill, form, headingId]);

  const onInvalid = (invalid: FieldErrors<CreatePayoutForm>) => {
    const anyMissing = (['group_id', 'from', 'to'] as const).some((field) => invalid[field] && form.getValues(field) === '');
    if (anyMissing) notify.error(FIELDS_REQUIRED);
    else notify.error(RANGE_TITLE, RANGE_MESSAGE);
  };

  const create = async (values: CreatePayoutForm) => {
    let result;
    try {
      result = await createPayout.mutateAsync({
        group_id: Number(values.group_id),
        from: values.from,
        to: values.to,
        auto_archive: values.auto_archive,
      });
    } catch (error) {
      showRefusalAtFields(form, error, ['group_id', 'from', 'to']);
      // A lost session already says so and leads to login (spec §8); one toast at a time.
      if (!(error instanceof ApiError && error.isUnauthorized))
        notify.error('Misslyckades att skapa avräkning', 'Servern avvisade begäran.');
      return;
    }
    if (!result.created || result.id === null) {
      notify.info('Inget att avräkna', NOT_CREATED_REASON[result.raw?.reason ?? ''] ?? 'Inget att avräkna.');
      return;
    }
    const archived = result.auto_archived ? ' Gruppen är arkiverad.' : '';
    notify.success('Avräkning skapad', `Avräkning nr ${result.id} på ${formatKronor(result.amount)} i provision.${archived}`);
    form.reset(emptyForm);
    try {
      await downloadPayoutPdf(result.id);
    } catch (error) {
      if (!(error instanceof ApiError && error.isUnauthorized)) notify.error('Kunde inte ladda ner PDF', errorMessage(error));
    }
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const group = groups.find((candidate) => String(candidate.id) === values.group_id);
    // Archiving an archived group changes nothing: no need to ask.
    if (values.auto_archive && group && !group.archived) setConfirming(values);
    else await create(values);
  }, onInvalid);

  const confirm = async (values: CreatePayoutForm) => {
    setConfirming(null);
    await create(values);
  };
  const confirmingGroupName = groups.find((group) => String(group.id) === confirming?.group_id)?.name ?? '';

  return (
    <Card>
      <CardHeader>
        <CardTitle id={headingId}>Skapa ny avräkning</CardTitle>
        <p className="text-sm text-muted">
          Avräkningen tar med gruppens ännu inte avräknade orderrader i perioden. PDF:en laddas ner direkt när den är skapad.
        </p>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate aria-labelledby={headingId} className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-3">
            <FormCombobox
              control={form.control}
              name="group_id"
              label="Grupp"
              error={errors.group_id?.message}
              hint={groupsHint(groupsState)}
              options={groupChoices}
              listLabel="Grupper"
              placeholder={groupsState === 'loading' ? 'Hämtar grupper...' : 'Sök och välj grupp'}
            />
            <Field label="Från" error={errors.from?.message}>
              <Input type="date" {...form.register('from')} />
            </Field>
            <Field label="Till" error={errors.to?.message}>
              <Input type="date" {...form.register('to')} />
            </Field>
          </div>
          <div className="flex items-start gap-3">
            <input
              id={archiveId}
              type="checkbox"
              className="mt-0.5 size-5 shrink-0 accent-brand"
              aria-describedby={`${archiveId}-hint`}
              {...form.register('auto_archive')}
            />
            <div>
              <label htmlFor={archiveId} className="text-sm font-medium text-ink">
                Arkivera gruppen efter avräkning
              </label>
              <p id={`${archiveId}-hint`} className="text-sm text-muted">
                {chosenGroup && archiving && !chosenGroup.archived
                  ? `${archiveConsequence(chosenGroup.name)} Du får bekräfta innan avräkningen skapas.`
                  : chosenGroup?.archived
                    ? `${chosenGroup.name} är redan arkiverad.`
                    : 'Gruppen arkiveras i samma steg som avräkningen skapas: eleverna kan då inte längre sälja via sina länkar.'}
              </p>
            </div>
          </div>
          <Button type="submit" variant="brand" className="w-full sm:w-auto" disabled={isSubmitting || createPayout.isPending}>
            <FilePlus2 aria-hidden="true" />
            {isSubmitting || createPayout.isPending ? 'Skapar avräkning...' : 'Skapa avräkning'}
          </Button>
        </form>
        <Dialog
          open={confirming !== null}
          onOpenChange={(open) => !open && setConfirming(null)}
          title={`Arkivera ${confirmingGroupName}?`}
          description={archiveConsequence(confirmingGroupName)}
        >
          {confirming && (
            <>
              <p className="text-sm text-ink">
                Avräkningen gäller {formatDate(confirming.from)} – {formatDate(confirming.to)}. Ordrar som kommer in med gruppens länkar
                efter arkiveringen väntar under Ordrar utan säljare.
              </p>
              <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
                <Button variant="outline" onClick={() => setConfirming(null)}>
                  Avbryt
                </Button>
                <Button variant="outline" onClick={() => void confirm({ ...confirming, auto_archive: false })}>
                  Skapa utan att arkivera
                </Button>
                <Button variant="warning" onClick={() => void confirm(confirming)}>
                  Skapa och arkivera
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </CardContent>
    </Card>
  );
}
