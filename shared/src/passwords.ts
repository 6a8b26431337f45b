/**
 * The most common passwords of at least PASSWORD_MIN characters (from public breach
 * corpora). A password on this list is refused at registration and reset.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '123456', '1234567', '12345678', '123456789', '1234567890', '654321', '666666', '111111',
  '000000', '121212', '123123', '112233', '123321', '159753', '147258', '987654321',
  '696969', '555555', '777777', '888888', '999999', '7777777', '11111111', '00000000',
  'password', 'password1', 'password123', 'passw0rd', 'qwerty', 'qwerty123', 'qwertyuiop',
  'abc123', 'abcdef', 'abcd1234', 'iloveyou', 'monkey', 'dragon', 'letmein', 'football',
  'baseball', 'master', 'sunshine', 'shadow', 'superman', 'michael', 'princess', 'charlie',
  'jessica', 'computer', 'trustno1', 'whatever', 'freedom', 'starwars', 'welcome',
  'welcome1', 'admin123', 'administrator', 'login123', 'access', 'secret', 'senha123',
  'senha1234', 'mudar123', 'brasil', 'flamengo', 'corinthians', 'palmeiras', 'contraseña',
  'contrasena', 'asdfgh', 'asdfghjkl', 'zxcvbn', 'zxcvbnm', '1q2w3e', '1q2w3e4r', '1qaz2wsx',
  'q1w2e3r4', 'aaaaaa', 'changeme', 'hello123', 'loveme', 'mustang', 'pokemon', 'batman',
]);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
