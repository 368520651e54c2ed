import type { TFieldIssue } from '@saljportalen/contract';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/** The fields a server's refusal is about (`error.details`), each with its Swedish message. */
export function refusedFields(error: unknown): Required<TFieldIssue>[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return [];
  return (error.details as unknown[]).filter(
    (issue): issue is Required<TFieldIssue> =>
      typeof issue === 'object' &&
      issue !== null &&
      typeof (issue as TFieldIssue).field === 'string' &&
      typeof (issue as TFieldIssue).message === 'string',
  );
}

/**
 * Shows a server's refusal at the fields it names (issue 33 point 3), one message each, and moves
 * focus to the first of them in the form's order, as a check in the browser would. Fields the form
 * does not have are left out. Returns whether any field showed one: if none did, the message
 * belongs somewhere else (the toast or an alert beside the form).
 */
export function showRefusalAtFields<T extends FieldValues>(
  form: { setError: UseFormSetError<T> },
  error: unknown,
  fieldOrder: readonly Path<T>[],
  /** The form's name for a request field it names differently (`admin.email` → `admin_email`). */
  formNameOf: Partial<Record<string, Path<T>>> = {},
): boolean {
  const issues = refusedFields(error).map((issue) => ({ ...issue, field: formNameOf[issue.field] ?? issue.field }));
  const refused = fieldOrder.filter((field) => issues.some((issue) => issue.field === field));
  refused.forEach((field, index) => {
    const { message } = issues.find((issue) => issue.field === field)!;
    form.setError(field, { type: 'server', message }, { shouldFocus: index === 0 });
  });
  return refused.length > 0;
}
