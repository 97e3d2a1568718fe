// Several Terrasight instances (server processes) on one PostgreSQL database behind HAProxy, as
// docs/operations.md describes them: HTTP and WebSockets on one port, MQTT over TCP on another,
// each instance checked on GET /health. For the cluster test and bench/cluster.ts; an instance
// may be killed and started again on its own ports.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startServerProcess, type ServerProcess } from './serverProcess.ts';

export interface ClusterInstance { name: string; port: number; mqttPort: number; process?: ServerProcess }

export interface Cluster {
  /** The balancer's HTTP address (`http://127.0.0.1:<port>`). */
  httpBase: string;
  /** The balancer's MQTT port. */
  mqttPort: number;
  instances: ClusterInstance[];
  /** Kills the instance with SIGKILL and waits for its end. */
  kill(index: number): Promise<void>;
  /** Starts the instance again on its ports; resolves when it answers. */
  start(index: number): Promise<void>;
  stop(): Promise<void>;
}

export const haproxyInstalled = () => spawnSync('haproxy', ['-v'], { encoding: 'utf8' }).status === 0;

/** HAProxy's configuration: round robin for HTTP and WebSockets, fewest connections for MQTT, the same health check for both. */
export function haproxyConfig(httpPort: number, mqttPort: number, instances: ClusterInstance[]): string {
  const servers = (port: (instance: ClusterInstance) => number) => instances
    .map((instance) => `  server ${instance.name} 127.0.0.1:${port(instance)} check port ${instance.port}`).join('\n');
  return `global
  maxconn 20000

defaults
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  # a balancer check: GET /health answers 200 when the instance and its database are ready
  option httpchk GET /health
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions

frontend http
  mode http
  bind 127.0.0.1:${httpPort}
  default_backend terrasight

backend terrasight
  mode http
  balance roundrobin
  option redispatch
  retry-on conn-failure empty-response response-timeout
  retries 3
${servers((instance) => instance.port)}

frontend mqtt
  mode tcp
  bind 127.0.0.1:${mqttPort}
  default_backend terrasight_mqtt

backend terrasight_mqtt
  mode tcp
  balance leastconn
${servers((instance) => instance.mqttPort)}
`;
}

export async function startCluster(env: NodeJS.ProcessEnv, count = 3): Promise<Cluster> {
  const instances: ClusterInstance[] = [];
  for (let n = 0; n < count; n++) instances.push({ name: `terrasight${n + 1}`, port: await freePort(), mqttPort: await freePort() });
  const start = async (index: number) => {
    const instance = instances[index];
    instance.process = await startServerProcess({ ...env, MQTT_PORT: String(instance.mqttPort) }, { port: instance.port });
  };
  await Promise.all(instances.map((_, index) => start(index)));

  const httpPort = await freePort();
  const mqttPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'terrasight-haproxy-'));
  const configFile = join(dir, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig(httpPort, mqttPort, instances));
  const haproxy: ChildProcess = spawn('haproxy', ['-db', '-f', configFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  const haproxyExited = new Promise<void>((resolve) => haproxy.once('exit', () => resolve()));
  const httpBase = `http://127.0.0.1:${httpPort}`;
  for (const deadline = Date.now() + 20_000; ;) {
    if (await fetch(`${httpBase}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline || haproxy.exitCode !== null) throw new Error('HAProxy did not start.');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    httpBase,
    mqttPort,
    instances,
    async kill(index) {
      const running = instances[index].process;
      if (!running) return;
      running.signal('SIGKILL');
      await running.exited;
      instances[index].process = undefined;
    },
    start,
    async stop() {
      haproxy.kill('SIGTERM');
      await haproxyExited;
      await Promise.all(instances.map((instance) => instance.process?.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
