/** Every partition and sort key is built here and nowhere else (docs/dynamodb.md). */
export const keys = {
  user: (userId: string) => ({ PK: `USER#${userId}`, SK: 'PROFILE' }),
  emailClaim: (normalisedEmail: string) => ({ PK: `EMAIL#${normalisedEmail}`, SK: 'EMAIL' }),
  resetToken: (tokenHash: string) => ({ PK: `RESET#${tokenHash}`, SK: 'RESET' }),
  rateLimit: (scope: string, key: string) => ({ PK: `RATE#${scope}#${key}`, SK: 'RATE' }),
  siteSettings: () => ({ PK: 'SETTINGS', SK: 'SITE' }),
};
