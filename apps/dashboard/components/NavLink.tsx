'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';

// A client component only because the current path is known in the browser; the layout that renders the
// navigation is shared by every page and is not re-rendered on navigation.
export function NavLink({ href, children }: { readonly href: string; readonly children: ReactNode }) {
  const pathname = usePathname();
  const current = pathname === href;
  return (
    <Link
      href={href}
      className={current ? 'nav-entry nav-entry--current' : 'nav-entry'}
      aria-current={current ? 'page' : undefined}
    >
      {children}
    </Link>
  );
}
