import { useId, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';
import { cn } from '@/lib/cn';

interface FieldProps {
  label: string;
  /** The input; it gets the id, aria-invalid and aria-describedby wired to the label, hint and error. */
  children: ReactElement<Record<string, unknown>>;
  error?: string;
  hint?: ReactNode;
  /** Something to know before saving that does not stop it (a character the PDFs cannot print, lib/printable.ts). */
  warning?: string;
  className?: string;
}

/** A labelled form field whose error and hint are announced with the input (WCAG 1.3.1, 3.3.1). */
export function Field({ label, children, error, hint, warning, className }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const warningId = warning ? `${id}-warning` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, warningId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      {cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      )}
      {warning && (
        <p id={warningId} className="text-sm text-amber-900">
          {warning}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
