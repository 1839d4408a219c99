import {
  AlertOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileTextOutlined,
  HddOutlined,
  HomeOutlined,
  ScheduleOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';
import type { MenuIconName } from '../lib/route-types';

/** Icons of the route table's `meta.icon` names. */
export const menuIcons: Record<MenuIconName, ComponentType> = {
  home: HomeOutlined,
  device: HddOutlined,
  task: ScheduleOutlined,
  alarm: AlertOutlined,
  set: SettingOutlined,
  statistic: BarChartOutlined,
  logs: FileTextOutlined,
  board: DashboardOutlined,
  fbox: ClusterOutlined,
  tank: DatabaseOutlined,
  miner: AppstoreOutlined,
};
