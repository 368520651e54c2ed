import { useRef, type ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { useFocusKept } from '@/lib/use-focus-kept';

/**
 * The centred card every sign-in, registration and reset page sits in. When a form gives way to
 * its result ('Registrering klar', 'E-post skickat'), focus goes to the card's title, read first.
 */
export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  const card = useRef<HTMLDivElement>(null);
  useFocusKept(card, 'h1');
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <Card ref={card} className="p-6 sm:p-8">
        <h1 tabIndex={-1} className="text-2xl font-bold text-ink focus:outline-none">
          {title}
        </h1>
        {intro && <div className="mt-2 text-muted">{intro}</div>}
        <div className="mt-6">{children}</div>
      </Card>
    </div>
  );
}
