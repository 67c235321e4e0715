import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT, wranglerDevArgs } from '../../scripts/dev-args.ts';

describe('npm start: the port given to wrangler dev, exactly once', () => {
  it('8787 by default', () => {
    expect(wranglerDevArgs([], {})).toEqual(['dev', '--port', String(DEFAULT_PORT)]);
  });
  it('npm start -- --port N and --port=N', () => {
    expect(wranglerDevArgs(['--port', '8795'], {})).toEqual(['dev', '--port', '8795']);
    expect(wranglerDevArgs(['--port=8796', '--ip', '127.0.0.1'], {})).toEqual(['dev', '--port', '8796', '--ip', '127.0.0.1']);
  });
  it('PORT=N npm start, the command line winning over it', () => {
    expect(wranglerDevArgs([], { PORT: '9000' })).toEqual(['dev', '--port', '9000']);
    expect(wranglerDevArgs(['--port', '9001'], { PORT: '9000' })).toEqual(['dev', '--port', '9001']);
    expect(wranglerDevArgs([], { PORT: '' })).toEqual(['dev', '--port', '8787']);
  });
  it('other arguments pass through; --port appears once', () => {
    const args = wranglerDevArgs(['--local', '--port', '8795', '--var', 'X:1'], { PORT: '9000' });
    expect(args.filter((a) => a === '--port')).toHaveLength(1);
    expect(args).toEqual(['dev', '--port', '8795', '--local', '--var', 'X:1']);
  });
  it('a port that is not one is refused in words', () => {
    expect(() => wranglerDevArgs(['--port'], {})).toThrow('--port: "" is not a port (1–65535)');
    expect(() => wranglerDevArgs(['--port', 'http'], {})).toThrow('--port: "http" is not a port');
    expect(() => wranglerDevArgs([], { PORT: '70000' })).toThrow('PORT: "70000" is not a port');
  });
});
