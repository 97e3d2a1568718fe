// Several Terrasight instances (server processes) on one PostgreSQL database behind HAProxy, as
// docs/operations.md describes them: HTTP and WebSockets on one port, MQTT over TCP on another,
// each instance checked on GET /health. For the cluster test and bench/cluster.ts; an instance
// may be killed and started again on its own ports.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, portFree, startServerProcess, type ServerProcess } from './serverProcess.ts';

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
  /**
   * Restarts the instance as an upgrade does: SIGTERM (it drains for SHUTDOWN_DRAIN_MS, then
   * closes), start, and back in the balancer (ready, and a health check later).
   */
  restart(index: number): Promise<void>;
  stop(): Promise<void>;
}

export const haproxyInstalled = () => spawnSync('haproxy', ['-v'], { encoding: 'utf8' }).status === 0;

/** Where HAProxy listens, and the instances behind it. */
export interface BalancerLayout {
  /** `host:port` (or `:port`) for HTTP and WebSockets, and for MQTT over TCP. */
  httpBind: string;
  mqttBind: string;
  instances: { name: string; host: string; port: number; mqttPort: number }[];
}

/**
 * HAProxy's configuration (docs/operations.md shows it, a unit test keeps the two equal): round
 * robin for HTTP and WebSockets, fewest connections for MQTT, every instance checked on GET /health.
 * HTTP requests that found no instance (refused, closed before an answer) are tried on another; an
 * instance that stops drains first (SHUTDOWN_DRAIN_MS), so none in flight is cut. Devices of an
 * instance found down are disconnected, to connect again to one that is up.
 */
export function haproxyConfig(layout: BalancerLayout): string {
  const servers = (port: 'port' | 'mqttPort', extra = '') => layout.instances
    .map((instance) => `  server ${instance.name} ${instance.host}:${instance[port]} check port ${instance.port}${extra}`).join('\n');
  return `global
  # two file descriptors a connection, within a limit of 20,000 open files
  maxconn 8000

defaults
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # WebSockets and MQTT: idle connections are kept for an hour (devices ping well within it)
  timeout tunnel 1h
  # GET /health answers 200 while the instance is ready: its database answers and it is not stopping
  option httpchk GET /health
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1

frontend http
  mode http
  bind ${layout.httpBind}
  default_backend terrasight

backend terrasight
  mode http
  balance roundrobin
  # the client's address for the sign-in throttle (TRUST_PROXY=1 on the instances)
  option forwardfor
  option http-buffer-request
  option redispatch
  retry-on conn-failure empty-response response-timeout
  retries 3
${servers('port')}

frontend mqtt
  mode tcp
  bind ${layout.mqttBind}
  default_backend terrasight_mqtt

backend terrasight_mqtt
  mode tcp
  balance leastconn
${servers('mqttPort', ' on-marked-down shutdown-sessions')}
`;
}

export async function startCluster(env: NodeJS.ProcessEnv, count = 3): Promise<Cluster> {
  const instances: ClusterInstance[] = [];
  for (let n = 0; n < count; n++) instances.push({ name: `terrasight${n + 1}`, port: await freePort(), mqttPort: await freePort() });
  const start = async (index: number) => {
    const instance = instances[index];
    for (let attempt = 1; ; attempt++) {
      try {
        instance.process = await startServerProcess({ ...env, MQTT_PORT: String(instance.mqttPort) }, { port: instance.port });
        return;
      } catch (error) {
        // another process took one of its ports between freePort's probe and the server's listen
        // (tests run side by side): choose others; any other failure is the server's own
        const taken = !(await portFree(instance.port)) || !(await portFree(instance.mqttPort));
        if (!taken || attempt === 3) throw error;
        instance.port = await freePort();
        instance.mqttPort = await freePort();
      }
    }
  };
  await Promise.all(instances.map((_, index) => start(index)));

  const httpPort = await freePort();
  const mqttPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'terrasight-haproxy-'));
  const configFile = join(dir, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig({
    httpBind: `127.0.0.1:${httpPort}`, mqttBind: `127.0.0.1:${mqttPort}`, instances: instances.map((instance) => ({ ...instance, host: '127.0.0.1' })),
  }));
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
    async restart(index) {
      await instances[index].process?.stop();
      await start(index);
      // back in the balancer: HAProxy checks every 500 ms, and one passing check brings it back
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    },
    async stop() {
      haproxy.kill('SIGTERM');
      await haproxyExited;
      await Promise.all(instances.map((instance) => instance.process?.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
