import { describe, expect, it } from 'vitest';
import { isPrivateAddress, parseIPv4, parseIPv6 } from '../crawler/ip-address.ts';
import { ResolvePinError, ResolvePins } from '../crawler/resolve-pins.ts';
import { Semaphore, SemaphoreAbortedError } from '../crawler/semaphore.ts';

describe('isPrivateAddress', () => {
  it.each([
    '0.0.0.0', '0.1.2.3', '10.0.0.1', '10.255.255.255', '100.64.0.1', '100.127.255.254', '127.0.0.1', '127.255.255.255',
    '169.254.169.254', '172.16.0.1', '172.31.255.255', '192.0.0.8', '192.0.2.1', '192.168.1.1', '198.18.0.1', '198.19.255.255',
    '198.51.100.7', '203.0.113.9', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
    '::', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1',
    'fe80::1', 'fe80::1%eth0', 'febf::1', 'fec0::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '2001:db8::1', '2001::1',
    '64:ff9b::127.0.0.1', '64:ff9b::a00:1', '64:ff9b:1::1', '2002:7f00:1::1', '2002:c0a8:101::1', '100::1',
  ])('%s is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '1.1.1.1', '8.8.8.8', '9.255.255.255', '11.0.0.1', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.1',
    '169.253.0.1', '172.15.255.255', '172.32.0.1', '192.167.1.1', '192.169.0.1', '198.20.0.1', '223.255.255.255',
    '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '2002:808:808::1',
    '2001:4860:4860::8888', 'fbff::1', 'fe7f::1',
  ])('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each(['', 'localhost', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1::2::3', '12345::', '1:2:3:4:5:6:7:8:9', ':::', 'g::1', '::ffff:1.2.3'])(
    'unparsable %j counts as private',
    (address) => {
      expect(isPrivateAddress(address)).toBe(true);
    },
  );

  it('parses addresses', () => {
    expect(parseIPv4('192.168.1.2')).toBe(0xc0a80102);
    expect(Array.from(parseIPv6('2001:db8::8:800:200c:417a') ?? [])).toEqual([0x2001, 0xdb8, 0, 0, 0x8, 0x800, 0x200c, 0x417a]);
    expect(Array.from(parseIPv6('::ffff:1.2.3.4') ?? [])).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(Array.from(parseIPv6('1:2:3:4:5:6:7:8') ?? [])).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(Array.from(parseIPv6('1:2:3:4:5:6:7::') ?? [])).toEqual([1, 2, 3, 4, 5, 6, 7, 0]);
    expect(parseIPv6('1:2:3:4:5:6:7:8::')).toBeNull();
  });
});

describe('ResolvePins', () => {
  const pins = new ResolvePins({
    'exact.example:80': '10.0.0.1:8001',
    '*.example:80': '10.0.0.2:8002',
    '*.deep.example:80': '10.0.0.3:8003',
    '*:443': '10.0.0.4:8004',
    'any.port.test:*': '[::1]:8005',
  });

  it('prefers exact hosts, then the longest suffix, then *', () => {
    expect(pins.match('exact.example', 80)).toEqual({ address: '10.0.0.1', port: 8001 });
    expect(pins.match('www.example', 80)).toEqual({ address: '10.0.0.2', port: 8002 });
    expect(pins.match('a.deep.example', 80)).toEqual({ address: '10.0.0.3', port: 8003 });
    expect(pins.match('anything.org', 443)).toEqual({ address: '10.0.0.4', port: 8004 });
    expect(pins.match('any.port.test', 1234)).toEqual({ address: '::1', port: 8005 });
  });

  it('matches case-insensitively and only on the given port', () => {
    expect(pins.match('WWW.Example', 80)?.port).toBe(8002);
    expect(pins.match('www.example', 8080)).toBeUndefined();
    // *.example does not cover the bare suffix or look-alike hosts.
    expect(pins.match('example', 80)).toBeUndefined();
    expect(pins.match('notexample', 80)).toBeUndefined();
  });

  it.each([
    [{ 'host-without-port': '127.0.0.1:1' }, /expected HOST:PORT/],
    [{ 'h:0': '127.0.0.1:1' }, /not a port/],
    [{ 'h:80': '127.0.0.1' }, /expected HOST:PORT/],
    [{ 'h:80': 'name.example:80' }, /not an IP address/],
    [{ 'h:80': '::1:80' }, /brackets/],
    [{ 'a b:80': '127.0.0.1:80' }, /must be a name/],
  ])('rejects %j', (map, message) => {
    expect(() => new ResolvePins(map)).toThrow(ResolvePinError);
    expect(() => new ResolvePins(map)).toThrow(message);
  });
});

describe('Semaphore', () => {
  it('admits up to the limit and hands slots over in order', async () => {
    const semaphore = new Semaphore(2);
    const order: number[] = [];
    const a = await semaphore.acquire();
    const b = await semaphore.acquire();
    const c = semaphore.acquire().then((release) => {
      order.push(3);
      return release;
    });
    const d = semaphore.acquire().then((release) => {
      order.push(4);
      return release;
    });
    expect(semaphore.active).toBe(2);
    expect(semaphore.waiting).toBe(2);
    a();
    a(); // releasing twice is harmless
    const releaseC = await c;
    expect(order).toEqual([3]);
    b();
    (await d)();
    releaseC();
    expect(order).toEqual([3, 4]);
    expect(semaphore.active).toBe(0);
  });

  it('drops a waiter whose signal aborts', async () => {
    const semaphore = new Semaphore(1);
    const held = await semaphore.acquire();
    const controller = new AbortController();
    const waiting = semaphore.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(SemaphoreAbortedError);
    expect(semaphore.waiting).toBe(0);
    held();
    expect(semaphore.active).toBe(0);
    await expect(semaphore.acquire(controller.signal)).rejects.toBeInstanceOf(SemaphoreAbortedError);
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
