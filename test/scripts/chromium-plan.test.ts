import { describe, expect, it } from 'vitest';
import { chromiumPlan, type ChromiumFacts } from '../../scripts/chromium-plan.ts';

const bare: ChromiumFacts = { path: '/usr/bin/chromium', custom: false, works: false, root: false, apt: true, sudo: false };

describe('chromiumPlan: what npm test does about the browser', () => {
  it('a working Chromium is used as it is, whoever runs', () => {
    expect(chromiumPlan({ ...bare, works: true })).toEqual({ action: 'ready' });
    expect(chromiumPlan({ ...bare, works: true, custom: true, apt: false })).toEqual({ action: 'ready' });
  });
  it('root on Debian installs the package directly', () => {
    expect(chromiumPlan({ ...bare, root: true })).toEqual({ action: 'install', prefix: [], command: 'apt-get update && apt-get install -y chromium' });
  });
  it('a user with password-less sudo installs through sudo -n', () => {
    expect(chromiumPlan({ ...bare, sudo: true })).toEqual({
      action: 'install',
      prefix: ['sudo', '-n'],
      command: 'sudo apt-get update && sudo apt-get install -y chromium',
    });
  });
  it('a user without sudo is told the exact command, in one line', () => {
    const plan = chromiumPlan(bare);
    expect(plan.action).toBe('fail');
    if (plan.action === 'fail') {
      expect(plan.message).toContain('sudo apt-get update && sudo apt-get install -y chromium');
      expect(plan.message).not.toContain('\n');
    }
  });
  it('a broken CHROMIUM_PATH is reported, never installed over', () => {
    const plan = chromiumPlan({ ...bare, custom: true, path: '/opt/chrome', root: true });
    expect(plan).toMatchObject({ action: 'fail' });
    if (plan.action === 'fail') expect(plan.message).toContain('CHROMIUM_PATH=/opt/chrome');
  });
  it('no apt: says to install the system package or set CHROMIUM_PATH', () => {
    const plan = chromiumPlan({ ...bare, apt: false, root: true });
    expect(plan.action === 'fail' && plan.message.includes('CHROMIUM_PATH')).toBe(true);
  });
});
