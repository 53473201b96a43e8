import { apiSession, expect } from './fixtures.ts';

/** Meters of the demo tenant with an active alarm of a rule of this run's own (no ticket of its own yet). */
export async function alarmedMeters(baseURL: string, count: number, seenBy = 'customeradmin') {
  const api = await apiSession(baseURL, 'customeradmin');
  const viewer = seenBy === 'customeradmin' ? api : await apiSession(baseURL, seenBy);
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const key = `e2eLoad${run}`;
  const rule = await api.post('/api/alarms/rules/', {
    name: `E2E overload ${run}`,
    kind: 'threshold',
    deviceType: 'METER',
    key,
    operator: '>',
    threshold: 5,
    severity: 'MAJOR',
    createTicket: false,
  });
  expect(rule.status()).toBe(201);
  const list = (await (await viewer.get(`/iotapp/devices/?type=METER&limit=${count}`)).json()).contents as Array<{ id: number }>;
  expect(list.length).toBe(count);
  const alarms: Array<{ deviceId: number; alarmId: number; message: string }> = [];
  for (const { id } of list) {
    const device = await (await api.post(`/iotapp/devices/${id}/access-token/`)).json();
    expect((await api.context.post(`/api/v1/${device.accessToken}/telemetry`, { data: { [key]: 9 } })).status()).toBe(200);
  }
  for (const { id } of list) {
    await expect
      .poll(
        async () =>
          ((await (await api.get(`/api/alarms/?deviceId=${id}&state=ACTIVE`)).json()).contents as Array<{ message: string }>).some((a) =>
            a.message.includes(key),
          ),
        { timeout: 20_000 },
      )
      .toBe(true);
    const active = (await (await api.get(`/api/alarms/?deviceId=${id}&state=ACTIVE`)).json()).contents as Array<{
      id: number;
      message: string;
    }>;
    const own = active.find((a) => a.message.includes(key));
    if (own) alarms.push({ deviceId: id, alarmId: own.id, message: own.message });
  }
  const ruleId = (await rule.json()).id as number;
  return {
    alarms,
    async cleanup() {
      await api.delete(`/api/alarms/rules/${ruleId}/`);
      if (viewer !== api) await viewer.dispose();
      await api.dispose();
    },
  };
}
