import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** A message in the page: errors are announced at once, notices politely. */
export function Alert({
  tone = 'info',
  title,
  children,
  className,
}: {
  tone?: 'info' | 'error' | 'success';
  title: string;
  children?: ReactNode;
  className?: string;
}) {
  const tones = {
    info: 'border-sky-300 bg-sky-50 text-sky-950',
    error: 'border-red-300 bg-red-50 text-red-950',
    success: 'border-green-300 bg-green-50 text-green-950',
  };
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cn('rounded-lg border p-4', tones[tone], className)}>
      <p className="font-semibold">{title}</p>
      {children && <div className="mt-1 text-sm">{children}</div>}
    </div>
  );
}
