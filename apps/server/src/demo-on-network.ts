import net from 'node:net';
import { AppError } from './errors.js';

/** A HOST that only this computer can reach: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  const address = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (address === 'localhost') return true;
  const ipv4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (net.isIPv4(ipv4)) return ipv4.startsWith('127.');
  return net.isIPv6(address) && new net.SocketAddress({ address, family: 'ipv6' }).address === '::1';
}

/**
 * The refusal of a start that would put demo accounts, whose password is printed at every start
 * or was once public, on the network (issue 28): one Swedish line that says how to go on.
 * `demoAccounts` is how many the database has, or `seed` when an empty database would get them.
 */
export function demoOnNetwork(host: string, demoAccounts: number | 'seed'): AppError {
  const remedies =
    demoAccounts === 'seed'
      ? 'Sätt SEED_DEMO=0 för en tom portal, låt HOST vara osatt (då lyssnar portalen bara på 127.0.0.1), eller sätt ALLOW_DEMO_ON_NETWORK=1 för att ändå öppna demon för nätverket.'
      : 'Ta bort demodatan med npm run remove-demo-data, låt HOST vara osatt (då lyssnar portalen bara på 127.0.0.1), eller sätt ALLOW_DEMO_ON_NETWORK=1 för att ändå öppna demon för nätverket.';
  const what =
    demoAccounts === 'seed'
      ? 'den tomma databasen skulle få demodatans konton, vars lösenord skrivs ut vid start'
      : `databasen har ${demoAccounts} av demodatans konton, vars lösenord skrivs ut vid start eller har varit känt (demo1234)`;
  return new AppError('CONFIG', `HOST=${host} är inte tillåtet här: ${what}, och de ska inte nås från nätverket. ${remedies}`);
}
