import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ZMoveOrderRequestSchema } from '@saljportalen/contract';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { formatDate, formatKronor } from '@/lib/format';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { notify, notifyFailure } from '@/lib/toast';
import { useClassMembers } from '../api/class-members';
import { useMoveOrder } from '../api/class-orders';

/** What the dialog needs of the order, from the class's list or a seller's list in the admin area. */
export interface MovableOrder {
  order_id: number;
  order_name: string | null;
  ordered_at: string;
  subtotal_incl_vat: number;
  membership_id: number | null;
  seller_name: string | null;
  /** The pupil's account, where the list knows it rather than the membership (a seller's own orders). */
  user_id?: number;
}

const moveFormSchema = z.object({
  to_membership_id: z.string().min(1, 'Välj eleven som sålde'),
  reason: ZMoveOrderRequestSchema.shape.reason,
});
type MoveForm = z.infer<typeof moveFormSchema>;
const FIELD_ORDER = ['to_membership_id', 'reason'] as const;

export const orderLabel = (order: Pick<MovableOrder, 'order_id' | 'order_name'>) => order.order_name ?? `Order ${order.order_id}`;

/**
 * Moves a sale to the pupil who really made it (issue 30 point 5): a parent bought through the
 * wrong link. The class's pupils to choose from, and why, which the audit log keeps.
 */
export function MoveOrderDialog({ groupId, order, onClose }: { groupId: number; order: MovableOrder; onClose: () => void }) {
  const members = useClassMembers(groupId);
  const moveOrder = useMoveOrder();
  const form = useForm<MoveForm>({ resolver: zodResolver(moveFormSchema), defaultValues: { to_membership_id: '', reason: '' } });
  const errors = form.formState.errors;
  const choices = (members.data?.items ?? []).filter(
    (member) => member.membership_id !== order.membership_id && member.user_id !== order.user_id,
  );

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { order: moved } = await moveOrder.mutateAsync({
        orderId: order.order_id,
        to_membership_id: Number(values.to_membership_id),
        reason: values.reason,
      });
      notify.success(
        'Försäljningen är flyttad',
        moved.by_correction
          ? `${orderLabel(order)} räknas nu för ${moved.seller_name}. Nästa avräkning rättar den förra.`
          : `${orderLabel(order)} räknas nu för ${moved.seller_name}.`,
      );
      onClose();
    } catch (error) {
      if (!showRefusalAtFields(form, error, FIELD_ORDER)) notifyFailure('Kunde inte flytta försäljningen', error);
    }
  });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !moveOrder.isPending && onClose()}
      title={`Flytta ${orderLabel(order)}`}
      description={`${formatDate(order.ordered_at)} · ${formatKronor(order.subtotal_incl_vat)} · räknas nu för ${order.seller_name ?? 'klassen (klasslänken)'}`}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Till eleven" error={errors.to_membership_id?.message}>
          <Select disabled={!members.data} {...form.register('to_membership_id')}>
            <option value="">{members.data ? 'Välj elev' : 'Hämtar klassen...'}</option>
            {choices.map((member) => (
              <option key={member.membership_id} value={member.membership_id}>
                {member.full_name}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          label="Varför flyttas den?"
          hint="Till exempel: Farmor köpte via fel länk. Sparas i händelseloggen."
          error={errors.reason?.message}
        >
          <Input autoComplete="off" maxLength={TEXT_LIMITS.reason} {...form.register('reason')} />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={onClose} disabled={moveOrder.isPending}>
            Avbryt
          </Button>
          <Button type="submit" variant="brand" disabled={moveOrder.isPending}>
            {moveOrder.isPending ? 'Flyttar...' : 'Flytta försäljningen'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
