import type { MenuProps } from 'antd';
import Layout from 'antd/es/layout';
import Menu from 'antd/es/menu';
import { createElement, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { canAccess, findRoute, isAvailable, isGroup, menuTree } from '../app/routes';
import { Logo } from '../components/Logo';
import type { RouteDescriptor } from '../lib/route-types';
import { rolesStore } from '../lib/session';
import { useStore } from '../lib/store';
import { deviceStore, sidebarStore, useSettings } from '../lib/ui-store';
import styles from './Layout.module.css';
import { menuIcons } from './menu-icons';

type MenuItem = Required<MenuProps>['items'][number];

const SIDEBAR_WIDTH = 250;
const NO_ROLES: readonly string[] = [];

/** Visible means: in the menu, built already, and allowed for the user's roles. */
const visible = (route: RouteDescriptor, roles: readonly string[]) =>
  !route.meta.hidden && isAvailable(route) && canAccess(route, roles);

/** The menu group holding a page, if any. */
const groupOf = (path: string): string | undefined => {
  for (const node of menuTree)
    if (isGroup(node) && node.routes.some((route) => route.path === path)) return node.key;
  return undefined;
};

/**
 * The sidebar menu, derived from the route table (groups without a visible page are left out). The
 * group of the page on screen is open, whichever way the page was reached (a link, a tag, the
 * address bar); other groups stay as the user left them.
 */
export const Sidebar = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const opened = useStore(sidebarStore);
  const device = useStore(deviceStore);
  const roles = useStore(rolesStore) ?? NO_ROLES;
  const { sidebarLogo } = useSettings();

  const { items, defaultOpenKeys } = useMemo(() => {
    const openKeys: string[] = [];
    const menuItems: MenuItem[] = menuTree.flatMap((node): MenuItem[] => {
      if (!isGroup(node)) {
        if (!visible(node, roles)) return [];
        const icon = node.meta.icon ? createElement(menuIcons[node.meta.icon], { key: 'icon' }) : undefined;
        return [{ key: node.path, icon, label: t(node.meta.titleKey) }];
      }
      const children = node.routes
        .filter((route) => visible(route, roles))
        .map((route) => ({
          key: route.path,
          icon: route.meta.icon ? createElement(menuIcons[route.meta.icon], { key: 'icon' }) : undefined,
          label: t(route.meta.titleKey),
        }));
      if (children.length === 0) return [];
      if (node.defaultOpen) openKeys.push(node.key);
      return [
        {
          key: node.key,
          icon: createElement(menuIcons[node.meta.icon], { key: 'icon' }),
          label: t(node.meta.titleKey),
          children,
        },
      ];
    });
    return { items: menuItems, defaultOpenKeys: openKeys };
  }, [t, roles]);

  const route = findRoute(pathname);
  const selectedKey = route?.meta.activeMenu ?? route?.path ?? pathname;
  const collapsed = !opened;
  const mobile = device === 'mobile';
  const [openKeys, setOpenKeys] = useState<string[]>(() => {
    const current = groupOf(selectedKey);
    return current && !defaultOpenKeys.includes(current) ? [...defaultOpenKeys, current] : defaultOpenKeys;
  });
  useEffect(() => {
    const current = groupOf(selectedKey);
    if (current) setOpenKeys((keys) => (keys.includes(current) ? keys : [...keys, current]));
  }, [selectedKey]);

  return (
    <Layout.Sider
      data-testid="sidebar"
      data-collapsed={String(collapsed)}
      className={mobile ? styles.siderMobile : styles.sider}
      style={{ position: mobile ? 'fixed' : 'sticky' }}
      width={SIDEBAR_WIDTH}
      collapsedWidth={mobile ? 0 : 64}
      collapsed={collapsed}
      trigger={null}
      collapsible
    >
      {sidebarLogo && (
        <div className={styles.logo}>
          <Logo size={28} />
          {!collapsed && <span className={styles.logoTitle}>{t('app.brand.title')}</span>}
        </div>
      )}
      <Menu
        theme="dark"
        mode="inline"
        items={items}
        selectedKeys={[selectedKey]}
        // Collapsed, the menu opens groups as pop-ups on hover: it keeps its own state then.
        {...(!collapsed && { openKeys, onOpenChange: setOpenKeys })}
        onClick={({ key }) => navigate(key)}
      />
    </Layout.Sider>
  );
};
