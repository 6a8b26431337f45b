/**
 * The most common passwords of at least PASSWORD_MIN (8) characters, from public breach
 * corpora (shorter ones are already refused by the length rule). A password on this list
 * is refused at registration and reset.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '12345678', '123456789', '1234567890', '987654321', '11111111', '00000000', '88888888',
  '12341234', '87654321', '11223344', 'password', 'password1', 'password123', 'passw0rd',
  'password12', 'qwerty123', 'qwertyuiop', 'qwerty12', 'abcd1234', 'iloveyou', 'iloveyou1',
  'football', 'baseball', 'sunshine', 'superman', 'princess', 'computer', 'trustno1', 'whatever',
  'starwars', 'welcome1', 'welcome123', 'admin123', 'administrator', 'login123', 'senha123',
  'senha1234', 'mudar123', 'flamengo', 'corinthians', 'palmeiras', 'contraseña', 'contrasena',
  'asdfghjkl', '1q2w3e4r', '1qaz2wsx', 'q1w2e3r4', 'changeme', 'hello123', 'letmein1', 'michael1',
  'jennifer', 'zaq12wsx',
]);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
