import { z } from 'zod';
import { ZIdParamSchema, ZDateSchema, ZSekSchema, ZSingleLineTextSchema } from './common.js';
import { GOAL_MAX_KRONOR, GOAL_PURPOSE_MAX_LENGTH, stockholmToday } from './goal-days.js';

const goalAmount = (what: string) =>
  z
    .number({ error: `Ange ${what} i kronor` })
    .int(`Ange ${what} i hela kronor`)
    .positive(`${what[0]!.toUpperCase()}${what.slice(1)} måste vara större än 0 kr`)
    .max(GOAL_MAX_KRONOR, `${what[0]!.toUpperCase()}${what.slice(1)} får vara högst 10 000 000 kr`);

/**
 * Issue 20: a class goal, `amount` in kronor (öre in the database), what the money is for and the
 * last day of the campaign. `amount: null` removes the goal (purpose and end date are then not
 * needed). The end date is a Stockholm day, not in the past.
 */
export const ZGroupGoalRequestSchema = z
  .object({
    group_id: ZIdParamSchema,
    amount: goalAmount('målet').nullable(),
    purpose: ZSingleLineTextSchema('Ange vad ni samlar till')
      .min(1, 'Ange vad ni samlar till')
      .max(GOAL_PURPOSE_MAX_LENGTH, 'Syftet får vara högst 100 tecken')
      .optional(),
    ends_on: ZDateSchema.optional(),
  })
  .superRefine((goal, context) => {
    if (goal.amount === null) return;
    if (goal.purpose === undefined) context.addIssue({ code: 'custom', path: ['purpose'], message: 'Ange vad ni samlar till' });
    if (goal.ends_on === undefined) context.addIssue({ code: 'custom', path: ['ends_on'], message: 'Ange ett slutdatum' });
    else if (goal.ends_on < stockholmToday()) {
      context.addIssue({ code: 'custom', path: ['ends_on'], message: 'Slutdatumet har redan passerat' });
    }
  });
export type TGroupGoalRequest = z.infer<typeof ZGroupGoalRequestSchema>;

/** A class goal as every answer shows it; `days_left` is 0 on the last day and after it. */
export const ZGroupGoalSchema = z.object({
  amount: ZSekSchema,
  purpose: z.string(),
  ends_on: z.string(),
  days_left: z.number().int(),
});
export type TGroupGoal = z.infer<typeof ZGroupGoalSchema>;

export const ZGroupGoalResponseSchema = z.object({ ok: z.literal(true), goal: ZGroupGoalSchema.nullable() });
export type TGroupGoalResponse = z.infer<typeof ZGroupGoalResponseSchema>;

/**
 * How much of the class has started: `members` are the group's pupils (its seller memberships of
 * accounts not erased; the teacher, an admin, is none), `started` those of them with at least one
 * order (decision 038).
 */
export const ZParticipationSchema = z.object({ started: z.number().int(), members: z.number().int() });
export type TParticipation = z.infer<typeof ZParticipationSchema>;

/**
 * A pupil's own goal (issue 20), opt-in, in kronor; `null` removes it. Private: only the pupil's
 * own summary (and their guardians') ever shows it.
 */
export const ZPersonalGoalRequestSchema = z.object({ amount: goalAmount('ditt mål').nullable() });
export type TPersonalGoalRequest = z.infer<typeof ZPersonalGoalRequestSchema>;

export const ZPersonalGoalResponseSchema = z.object({ ok: z.literal(true), amount: ZSekSchema.nullable() });
export type TPersonalGoalResponse = z.infer<typeof ZPersonalGoalResponseSchema>;
