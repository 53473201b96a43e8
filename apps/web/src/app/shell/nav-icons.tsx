import type { SvgIconComponent } from '@mui/icons-material';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import AssignmentOutlined from '@mui/icons-material/AssignmentOutlined';
import BuildOutlined from '@mui/icons-material/BuildOutlined';
import CalendarMonthOutlined from '@mui/icons-material/CalendarMonthOutlined';
import ConfirmationNumberOutlined from '@mui/icons-material/ConfirmationNumberOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import DevicesOtherOutlined from '@mui/icons-material/DevicesOtherOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import MapOutlined from '@mui/icons-material/MapOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import SmsOutlined from '@mui/icons-material/SmsOutlined';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import SummarizeOutlined from '@mui/icons-material/SummarizeOutlined';
import VideocamOutlined from '@mui/icons-material/VideocamOutlined';
import VideoLibraryOutlined from '@mui/icons-material/VideoLibraryOutlined';

/** Icon names a menu entry may carry (customer settings menu[].icon); unknown names get a folder. */
const ICONS: Record<string, SvgIconComponent> = {
  home: HomeOutlined,
  summary: SummarizeOutlined,
  sites: PlaceOutlined,
  assets: PlaceOutlined,
  devices: DevicesOtherOutlined,
  map: MapOutlined,
  tickets: ConfirmationNumberOutlined,
  workorders: BuildOutlined,
  cameras: VideocamOutlined,
  recordings: VideoLibraryOutlined,
  dashboards: DashboardOutlined,
  analytics: InsightsOutlined,
  downloads: DownloadOutlined,
  users: PeopleOutlined,
  outbox: SmsOutlined,
  admin: AdminPanelSettingsOutlined,
  settings: SettingsOutlined,
  forms: AssignmentOutlined,
  calendar: CalendarMonthOutlined,
  inventory: Inventory2Outlined,
  storages: StorageOutlined,
};

export function NavIcon({ name }: { name?: string }) {
  const Icon = (name && ICONS[name]) || FolderOutlined;
  return <Icon fontSize="small" />;
}
