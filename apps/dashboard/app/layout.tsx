import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Sidebar } from '../components/Sidebar';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Helios', template: '%s · Helios' },
  description: 'Helios admin dashboard',
};

export default function RootLayout({ children }: { readonly children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <div className="shell">
          <header className="topbar">
            <span className="brand">
              <span className="brand-mark" aria-hidden="true" />
              Helios
            </span>
            <span className="topbar-context">Admin</span>
          </header>
          <Sidebar />
          <main className="content">{children}</main>
        </div>
      </body>
    </html>
  );
}
