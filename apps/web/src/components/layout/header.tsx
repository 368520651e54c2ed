import { Fragment, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Menu, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useIsSignedIn } from '@/lib/use-session';
import { paths } from '@/lib/paths';
import { useSignOut } from '@/lib/sign-out';
import { Logo } from './logo';

/**
 * spec §2 header: logo; signed in: group switcher, 'Konto', 'Logga ut'; otherwise 'Registrera'
 * and 'Logga in'. On a phone the actions fold into a menu. Hidden on /admin paths.
 */
export function Header({ groupSwitcher }: { groupSwitcher?: ReactNode }) {
  const signedIn = useIsSignedIn();
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  const signOut = useSignOut();

  if (pathname.startsWith('/admin')) return null;

  const onLogout = async () => {
    setMenuOpen(false);
    await signOut();
  };

  // Keyed, so signing in draws new links instead of recolouring the old ones through their colour
  // transition (a moment where 'Konto' is white on white, and axe sees it).
  const actions = signedIn ? (
    <Fragment key="signed-in">
      {groupSwitcher}
      <Button asChild variant="ghost" onClick={() => setMenuOpen(false)}>
        <Link to={paths.accountSettings}>Konto</Link>
      </Button>
      <Button variant="outline" onClick={onLogout}>
        Logga ut
      </Button>
    </Fragment>
  ) : (
    <Fragment key="guest">
      <Button asChild variant="ghost" onClick={() => setMenuOpen(false)}>
        <Link to={paths.register}>Registrera</Link>
      </Button>
      <Button asChild variant="brand" onClick={() => setMenuOpen(false)}>
        <Link to={paths.login}>Logga in</Link>
      </Button>
    </Fragment>
  );

  return (
    <header className="border-b border-line bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Logo />
        <nav aria-label="Huvudmeny" className="hidden items-center gap-2 md:flex">
          {actions}
        </nav>
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? 'Stäng menyn' : 'Öppna menyn'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X className="size-6" aria-hidden="true" /> : <Menu className="size-6" aria-hidden="true" />}
        </Button>
      </div>
      {menuOpen && (
        <nav id="mobile-menu" aria-label="Mobilmeny" className="flex flex-col gap-2 border-t border-line px-4 py-3 md:hidden [&>*]:w-full">
          {actions}
        </nav>
      )}
    </header>
  );
}
