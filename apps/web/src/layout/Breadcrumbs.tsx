import Breadcrumb from 'antd/es/breadcrumb';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { findGroup, findRoute } from '../app/routes';

/** Home › group › page, from the route table. */
export const Breadcrumbs = () => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const route = findRoute(pathname);
  const items: { title: React.ReactNode }[] = [];
  if (route && route.path !== '/index') {
    items.push({ title: <Link to="/index">{t('app.route.home')}</Link> });
    const group = findGroup(route);
    if (group) items.push({ title: t(group.meta.titleKey) });
    const active = route.meta.activeMenu ? findRoute(route.meta.activeMenu) : undefined;
    if (active) items.push({ title: <Link to={active.path}>{t(active.meta.titleKey)}</Link> });
  }
  if (route) items.push({ title: t(route.meta.titleKey) });
  return <Breadcrumb items={items} />;
};
