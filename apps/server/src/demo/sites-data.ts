/**
 * Places of the demo estates: real cities with their coordinates and real neighbourhoods, so that the map, the
 * tree and the site names read like a customer's estate.
 */
export interface DemoCity {
  country: string;
  region: string;
  city: string;
  code: string;
  lat: number;
  lng: number;
  localities: string[];
}

export const NORTHWIND_CITIES: DemoCity[] = [
  {
    country: 'India',
    region: 'Karnataka',
    city: 'Bengaluru',
    code: 'BLR',
    lat: 12.9716,
    lng: 77.5946,
    localities: ['Indiranagar', 'Koramangala', 'Whitefield', 'Jayanagar', 'Hebbal', 'Electronic City'],
  },
  {
    country: 'India',
    region: 'Karnataka',
    city: 'Mysuru',
    code: 'MYS',
    lat: 12.2958,
    lng: 76.6394,
    localities: ['Vijayanagar', 'Kuvempunagar'],
  },
  {
    country: 'India',
    region: 'Maharashtra',
    city: 'Mumbai',
    code: 'BOM',
    lat: 19.076,
    lng: 72.8777,
    localities: ['Andheri East', 'Bandra West', 'Powai', 'Lower Parel', 'Thane'],
  },
  {
    country: 'India',
    region: 'Maharashtra',
    city: 'Pune',
    code: 'PNQ',
    lat: 18.5204,
    lng: 73.8567,
    localities: ['Hinjewadi', 'Kothrud', 'Viman Nagar'],
  },
  {
    country: 'India',
    region: 'Tamil Nadu',
    city: 'Chennai',
    code: 'MAA',
    lat: 13.0827,
    lng: 80.2707,
    localities: ['T Nagar', 'Adyar', 'Velachery', 'Anna Nagar'],
  },
  {
    country: 'India',
    region: 'Delhi',
    city: 'New Delhi',
    code: 'DEL',
    lat: 28.6139,
    lng: 77.209,
    localities: ['Connaught Place', 'Saket', 'Dwarka', 'Karol Bagh'],
  },
  {
    country: 'India',
    region: 'Telangana',
    city: 'Hyderabad',
    code: 'HYD',
    lat: 17.385,
    lng: 78.4867,
    localities: ['Gachibowli', 'Banjara Hills', 'Secunderabad'],
  },
  {
    country: 'Kenya',
    region: 'Nairobi County',
    city: 'Nairobi',
    code: 'NBO',
    lat: -1.2921,
    lng: 36.8219,
    localities: ['Westlands', 'Kilimani', 'Upper Hill'],
  },
  {
    country: 'Kenya',
    region: 'Mombasa County',
    city: 'Mombasa',
    code: 'MBA',
    lat: -4.0435,
    lng: 39.6682,
    localities: ['Nyali', 'Old Town'],
  },
  {
    country: 'United Arab Emirates',
    region: 'Dubai',
    city: 'Dubai',
    code: 'DXB',
    lat: 25.2048,
    lng: 55.2708,
    localities: ['Deira', 'Business Bay', 'Jumeirah', 'Al Barsha'],
  },
  {
    country: 'United Arab Emirates',
    region: 'Abu Dhabi',
    city: 'Abu Dhabi',
    code: 'AUH',
    lat: 24.4539,
    lng: 54.3773,
    localities: ['Al Reem Island', 'Khalifa City'],
  },
  {
    country: 'United Kingdom',
    region: 'England',
    city: 'London',
    code: 'LON',
    lat: 51.5074,
    lng: -0.1278,
    localities: ['Canary Wharf', 'Camden', 'Croydon', 'Hammersmith'],
  },
  {
    country: 'United Kingdom',
    region: 'England',
    city: 'Manchester',
    code: 'MAN',
    lat: 53.4808,
    lng: -2.2426,
    localities: ['Salford Quays', 'Didsbury'],
  },
  {
    country: 'Singapore',
    region: 'Central Region',
    city: 'Singapore',
    code: 'SIN',
    lat: 1.3521,
    lng: 103.8198,
    localities: ['Orchard', 'Tampines', 'Jurong East'],
  },
  {
    country: 'South Africa',
    region: 'Gauteng',
    city: 'Johannesburg',
    code: 'JNB',
    lat: -26.2041,
    lng: 28.0473,
    localities: ['Sandton', 'Rosebank'],
  },
  {
    country: 'Brazil',
    region: 'São Paulo',
    city: 'São Paulo',
    code: 'SAO',
    lat: -23.5505,
    lng: -46.6333,
    localities: ['Pinheiros', 'Moema', 'Vila Mariana'],
  },
];

