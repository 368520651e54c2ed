import { Link } from 'react-router';
import { paths } from '@/lib/paths';

/**
 * The leaf mark (public/favicon.svg) drawn inline: for an <img> of an SVG the browser builds a
 * whole document of its own, on the main thread, while the first page loads. index.html's frame
 * draws the same markup.
 */
function LogoMark() {
  return (
    <svg viewBox="0 0 64 64" className="size-8 shrink-0" width={32} height={32} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#065f46" />
      <path d="M20 40c0-12 10-22 26-22-1 15-10 26-22 26-2 0-3-1-4-4z" fill="#d1fae5" />
      <path d="M18 48c6-10 14-17 24-22" stroke="#065f46" strokeWidth="3" fill="none" strokeLinecap="round" />
    </svg>
  );
}

export function Logo() {
  return (
    <Link to={paths.home} className="flex items-center gap-2 rounded-md font-bold text-brand">
      <LogoMark />
      <span className="text-lg">Säljportalen</span>
    </Link>
  );
}
