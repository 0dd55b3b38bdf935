// Installs what is missing before `npm start` and `npm test` (plain Node: runs before any install).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

function mtime(path) {
  return existsSync(path) ? statSync(path).mtimeMs : 0;
}

/** True when node_modules is missing or older than package.json / package-lock.json. */
export function dependenciesStale() {
  const installed = mtime(join(root, 'node_modules', '.package-lock.json'));
  if (!installed) return true;
  return mtime(join(root, 'package.json')) > installed || mtime(join(root, 'package-lock.json')) > installed;
}

export function ensureDependencies() {
  if (!dependenciesStale()) return;
  const ci = process.env.CI === 'true' && existsSync(join(root, 'package-lock.json'));
  console.log(ci ? '安装依赖（npm ci）…' : '安装依赖（npm install）…');
  const result = spawnSync('npm', [ci ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (result.status !== 0) {
    console.error('依赖安装失败');
    process.exit(result.status ?? 1);
  }
}

export function bin(name) {
  return join(root, 'node_modules', '.bin', name);
}

/** Runs a command in the project folder, inheriting the terminal; answers its exit code. */
export function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

/** Debian's packages that `npm test` needs, each with how to tell it is there. */
const TEST_PACKAGES = [
  { name: 'chromium', present: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') },
  { name: 'fonts-wqy-zenhei', present: () => existsSync('/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc') },
  {
    name: 'postgresql',
    present: () =>
      process.env.POSTGRES_BIN
        ? existsSync(join(process.env.POSTGRES_BIN, 'initdb'))
        : ['17', '16', '15'].some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/initdb`)),
  },
  // The broker of tests/server/*mosquitto*.test.ts (issue 36): the daemon, mosquitto_ctrl and the dynamic-security plugin.
  {
    name: 'mosquitto',
    present: () =>
      ['/usr/sbin/mosquitto', '/usr/bin/mosquitto_ctrl'].every((file) => existsSync(file)) &&
      // The plugin in Debian's multiarch folder of this machine (x86_64-linux-gnu, aarch64-linux-gnu …).
      readdirSync('/usr/lib').some((folder) => folder.endsWith('-linux-gnu') && existsSync(`/usr/lib/${folder}/mosquitto_dynamic_security.so`)),
  },
];

function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Installs the Debian packages the tests need (Chromium, a CJK font, PostgreSQL, Mosquitto) when they are
 * missing and this runs as root with apt-get; otherwise prints one line naming the command. Answers
 * the names still missing.
 */
export function ensureTestPackages() {
  const missing = TEST_PACKAGES.filter((pkg) => !pkg.present()).map((pkg) => pkg.name);
  if (missing.length === 0) return [];
  const command = `apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() === 0 && commandExists('apt-get')) {
    console.log(`安装测试所需的 Debian 软件包：${missing.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', ...missing], { stdio: 'inherit', env });
    const still = TEST_PACKAGES.filter((pkg) => missing.includes(pkg.name) && !pkg.present()).map((pkg) => pkg.name);
    if (still.length) console.error(`✖ 未能安装 Debian 软件包：${still.join(' ')}（${command}）`);
    return still;
  }
  console.error(`✖ 测试需要 Debian 软件包 ${missing.join(' ')}，请先运行：sudo ${command}`);
  return missing;
}
