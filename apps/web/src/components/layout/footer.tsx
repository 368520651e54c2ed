import { Link } from 'react-router';
import { paths } from '@/lib/paths';

/** The foot of every page, signed in or not: the privacy page (issue 22). */
export function Footer() {
  return (
    <footer className="border-t border-line bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-4 text-sm text-muted">
        <p>Säljportalen</p>
        <nav aria-label="Sidfot">
          <Link to={paths.privacy} className="font-medium text-brand underline underline-offset-4">
            Integritet och dina uppgifter
          </Link>
        </nav>
      </div>
    </footer>
  );
}
