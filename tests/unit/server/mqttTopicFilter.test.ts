// Topic names and filters of the device transport (server/ingest/mqtt/topicFilter.ts): what a
// device's subscription receives of the server's downlink messages.
import { describe, expect, it } from 'vitest';
import { isTopicFilter, isTopicName, topicMatches } from '../../../server/ingest/mqtt/topicFilter.ts';

describe('topicMatches', () => {
  it('matches a filter without wildcards only to the same topic', () => {
    expect(topicMatches('v1/devices/me/attributes', 'v1/devices/me/attributes')).toBe(true);
    expect(topicMatches('v1/devices/me/attributes', 'v1/devices/me/attributes/response/1')).toBe(false);
    expect(topicMatches('v1/devices/me/attributes', 'v1/devices/me')).toBe(false);
    expect(topicMatches('v1/devices/me/attributes', 'V1/devices/me/attributes')).toBe(false);
  });

  it('+ matches exactly one level, an empty one too', () => {
    expect(topicMatches('v1/devices/me/rpc/request/+', 'v1/devices/me/rpc/request/42')).toBe(true);
    expect(topicMatches('v1/devices/me/rpc/request/+', 'v1/devices/me/rpc/request/')).toBe(true);
    expect(topicMatches('v1/devices/me/rpc/request/+', 'v1/devices/me/rpc/request')).toBe(false);
    expect(topicMatches('v1/devices/me/rpc/request/+', 'v1/devices/me/rpc/request/42/more')).toBe(false);
    expect(topicMatches('v1/+/me/+/request/+', 'v1/devices/me/rpc/request/7')).toBe(true);
    expect(topicMatches('+', 'a')).toBe(true);
    expect(topicMatches('+', 'a/b')).toBe(false);
    expect(topicMatches('+/+', '/a')).toBe(true);
  });

  it('# matches the level before it and everything below', () => {
    expect(topicMatches('v1/devices/#', 'v1/devices')).toBe(true);
    expect(topicMatches('v1/devices/#', 'v1/devices/me/rpc/request/1')).toBe(true);
    expect(topicMatches('v1/devices/#', 'v1/gateway/rpc')).toBe(false);
    expect(topicMatches('#', 'anything/at/all')).toBe(true);
    expect(topicMatches('v1/+/#', 'v1/gateway')).toBe(true);
  });

  it('a filter starting with a wildcard does not match $ topics', () => {
    expect(topicMatches('#', '$SYS/broker')).toBe(false);
    expect(topicMatches('+/broker', '$SYS/broker')).toBe(false);
    expect(topicMatches('$SYS/#', '$SYS/broker')).toBe(true);
  });
});

describe('isTopicName and isTopicFilter', () => {
  it('topic names have no wildcards and are not empty', () => {
    expect(isTopicName('v1/devices/me/telemetry')).toBe(true);
    expect(isTopicName('')).toBe(false);
    expect(isTopicName('v1/devices/+/telemetry')).toBe(false);
    expect(isTopicName('v1/#')).toBe(false);
    expect(isTopicName('v1/\0')).toBe(false);
  });

  it('filters put # last and alone in its level, + alone in its level', () => {
    for (const filter of ['#', '+', 'a/+/b', 'a/#', '/+', 'v1/devices/me/rpc/request/+']) expect(isTopicFilter(filter), filter).toBe(true);
    for (const filter of ['', 'a/#/b', 'a#', 'a/b+', '+a', 'a/\0']) expect(isTopicFilter(filter), filter).toBe(false);
  });
});
