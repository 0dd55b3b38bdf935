import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import seedMenuText from '../../schemas/menus.json?raw';

/** What an icon chunk holds: an icon's SVG definition, which antd's `AntdIcon` draws. */
export interface MenuIconModule {
  default: IconDefinition;
}

/**
 * The icons a menu resource may name (`resourceIcon`), each its own chunk of SVG data (no
 * code): a fixed list rather than the whole icon set. This module is a chunk of its own too, loaded by `menuIcons.tsx` as
 * the frame starts; an icon is fetched when an entry that shows it is drawn (the entries of a
 * closed folder are not drawn), so a page's first paint fetches the dozen icons on screen, not
 * a hundred (issue 35: 28.6 KiB gzip for the whole set).
 */
export const MENU_ICONS: Readonly<Record<string, () => Promise<MenuIconModule>>> = {
  AccountBookOutlined: () => import('@ant-design/icons-svg/es/asn/AccountBookOutlined'),
  AimOutlined: () => import('@ant-design/icons-svg/es/asn/AimOutlined'),
  AlertOutlined: () => import('@ant-design/icons-svg/es/asn/AlertOutlined'),
  ApartmentOutlined: () => import('@ant-design/icons-svg/es/asn/ApartmentOutlined'),
  ApiOutlined: () => import('@ant-design/icons-svg/es/asn/ApiOutlined'),
  AppstoreOutlined: () => import('@ant-design/icons-svg/es/asn/AppstoreOutlined'),
  AreaChartOutlined: () => import('@ant-design/icons-svg/es/asn/AreaChartOutlined'),
  AuditOutlined: () => import('@ant-design/icons-svg/es/asn/AuditOutlined'),
  BankOutlined: () => import('@ant-design/icons-svg/es/asn/BankOutlined'),
  BarChartOutlined: () => import('@ant-design/icons-svg/es/asn/BarChartOutlined'),
  BellOutlined: () => import('@ant-design/icons-svg/es/asn/BellOutlined'),
  BlockOutlined: () => import('@ant-design/icons-svg/es/asn/BlockOutlined'),
  BookOutlined: () => import('@ant-design/icons-svg/es/asn/BookOutlined'),
  BugOutlined: () => import('@ant-design/icons-svg/es/asn/BugOutlined'),
  BuildOutlined: () => import('@ant-design/icons-svg/es/asn/BuildOutlined'),
  CalculatorOutlined: () => import('@ant-design/icons-svg/es/asn/CalculatorOutlined'),
  CameraOutlined: () => import('@ant-design/icons-svg/es/asn/CameraOutlined'),
  CarOutlined: () => import('@ant-design/icons-svg/es/asn/CarOutlined'),
  CarryOutOutlined: () => import('@ant-design/icons-svg/es/asn/CarryOutOutlined'),
  CheckCircleOutlined: () => import('@ant-design/icons-svg/es/asn/CheckCircleOutlined'),
  CheckSquareOutlined: () => import('@ant-design/icons-svg/es/asn/CheckSquareOutlined'),
  CloudDownloadOutlined: () => import('@ant-design/icons-svg/es/asn/CloudDownloadOutlined'),
  CloudServerOutlined: () => import('@ant-design/icons-svg/es/asn/CloudServerOutlined'),
  CloudSyncOutlined: () => import('@ant-design/icons-svg/es/asn/CloudSyncOutlined'),
  CloudUploadOutlined: () => import('@ant-design/icons-svg/es/asn/CloudUploadOutlined'),
  ClusterOutlined: () => import('@ant-design/icons-svg/es/asn/ClusterOutlined'),
  CommentOutlined: () => import('@ant-design/icons-svg/es/asn/CommentOutlined'),
  CompassOutlined: () => import('@ant-design/icons-svg/es/asn/CompassOutlined'),
  ContainerOutlined: () => import('@ant-design/icons-svg/es/asn/ContainerOutlined'),
  ControlOutlined: () => import('@ant-design/icons-svg/es/asn/ControlOutlined'),
  CreditCardOutlined: () => import('@ant-design/icons-svg/es/asn/CreditCardOutlined'),
  DashboardOutlined: () => import('@ant-design/icons-svg/es/asn/DashboardOutlined'),
  DatabaseOutlined: () => import('@ant-design/icons-svg/es/asn/DatabaseOutlined'),
  DeploymentUnitOutlined: () => import('@ant-design/icons-svg/es/asn/DeploymentUnitOutlined'),
  DesktopOutlined: () => import('@ant-design/icons-svg/es/asn/DesktopOutlined'),
  DotChartOutlined: () => import('@ant-design/icons-svg/es/asn/DotChartOutlined'),
  EnvironmentOutlined: () => import('@ant-design/icons-svg/es/asn/EnvironmentOutlined'),
  ExceptionOutlined: () => import('@ant-design/icons-svg/es/asn/ExceptionOutlined'),
  ExperimentOutlined: () => import('@ant-design/icons-svg/es/asn/ExperimentOutlined'),
  FieldTimeOutlined: () => import('@ant-design/icons-svg/es/asn/FieldTimeOutlined'),
  FileDoneOutlined: () => import('@ant-design/icons-svg/es/asn/FileDoneOutlined'),
  FileExclamationOutlined: () => import('@ant-design/icons-svg/es/asn/FileExclamationOutlined'),
  FileProtectOutlined: () => import('@ant-design/icons-svg/es/asn/FileProtectOutlined'),
  FileSearchOutlined: () => import('@ant-design/icons-svg/es/asn/FileSearchOutlined'),
  FileSyncOutlined: () => import('@ant-design/icons-svg/es/asn/FileSyncOutlined'),
  FileTextOutlined: () => import('@ant-design/icons-svg/es/asn/FileTextOutlined'),
  FileZipOutlined: () => import('@ant-design/icons-svg/es/asn/FileZipOutlined'),
  FireOutlined: () => import('@ant-design/icons-svg/es/asn/FireOutlined'),
  FormOutlined: () => import('@ant-design/icons-svg/es/asn/FormOutlined'),
  FundOutlined: () => import('@ant-design/icons-svg/es/asn/FundOutlined'),
  FundProjectionScreenOutlined: () => import('@ant-design/icons-svg/es/asn/FundProjectionScreenOutlined'),
  GiftOutlined: () => import('@ant-design/icons-svg/es/asn/GiftOutlined'),
  GlobalOutlined: () => import('@ant-design/icons-svg/es/asn/GlobalOutlined'),
  GroupOutlined: () => import('@ant-design/icons-svg/es/asn/GroupOutlined'),
  HddOutlined: () => import('@ant-design/icons-svg/es/asn/HddOutlined'),
  HeartOutlined: () => import('@ant-design/icons-svg/es/asn/HeartOutlined'),
  HeatMapOutlined: () => import('@ant-design/icons-svg/es/asn/HeatMapOutlined'),
  HomeOutlined: () => import('@ant-design/icons-svg/es/asn/HomeOutlined'),
  HourglassOutlined: () => import('@ant-design/icons-svg/es/asn/HourglassOutlined'),
  IdcardOutlined: () => import('@ant-design/icons-svg/es/asn/IdcardOutlined'),
  ImportOutlined: () => import('@ant-design/icons-svg/es/asn/ImportOutlined'),
  InboxOutlined: () => import('@ant-design/icons-svg/es/asn/InboxOutlined'),
  InsuranceOutlined: () => import('@ant-design/icons-svg/es/asn/InsuranceOutlined'),
  IssuesCloseOutlined: () => import('@ant-design/icons-svg/es/asn/IssuesCloseOutlined'),
  KeyOutlined: () => import('@ant-design/icons-svg/es/asn/KeyOutlined'),
  LaptopOutlined: () => import('@ant-design/icons-svg/es/asn/LaptopOutlined'),
  LineChartOutlined: () => import('@ant-design/icons-svg/es/asn/LineChartOutlined'),
  LinkOutlined: () => import('@ant-design/icons-svg/es/asn/LinkOutlined'),
  LoginOutlined: () => import('@ant-design/icons-svg/es/asn/LoginOutlined'),
  MailOutlined: () => import('@ant-design/icons-svg/es/asn/MailOutlined'),
  MedicineBoxOutlined: () => import('@ant-design/icons-svg/es/asn/MedicineBoxOutlined'),
  MenuOutlined: () => import('@ant-design/icons-svg/es/asn/MenuOutlined'),
  MessageOutlined: () => import('@ant-design/icons-svg/es/asn/MessageOutlined'),
  MobileOutlined: () => import('@ant-design/icons-svg/es/asn/MobileOutlined'),
  MoneyCollectOutlined: () => import('@ant-design/icons-svg/es/asn/MoneyCollectOutlined'),
  MonitorOutlined: () => import('@ant-design/icons-svg/es/asn/MonitorOutlined'),
  MoonOutlined: () => import('@ant-design/icons-svg/es/asn/MoonOutlined'),
  NotificationOutlined: () => import('@ant-design/icons-svg/es/asn/NotificationOutlined'),
  OrderedListOutlined: () => import('@ant-design/icons-svg/es/asn/OrderedListOutlined'),
  PartitionOutlined: () => import('@ant-design/icons-svg/es/asn/PartitionOutlined'),
  PayCircleOutlined: () => import('@ant-design/icons-svg/es/asn/PayCircleOutlined'),
  PercentageOutlined: () => import('@ant-design/icons-svg/es/asn/PercentageOutlined'),
  PieChartOutlined: () => import('@ant-design/icons-svg/es/asn/PieChartOutlined'),
  ProductOutlined: () => import('@ant-design/icons-svg/es/asn/ProductOutlined'),
  ProfileOutlined: () => import('@ant-design/icons-svg/es/asn/ProfileOutlined'),
  ProjectOutlined: () => import('@ant-design/icons-svg/es/asn/ProjectOutlined'),
  PropertySafetyOutlined: () => import('@ant-design/icons-svg/es/asn/PropertySafetyOutlined'),
  ReadOutlined: () => import('@ant-design/icons-svg/es/asn/ReadOutlined'),
  ReconciliationOutlined: () => import('@ant-design/icons-svg/es/asn/ReconciliationOutlined'),
  RestOutlined: () => import('@ant-design/icons-svg/es/asn/RestOutlined'),
  RollbackOutlined: () => import('@ant-design/icons-svg/es/asn/RollbackOutlined'),
  SafetyCertificateOutlined: () => import('@ant-design/icons-svg/es/asn/SafetyCertificateOutlined'),
  ScheduleOutlined: () => import('@ant-design/icons-svg/es/asn/ScheduleOutlined'),
  SecurityScanOutlined: () => import('@ant-design/icons-svg/es/asn/SecurityScanOutlined'),
  SendOutlined: () => import('@ant-design/icons-svg/es/asn/SendOutlined'),
  SettingOutlined: () => import('@ant-design/icons-svg/es/asn/SettingOutlined'),
  ShopOutlined: () => import('@ant-design/icons-svg/es/asn/ShopOutlined'),
  ShoppingCartOutlined: () => import('@ant-design/icons-svg/es/asn/ShoppingCartOutlined'),
  ShoppingOutlined: () => import('@ant-design/icons-svg/es/asn/ShoppingOutlined'),
  SignalFilled: () => import('@ant-design/icons-svg/es/asn/SignalFilled'),
  SignatureOutlined: () => import('@ant-design/icons-svg/es/asn/SignatureOutlined'),
  SkinOutlined: () => import('@ant-design/icons-svg/es/asn/SkinOutlined'),
  SlidersOutlined: () => import('@ant-design/icons-svg/es/asn/SlidersOutlined'),
  SnippetsOutlined: () => import('@ant-design/icons-svg/es/asn/SnippetsOutlined'),
  SolutionOutlined: () => import('@ant-design/icons-svg/es/asn/SolutionOutlined'),
  StarOutlined: () => import('@ant-design/icons-svg/es/asn/StarOutlined'),
  StockOutlined: () => import('@ant-design/icons-svg/es/asn/StockOutlined'),
  SwapOutlined: () => import('@ant-design/icons-svg/es/asn/SwapOutlined'),
  SyncOutlined: () => import('@ant-design/icons-svg/es/asn/SyncOutlined'),
  TagsOutlined: () => import('@ant-design/icons-svg/es/asn/TagsOutlined'),
  TeamOutlined: () => import('@ant-design/icons-svg/es/asn/TeamOutlined'),
  ThunderboltOutlined: () => import('@ant-design/icons-svg/es/asn/ThunderboltOutlined'),
  ToolOutlined: () => import('@ant-design/icons-svg/es/asn/ToolOutlined'),
  TrademarkOutlined: () => import('@ant-design/icons-svg/es/asn/TrademarkOutlined'),
  TransactionOutlined: () => import('@ant-design/icons-svg/es/asn/TransactionOutlined'),
  TruckOutlined: () => import('@ant-design/icons-svg/es/asn/TruckOutlined'),
  UnorderedListOutlined: () => import('@ant-design/icons-svg/es/asn/UnorderedListOutlined'),
  UserOutlined: () => import('@ant-design/icons-svg/es/asn/UserOutlined'),
  VideoCameraOutlined: () => import('@ant-design/icons-svg/es/asn/VideoCameraOutlined'),
  WalletOutlined: () => import('@ant-design/icons-svg/es/asn/WalletOutlined'),
  WarningOutlined: () => import('@ant-design/icons-svg/es/asn/WarningOutlined'),
  WifiOutlined: () => import('@ant-design/icons-svg/es/asn/WifiOutlined'),
};

