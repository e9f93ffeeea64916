/**
 * The layout rules a newcomer relies on (issue #38), checked on every run: no source file over 300 lines
 * outside tests, migrations and generated files; no import circle anywhere (dependency-cruiser,
 * `.dependency-cruiser.cjs`; `pnpm lint` runs the same check); no library prototype patched (the pg
 * client's behaviour is a subclass the pools are given, service-kit `PipelinedClient`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const tracked = execFileSync('git', ['ls-files', '*.ts', '*.mts', '*.cts'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);
/** Tests, test support, fixtures, migrations and generated files are exempt. */
const exempt = (f: string) =>
  /\.test\.ts$|(^|\/)test\/|\/migrations\/|\.d\.ts$|fixture|^clients\/typescript\/src\/schema/.test(f);

describe('layout (issue #38)', () => {
  it('keeps every source file within 300 lines', () => {
    const long = tracked
      .filter((f) => !exempt(f))
      .map((f) => [f, readFileSync(`${root}${f}`, 'utf8').split('\n').length - 1] as const)
      .filter(([, n]) => n > 300);
    expect(long).toEqual([]);
    expect(tracked.length).toBeGreaterThan(300);
  });

  it('patches no prototype', () => {
    const patched = tracked
      .filter((f) => !exempt(f))
      .flatMap((f) =>
        readFileSync(`${root}${f}`, 'utf8')
          .split('\n')
          .map((line, i) => [f, i + 1, line] as const)
          .filter(([, , line]) => /\bprototype\b/.test(line) && !/^\s*(\*|\/\/|\/\*)/.test(line)),
      );
    expect(patched).toEqual([]);
  });

  it('has no import circle', () => {
    const r = spawnSync(
      'pnpm',
      ['exec', 'depcruise', '--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...CRUISED],
      { cwd: root, encoding: 'utf8' },
    );
    expect(r.stdout + r.stderr).toMatch(/no dependency violations found \((\d{3,}) modules/);
    expect(r.status).toBe(0);
  });
});

/** The folders cruised: every source and test. */
const CRUISED = ['services', 'gateway', 'shared', 'scripts', 'bench', 'test'];
