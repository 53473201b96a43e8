/**
 * The simulated devices of bench/commands/run.ts, in a process of their own (as in the field, devices do not share
 * the server's event loop): reads `{ url, tokens }` as JSON from stdin, connects one MQTT client per token, subscribes
 * to its commands and answers each at once; prints "ready" when every device is subscribed.
 */
import mqtt, { type MqttClient } from 'mqtt';

const input = await new Promise<string>((resolve) => {
  let text = '';
  process.stdin.on('data', (chunk) => {
    text += chunk;
  });
  process.stdin.on('end', () => resolve(text));
});
const { url, tokens } = JSON.parse(input) as { url: string; tokens: string[] };
const clients: MqttClient[] = [];
for (let i = 0; i < tokens.length; i += 50) {
  await Promise.all(
    tokens.slice(i, i + 50).map(async (token) => {
      const client = mqtt.connect(url, { username: token, reconnectPeriod: 0, connectTimeout: 30_000 });
      clients.push(client);
      await new Promise<void>((resolve, reject) => {
        client.once('connect', () => resolve());
        client.once('error', reject);
      });
      client.on('message', (topic, payload) => {
        const id = topic.slice(topic.lastIndexOf('/') + 1);
        const { method } = JSON.parse(payload.toString()) as { method: string };
        client.publish(`v1/devices/me/rpc/response/${id}`, JSON.stringify({ ok: true, method }), { qos: 1 });
      });
      await client.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 });
    }),
  );
}
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  for (const c of clients) c.end(true);
  process.exit(0);
});
