import { describe, expect, it } from 'vitest';
import { validateLogin } from './login-page';

describe('the sign-in checks', () => {
  it('asks for both fields, in Swedish', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({ email: 'E-post krävs', password: 'Lösenord krävs' });
  });

  it('takes an address of only spaces as none, and a password as it is', () => {
    expect(validateLogin({ email: '   ', password: ' ' })).toEqual({ email: 'E-post krävs' });
    expect(validateLogin({ email: ' elsa@demo.se ', password: 'demo1234' })).toEqual({});
  });
});