interface SeedIconEntry {
  code?: string;
  icon?: string;
  children?: readonly SeedIconEntry[];
}

/**
 * The icon schemas/menus.json gives each resource code (read as text: the production build keeps
 * only the codes and icons of the file in it, scripts/consoleCataloguePlugin.ts). A menu row that names no icon
 * of its own, or one this console cannot draw, shows its code's icon from here: the catalogue sync
 * (server/seed/catalogueSync.ts) adds new rows but never rewrites a present one, so a database
 * seeded before its entries were given icons keeps empty ones, and the console still tells its
 * entries apart.
 */
export const SEED_ICON_BY_CODE: ReadonlyMap<string, string> = (() => {
  const byCode = new Map<string, string>();
  const walk = (entries: readonly SeedIconEntry[]) =>
    entries.forEach((entry) => {
      if (entry.code && entry.icon) byCode.set(entry.code, entry.icon);
      walk(entry.children ?? []);
    });
  walk((JSON.parse(seedMenuText) as { menus: readonly SeedIconEntry[] }).menus);
  return byCode;
})();

/** The generic icon, for a resource with neither an icon of its own nor one in the seed. */
export const GENERIC_MENU_ICON = 'AppstoreOutlined';

/** The icon's name a menu resource shows: its own when the console can draw it, else its code's seed icon, else the generic one. */
export function menuIconName(name: string | null | undefined, code: string | null | undefined): string {
  if (name && MENU_ICONS[name]) return name;
  const seeded = code ? SEED_ICON_BY_CODE.get(code) : undefined;
  if (seeded && MENU_ICONS[seeded]) return seeded;
  return GENERIC_MENU_ICON;
}
