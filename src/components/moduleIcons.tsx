// The icon of each feature module, shared by the navbar, the sidebar and the application tiles.
import { ApiOutlined, AppstoreOutlined, BarChartOutlined, DashboardOutlined, FileTextOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { AppModule } from '../routing/appModules.ts';

export const moduleIcons: Record<AppModule, ReactNode> = {
  'factory-dashboard': <DashboardOutlined />,
  'factory-studio': <AppstoreOutlined />,
  'performance-dashboard': <BarChartOutlined />,
  'public-api-dashboard': <ApiOutlined />,
  logs: <FileTextOutlined />,
};
