import { CloseOutlined } from '@ant-design/icons';
import type { MenuProps } from 'antd';
import Dropdown from 'antd/es/dropdown';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useNavigationType } from 'react-router';
import { findRoute, routeTable } from '../app/routes';
import { useStore } from '../lib/store';
import styles from './Layout.module.css';
import {
  addView,
  closeAll,
  closeOthers,
  closeView,
  lastViewPath,
  type TagView,
  tagsStore,
} from './tags-store';

/** Visited pages as tags, with refresh / close / close others / close all on right click. */
export const TagsView = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const views = useStore(tagsStore);

  useEffect(() => {
    for (const route of routeTable) {
      if (route.meta.affix)
        addView({ path: route.path, fullPath: route.path, titleKey: route.meta.titleKey, affix: true });
    }
  }, []);

  const navigationType = useNavigationType();
  const previousPath = useRef<string | undefined>(undefined);
  useEffect(() => {
    const left = previousPath.current;
    previousPath.current = pathname;
    const route = findRoute(pathname);
    if (!route || route.path.startsWith('/redirect')) return;
    addView(
      {
        path: pathname,
        fullPath: `${pathname}${search}`,
        titleKey: route.meta.titleKey,
        affix: !!route.meta.affix,
      },
      navigationType === 'REPLACE' ? left : undefined,
    );
  }, [pathname, search, navigationType]);

  const onClose = (view: TagView) => {
    const remaining = closeView(view.path);
    if (view.path === pathname) navigate(lastViewPath(remaining));
  };

  const onMenu =
    (view: TagView): MenuProps['onClick'] =>
    ({ key }) => {
      if (key === 'refresh') navigate(`/redirect${view.fullPath}`, { replace: true });
      if (key === 'close') onClose(view);
      if (key === 'closeOthers') {
        closeOthers(view.path);
        if (view.path !== pathname) navigate(view.fullPath);
      }
      if (key === 'closeAll') {
        const remaining = closeAll();
        if (!remaining.some((v) => v.path === pathname)) navigate(lastViewPath(remaining));
      }
    };

  const menuItems = (view: TagView): MenuProps['items'] => [
    { key: 'refresh', label: t('layout.tags.refresh') },
    ...(view.affix ? [] : [{ key: 'close', label: t('layout.tags.close') }]),
    { key: 'closeOthers', label: t('layout.tags.closeOthers') },
    { key: 'closeAll', label: t('layout.tags.closeAll') },
  ];

  return (
    <div className={styles.tagsView} data-testid="tags-view">
      {views.map((view) => {
        const active = view.path === pathname;
        return (
          <Dropdown
            key={view.path}
            trigger={['contextMenu']}
            menu={{ items: menuItems(view), onClick: onMenu(view) }}
          >
            <Link
              to={view.fullPath}
              data-path={view.path}
              aria-current={active ? 'page' : undefined}
              className={active ? `${styles.tag} ${styles.tagActive}` : styles.tag}
            >
              {t(view.titleKey)}
              {!view.affix && (
                <CloseOutlined
                  className={styles.tagClose}
                  aria-label={t('layout.tags.close')}
                  onClick={(event) => {
                    event.preventDefault();
                    event.stopPropagation();
                    onClose(view);
                  }}
                />
              )}
            </Link>
          </Dropdown>
        );
      })}
    </div>
  );
};
