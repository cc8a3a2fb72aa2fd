import { describe, expect, it } from 'vitest';
import { parseMessage } from './json-rpc.js';

describe('parseMessage', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"ping"}', { kind: 'request', id: 1, method: 'ping', params: {} }],
    [
      '{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"cursor":"x"}}',
      { kind: 'request', id: 'a', method: 'tools/list', params: { cursor: 'x' } },
    ],
    [
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      { kind: 'notification', method: 'notifications/initialized' },
    ],
    ['{"jsonrpc":"2.0","id":3,"result":{}}', { kind: 'response' }],
    ['{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}}', { kind: 'response' }],
  ])('classifies %s', (body, expected) => {
    expect(parseMessage(body)).toEqual(expected);
  });

  it.each([
    [undefined, null, -32700],
    ['', null, -32700],
    ['{', null, -32700],
    ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', null, -32600],
    ['"ping"', null, -32600],
    ['null', null, -32600],
    ['{"id":1,"method":"ping"}', 1, -32600],
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}', null, -32600],
    ['{"jsonrpc":"2.0","id":{},"method":"ping"}', null, -32600],
    ['{"jsonrpc":"2.0","id":2,"method":"ping","params":[1]}', 2, -32602],
    ['{"jsonrpc":"2.0","method":"notifications/x","params":"s"}', null, -32600],
    ['{"jsonrpc":"2.0","id":5}', 5, -32600],
  ])('rejects %s', (body, id, code) => {
    expect(parseMessage(body)).toMatchObject({ kind: 'invalid', id, error: { code } });
  });
});
