import { describe, expect, it } from 'vitest';
import { withoutUnknownSettings } from './dump-settings.js';

const known = new Set(['statement_timeout', 'lock_timeout', 'client_encoding', 'search_path', 'row_security']);

const header = [
  '--',
  '-- PostgreSQL database dump',
  '--',
  '',
  'SET statement_timeout = 0;',
  'SET transaction_timeout = 0;',
  'SET lock_timeout = 0;',
  "SET client_encoding = 'UTF8';",
  "SELECT pg_catalog.set_config('search_path', '', false);",
  'SET some_future_setting = on;',
  'SET row_security = off;',
  '',
].join('\n');

describe('withoutUnknownSettings', () => {
  it('comments out every header setting the server does not know, and keeps the known ones', () => {
    const { dump, removed } = withoutUnknownSettings(`${header}CREATE TABLE public.t (v text);\n`, known);
    expect(removed).toEqual(['transaction_timeout', 'some_future_setting']);
    expect(dump).not.toMatch(/^SET (transaction_timeout|some_future_setting)/m);
    expect(dump).toContain('\nSET statement_timeout = 0;\n');
    expect(dump).toContain('\nSET row_security = off;\n');
    expect(dump).toContain("\nSELECT pg_catalog.set_config('search_path', '', false);\n");
    expect(dump.split('\n')).toHaveLength(`${header}CREATE TABLE public.t (v text);\n`.split('\n').length);
  });

  it('leaves everything after the header alone, a value that looks like a setting included', () => {
    const body =
      "CREATE TABLE public.t (v text);\nINSERT INTO public.t VALUES ('rad ett\nSET transaction_timeout = 0;\n');\nSET transaction_timeout = 0;\n";
    const { dump } = withoutUnknownSettings(`${header}${body}`, known);
    expect(dump.endsWith(body)).toBe(true);
  });

  it('changes nothing for a server that knows every setting', () => {
    const all = new Set([...known, 'transaction_timeout', 'some_future_setting']);
    expect(withoutUnknownSettings(header, all)).toEqual({ dump: header, removed: [] });
  });
});