export const ACME_CITIES: DemoCity[] = [
  {
    country: 'United States',
    region: 'New York',
    city: 'New York',
    code: 'NYC',
    lat: 40.7128,
    lng: -74.006,
    localities: ['Midtown', 'Brooklyn Heights', 'Astoria'],
  },
  {
    country: 'United States',
    region: 'Texas',
    city: 'Austin',
    code: 'AUS',
    lat: 30.2672,
    lng: -97.7431,
    localities: ['Downtown', 'Domain', 'South Congress'],
  },
  {
    country: 'United States',
    region: 'California',
    city: 'San Francisco',
    code: 'SFO',
    lat: 37.7749,
    lng: -122.4194,
    localities: ['Mission', 'SoMa'],
  },
  {
    country: 'United Kingdom',
    region: 'England',
    city: 'Birmingham',
    code: 'BHX',
    lat: 52.4862,
    lng: -1.8904,
    localities: ['Bullring', 'Edgbaston'],
  },
  {
    country: 'Germany',
    region: 'Bavaria',
    city: 'Munich',
    code: 'MUC',
    lat: 48.1351,
    lng: 11.582,
    localities: ['Schwabing', 'Maxvorstadt'],
  },
  {
    country: 'Germany',
    region: 'Berlin',
    city: 'Berlin',
    code: 'BER',
    lat: 52.52,
    lng: 13.405,
    localities: ['Mitte', 'Kreuzberg', 'Prenzlauer Berg'],
  },
];

/** Hardware the estates run on, per device type: vendor and model. */
export const HARDWARE: Record<string, { vendor: string; model: string }[]> = {
  ROUTER: [
    { vendor: 'Teltonika', model: 'RUT955' },
    { vendor: 'Cisco', model: 'IR1101' },
  ],
  DVR: [
    { vendor: 'Hikvision', model: 'DS-7608NI-K2' },
    { vendor: 'Dahua', model: 'NVR4108HS-4KS2' },
  ],
  CAMERA: [
    { vendor: 'Hikvision', model: 'DS-2CD2143G2-I' },
    { vendor: 'Dahua', model: 'IPC-HDW2431T' },
  ],
  HDD: [
    { vendor: 'Seagate', model: 'SkyHawk' },
    { vendor: 'WD', model: 'Purple' },
  ],
  ALARMPANEL: [
    { vendor: 'Honeywell', model: 'Vista-48' },
    { vendor: 'Bosch', model: 'B5512' },
  ],
  GENERATOR: [
    { vendor: 'DeepSea', model: 'DSE7320' },
    { vendor: 'ComAp', model: 'InteliLite 4' },
  ],
  UPS: [
    { vendor: 'APC', model: 'Smart-UPS 3000' },
    { vendor: 'Eaton', model: '9SX 3000' },
  ],
  RECTIFIER: [{ vendor: 'Eltek', model: 'Flatpack2' }],
  ETH: [{ vendor: 'Advantech', model: 'ADAM-6060' }],
  METER: [
    { vendor: 'Schneider', model: 'PM5350' },
    { vendor: 'Secure', model: 'Elite 440' },
  ],
  SENSOR: [{ vendor: 'Milesight', model: 'EM300-TH' }],
  ACCESSCONTROL: [{ vendor: 'ZKTeco', model: 'inBio 260' }],
  RELAY: [{ vendor: 'Shelly', model: 'Pro 2PM' }],
};

export const ALARM_PANEL_EVENTS = [
  'Armed by user 3',
  'Disarmed by user 1',
  'Zone 4 restore',
  'AC restore',
  'Periodic test report',
  'Armed away',
];
export const ACCESS_EVENTS = ['Card 1042 · Main door', 'Card 2210 · Stock room', 'PIN user 7 · Main door', 'Card 1187 · Back office'];
