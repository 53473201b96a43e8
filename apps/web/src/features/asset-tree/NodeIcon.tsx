import type { SvgIconComponent } from '@mui/icons-material';
import BatteryChargingFull from '@mui/icons-material/BatteryChargingFull';
import Dvr from '@mui/icons-material/Dvr';
import ElectricalServices from '@mui/icons-material/ElectricalServices';
import ElectricBolt from '@mui/icons-material/ElectricBolt';
import LocationCity from '@mui/icons-material/LocationCity';
import MapIcon from '@mui/icons-material/Map';
import MeetingRoom from '@mui/icons-material/MeetingRoom';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import Public from '@mui/icons-material/Public';
import Router from '@mui/icons-material/Router';
import Sensors from '@mui/icons-material/Sensors';
import SettingsInputComponent from '@mui/icons-material/SettingsInputComponent';
import Speed from '@mui/icons-material/Speed';
import Storage from '@mui/icons-material/Storage';
import Store from '@mui/icons-material/Store';
import ToggleOn from '@mui/icons-material/ToggleOn';
import Videocam from '@mui/icons-material/Videocam';
import type { TreeNode } from '@sitewatch/contracts/sites';

const DEVICE_ICONS: Record<string, SvgIconComponent> = {
  ROUTER: Router,
  DVR: Dvr,
  CAMERA: Videocam,
  HDD: Storage,
  ALARMPANEL: NotificationsActive,
  GENERATOR: ElectricBolt,
  UPS: BatteryChargingFull,
  RECTIFIER: ElectricalServices,
  ETH: SettingsInputComponent,
  METER: Speed,
  SENSOR: Sensors,
  ACCESSCONTROL: MeetingRoom,
  RELAY: ToggleOn,
};

/** The icon of a tree node in its status colour (SPEC 3: icon, iconColor). */
export function NodeIcon({ node, depth }: { node: TreeNode; depth: number }) {
  const Icon =
    node.nodeType === 'device'
      ? (DEVICE_ICONS[node.deviceType ?? node.icon] ?? Router)
      : node.nodeType === 'asset'
        ? Store
        : depth === 0
          ? Public
          : depth === 1
            ? MapIcon
            : LocationCity;
  return <Icon fontSize="small" sx={{ color: node.iconColor, flexShrink: 0 }} data-colour={node.iconColor} />;
}
