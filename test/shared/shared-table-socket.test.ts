/**
 * The shared table's WebSocket protocol, both directions (shared/wire/shared-table-socket.ts): the
 * player's messages checked for their envelope, and the table's serialised by one function and
 * read back by a client with their envelope checked.
 */
import { describe, expect, test } from 'vitest';
import {
  clientMessageText,
  MAX_MESSAGE_BYTES,
  parseClientMessage,
  PROTOCOL_VERSION,
  readServerMessage,
  type ServerMessage,
  serverMessageText,
} from '../../shared/wire/shared-table-socket.ts';

describe("the player's messages", () => {
  test('each kind a client sends is read back as itself', () => {
    const sent = [
      { type: 'ping' },
      { type: 'state' },
      { type: 'start', request: { body: {}, signature: 'x' } },
      { type: 'bet', request: { body: {}, signature: 'y' } },
    ] as const;
    for (const m of sent) expect(parseClientMessage(clientMessageText(m))).toEqual({ ok: true, value: m });
  });

  test('the envelope is checked: text frames, one JSON object, this version, a known type, a request where one is due', () => {
    const code = (text: string | ArrayBuffer) => {
      const r = parseClientMessage(text);
      return r.ok ? 'ok' : r.code;
    };
    expect(code(new ArrayBuffer(4))).toBe('bad_message');
    expect(code('{')).toBe('bad_json');
    expect(code('[1]')).toBe('bad_message');
    expect(code('null')).toBe('bad_message');
    expect(code('{"type":"ping"}')).toBe('bad_version');
    expect(code(`{"v":${PROTOCOL_VERSION + 1},"type":"ping"}`)).toBe('bad_version');
    expect(code('{"v":1,"type":"deal"}')).toBe('unknown_type');
    expect(code('{"v":1,"type":"bet"}')).toBe('bad_message');
    expect(code('{"v":1,"type":"start","request":null}')).toBe('bad_message');
    expect(code(JSON.stringify({ v: 1, type: 'ping', pad: 'é'.repeat(MAX_MESSAGE_BYTES / 2) }))).toBe('message_too_large');
  });
});

describe("the table's messages", () => {
  test('are serialised as { v, type, … } in that order, and the keep-alive pair is the one the runtime answers', () => {
    const open: ServerMessage = { type: 'open', shoe: 2, round: 7, closesAt: '2025-01-01T12:00:00.000Z', connections: 3 };
    expect(serverMessageText(open)).toBe('{"v":1,"type":"open","shoe":2,"round":7,"closesAt":"2025-01-01T12:00:00.000Z","connections":3}');
    expect(clientMessageText({ type: 'ping' })).toBe('{"v":1,"type":"ping"}');
    expect(serverMessageText({ type: 'pong' })).toBe('{"v":1,"type":"pong"}');
  });

  test('are read back with their envelope checked: this version and a known type, else null', () => {
    const refused: ServerMessage = { type: 'bet-refused', shoe: 1, round: 3, player: 'k', code: 'betting_closed', message: 'closed' };
    expect(readServerMessage(serverMessageText(refused))).toEqual({ v: PROTOCOL_VERSION, ...refused });
    expect(readServerMessage('{"v":1,"type":"gossip"}')).toBeNull();
    expect(readServerMessage('{"v":2,"type":"pong"}')).toBeNull();
    expect(readServerMessage('{"type":"pong"}')).toBeNull();
    expect(readServerMessage('[]')).toBeNull();
    expect(readServerMessage('not json')).toBeNull();
  });
});
