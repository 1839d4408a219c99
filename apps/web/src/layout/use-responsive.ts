import { limits } from '@fbox/contracts';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useStore } from '../lib/store';
import { closeSidebar, deviceStore, restoreSidebar, sidebarStore } from '../lib/ui-store';

const isMobileWidth = () => document.body.getBoundingClientRect().width - 1 < limits.mobileBreakpointPx;

/**
 * Below 992 px the layout turns mobile and the sidebar closes (spec §2); on mobile, opening a page
 * also closes the overlay sidebar. Wide again, the sidebar returns to the state the user chose.
 */
export const useResponsive = (): void => {
  const { pathname } = useLocation();
  const device = useStore(deviceStore);

  useEffect(() => {
    const onResize = () => {
      if (document.hidden) return;
      const mobile = isMobileWidth();
      const wasMobile = deviceStore.get() === 'mobile';
      deviceStore.set(mobile ? 'mobile' : 'desktop');
      if (mobile) closeSidebar();
      else if (wasMobile) restoreSidebar();
    };
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useEffect(() => {
    if (device === 'mobile' && pathname && sidebarStore.get()) closeSidebar();
  }, [device, pathname]);
};
