import { useId, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';
import { cn } from '@/lib/cn';

interface FieldProps {
  label: string;
  /** The input; it gets the id, aria-invalid and aria-describedby wired to the label, hint and error. */
  children: ReactElement<Record<string, unknown>>;
  error?: string;
  hint?: ReactNode;
  className?: string;
}

/** A labelled form field whose error and hint are announced with the input (WCAG 1.3.1, 3.3.1). */
export function Field({ label, children, error, hint, className }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
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
      {error && (
        <p id={errorId} className="text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
