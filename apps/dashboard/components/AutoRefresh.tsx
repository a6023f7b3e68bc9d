'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

// Re-renders the server components of the current page on an interval, so the status stays current
// without a full reload (scroll position and client state are kept).
export function AutoRefresh({ intervalMs }: { readonly intervalMs: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => {
      // A hidden tab need not poll the API; the next tick after it is shown again catches up.
      if (document.visibilityState === 'visible') router.refresh();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [router, intervalMs]);
  return null;
}
